// Package serpersearch is the websearch.Searcher adapter for Serper's Google Search API
// (POST https://google.serper.dev/search, header X-API-KEY, JSON {"q", "num"}).
package serpersearch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/firmoapi/firmo/shared/websearch"
)

// DefaultBaseURL is Serper's API root.
const DefaultBaseURL = "https://google.serper.dev"

// MaxResults is the largest num Serper accepts.
const MaxResults = 100

// Searcher calls Serper.
type Searcher struct{ api websearch.Endpoint }

var _ websearch.Searcher = (*Searcher)(nil)

// New returns a Searcher; base "" means DefaultBaseURL.
func New(apiKey, base string, client *http.Client) *Searcher {
	return &Searcher{api: websearch.NewEndpoint(websearch.EndpointDeps{Key: apiKey, Base: base, DefaultBase: DefaultBaseURL, HTTP: client})}
}

type response struct {
	Organic []struct {
		Title   string `json:"title"`
		Link    string `json:"link"`
		Snippet string `json:"snippet"`
	} `json:"organic"`
}

// Search implements websearch.Searcher.
func (s *Searcher) Search(ctx context.Context, query string, n int) ([]websearch.Result, error) {
	n = min(max(n, 1), MaxResults)
	payload, _ := json.Marshal(map[string]any{"q": query, "num": n})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.api.Base+"/search", bytes.NewReader(payload))
	if err != nil {
		return nil, fmt.Errorf("serper request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-API-KEY", s.api.Key)
	var r response
	if err := websearch.Call(s.api.HTTP, "serper", req, &r); err != nil {
		return nil, err
	}
	out := make([]websearch.Result, 0, len(r.Organic))
	for _, h := range r.Organic {
		out = append(out, websearch.Result{URL: h.Link, Title: h.Title, Snippet: h.Snippet})
	}
	if len(out) > n {
		out = out[:n]
	}
	return out, nil
}
