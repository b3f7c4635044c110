package websearch

// Prices are the estimated cost of one query per provider kind, in USD, from the
// vendors' public pay-as-you-go prices (the native index is Firmo's own and free); cost_metadata.search_provider.est_cost_usd sums them.
var Prices = map[string]float64{
	KindNative: 0,
	KindBrave:  0.005,
	KindSerper: 0.001,
}

// Models name what each provider kind searches (cost_metadata.search_provider.search_model).
var Models = map[string]string{
	KindNative: "firmo-page-index",
	KindBrave:  "brave-web-search",
	KindSerper: "serper-google-search",
}
