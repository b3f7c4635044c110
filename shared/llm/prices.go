package llm

import (
	"sort"
	"strings"
)

// Price is what a vendor charges for a model, in US dollars. The table is a documented
// best effort (README "LLM integrations"): estimated_cost and cost_metadata are
// estimates of spend on the caller's own keys, never a charge by Firmo.
type Price struct {
	InputPerMTok  float64 // per million prompt tokens
	OutputPerMTok float64 // per million completion tokens
	PerSearch     float64 // per built-in web search call
	// WebSearch says whether the model has a built-in web search tool the adapter can use.
	WebSearch bool
}

// prices per provider, keyed by model name prefix; the longest matching prefix wins, so
// dated snapshots ("claude-sonnet-4-20250514") take their family's price and
// "gpt-4o-mini" is not priced as "gpt-4o".
var prices = map[string]map[string]Price{
	"openai": {
		"gpt-5":                      {1.25, 10.00, 0, false},
		"gpt-5-mini":                 {0.25, 2.00, 0, false},
		"gpt-5-nano":                 {0.05, 0.40, 0, false},
		"gpt-5-search-api":           {1.25, 10.00, 0.010, true},
		"gpt-4.1":                    {2.00, 8.00, 0, false},
		"gpt-4.1-mini":               {0.40, 1.60, 0, false},
		"gpt-4.1-nano":               {0.10, 0.40, 0, false},
		"gpt-4o":                     {2.50, 10.00, 0, false},
		"gpt-4o-mini":                {0.15, 0.60, 0, false},
		"gpt-4o-search-preview":      {2.50, 10.00, 0.030, true},
		"gpt-4o-mini-search-preview": {0.15, 0.60, 0.025, true},
		"o3":                         {2.00, 8.00, 0, false},
		"o4-mini":                    {1.10, 4.40, 0, false},
	},
	"anthropic": {
		"claude-opus-4":     {15.00, 75.00, 0.010, true},
		"claude-sonnet-4":   {3.00, 15.00, 0.010, true},
		"claude-3-7-sonnet": {3.00, 15.00, 0.010, true},
		"claude-haiku-4-5":  {1.00, 5.00, 0.010, true},
		"claude-3-5-haiku":  {0.80, 4.00, 0.010, true},
	},
}

// catalogueModels are the models GET /v1/gen/models lists per hosted provider.
var catalogueModels = map[string][]string{
	"openai": {"gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-5-search-api", "gpt-4.1", "gpt-4.1-mini",
		"gpt-4.1-nano", "gpt-4o", "gpt-4o-mini", "gpt-4o-search-preview", "gpt-4o-mini-search-preview", "o3", "o4-mini"},
	"anthropic": {"claude-opus-4-1", "claude-opus-4-0", "claude-sonnet-4-5", "claude-sonnet-4-0",
		"claude-3-7-sonnet-latest", "claude-haiku-4-5", "claude-3-5-haiku-latest"},
}

// PriceOf returns the price of a model, and false when the table does not know it
// (custom and typed endpoints: their cost is reported as 0).
func PriceOf(provider, model string) (Price, bool) {
	table := prices[provider]
	best, found := "", false
	for prefix := range table {
		if strings.HasPrefix(model, prefix) && len(prefix) > len(best) {
			best, found = prefix, true
		}
	}
	if !found {
		return Price{}, false
	}
	return table[best], true
}

// Cost is the price of one call.
func Cost(provider, model string, promptTokens, completionTokens, searches int) float64 {
	p, _ := PriceOf(provider, model)
	return float64(promptTokens)*p.InputPerMTok/1e6 + float64(completionTokens)*p.OutputPerMTok/1e6 + float64(searches)*p.PerSearch
}

// SupportsWebSearch says whether a model has a built-in web search tool.
func SupportsWebSearch(provider, model string) bool {
	p, _ := PriceOf(provider, model)
	return p.WebSearch
}

// Model is one entry of the model catalogue.
type Model struct {
	Name              string `json:"name"`
	SupportsWebSearch bool   `json:"supports_web_search"`
}

// Catalogue returns the static model list of each hosted provider.
func Catalogue() map[string][]Model {
	out := map[string][]Model{}
	providers := make([]string, 0, len(catalogueModels))
	for p := range catalogueModels {
		providers = append(providers, p)
	}
	sort.Strings(providers)
	for _, p := range providers {
		for _, m := range catalogueModels[p] {
			out[p] = append(out[p], Model{Name: m, SupportsWebSearch: SupportsWebSearch(p, m)})
		}
	}
	return out
}
