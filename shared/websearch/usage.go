package websearch

import (
	"context"
	"errors"
)

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

// Run is what running a list of queries through one provider gave.
type Run struct {
	// Hits are the results of every query that answered, in query order.
	Hits []Result
	// Executed counts the queries the provider was sent (and prices); Succeeded those
	// that answered.
	Executed, Succeeded int
	// CostUSD is the estimated cost of the executed queries (Prices).
	CostUSD float64
	// Stopped is ErrCircuitOpen or ErrOutOfCredits when the run stopped before its last
	// query (the caller turns it into a warning); nil otherwise.
	Stopped error
}

// RunQueries sends queries in order to s, a provider of kind, asking perQuery results
// of each. A query that fails for another reason is skipped. A query the open circuit
// refuses was not sent and is not counted; one refused for lack of credit was.
func RunQueries(ctx context.Context, s Searcher, kind string, queries []string, perQuery int) Run {
	var r Run
	for _, q := range queries {
		hits, err := s.Search(ctx, q, perQuery)
		if errors.Is(err, ErrCircuitOpen) {
			r.Stopped = err
			break
		}
		r.Executed++
		r.CostUSD += Prices[kind]
		if errors.Is(err, ErrOutOfCredits) {
			r.Stopped = err
			break
		}
		if err != nil {
			continue
		}
		r.Succeeded++
		r.Hits = append(r.Hits, hits...)
	}
	return r
}
