// Package bravesearch is the websearch.Searcher adapter for the Brave Search API
// (GET https://api.search.brave.com/res/v1/web/search, header X-Subscription-Token).
package bravesearch

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/firmoapi/firmo/shared/websearch"
)

// DefaultBaseURL is Brave's API root.
const DefaultBaseURL = "https://api.search.brave.com/res/v1"

// MaxResults is Brave's largest page (count).
const MaxResults = 20

// Searcher calls Brave.
type Searcher struct{ api websearch.Endpoint }

var _ websearch.Searcher = (*Searcher)(nil)

// New returns a Searcher; base "" means DefaultBaseURL.
func New(apiKey, base string, client *http.Client) *Searcher {
	return &Searcher{api: websearch.NewEndpoint(websearch.EndpointDeps{Key: apiKey, Base: base, DefaultBase: DefaultBaseURL, HTTP: client})}
}

type response struct {
	Web struct {
		Results []struct {
			Title       string `json:"title"`
			URL         string `json:"url"`
			Description string `json:"description"`
		} `json:"results"`
	} `json:"web"`
}

// Search implements websearch.Searcher.
func (s *Searcher) Search(ctx context.Context, query string, n int) ([]websearch.Result, error) {
	n = min(max(n, 1), MaxResults)
	q := url.Values{"q": {query}, "count": {strconv.Itoa(n)}, "result_filter": {"web"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.api.Base+"/web/search?"+q.Encode(), nil)
	if err != nil {
		return nil, fmt.Errorf("brave request: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("X-Subscription-Token", s.api.Key)
	var r response
	if err := websearch.Call(s.api.HTTP, "brave", req, &r); err != nil {
		return nil, err
	}
	out := make([]websearch.Result, 0, len(r.Web.Results))
	for _, h := range r.Web.Results {
		out = append(out, websearch.Result{URL: h.URL, Title: h.Title, Snippet: websearch.StripTags(h.Description)})
	}
	if len(out) > n {
		out = out[:n]
	}
	return out, nil
}
