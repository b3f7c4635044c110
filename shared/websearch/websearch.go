// Package websearch is the port to web search providers and the organisation-level
// search provider resource (keys sealed at rest, one default per organisation).
//
// Adapters: bravesearch (Brave Search API), serpersearch (Serper Google Search API)
// and nativesearch (Firmo's own page index, so the demo works offline). Every
// provider is wrapped in a circuit breaker and out-of-credit detection; callers turn
// ErrOutOfCredits and ErrCircuitOpen into task warnings.
package websearch

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
)

// Result is one search hit.
type Result struct {
	URL     string `json:"url"`
	Title   string `json:"title"`
	Snippet string `json:"snippet"`
}

// Searcher runs web searches.
type Searcher interface {
	// Search returns up to n results for query.
	Search(ctx context.Context, query string, n int) ([]Result, error)
}

// Provider kinds.
const (
	KindNative = "native"
	KindBrave  = "brave"
	KindSerper = "serper"
)

// Kinds lists the accepted provider kinds.
var Kinds = []string{KindNative, KindBrave, KindSerper}

// Provider is one search provider of an organisation, as the API shows it.
type Provider struct {
	ID        string    `json:"provider_id"`
	Kind      string    `json:"provider"`
	Name      string    `json:"name"`
	IsDefault bool      `json:"is_default"`
	CreatedAt time.Time `json:"created_at"`
}

// Errors callers inspect with errors.Is.
var (
	// ErrOutOfCredits: the provider refused for lack of credit or quota.
	ErrOutOfCredits = errors.New("search provider: out of credits")
	// ErrCircuitOpen: too many consecutive failures; calls are refused until the
	// breaker's cool-down has passed.
	ErrCircuitOpen = errors.New("search provider: circuit breaker open")
	// ErrAuth: the provider refused the api key.
	ErrAuth = errors.New("search provider: authentication failed")
	// ErrUnavailable: a transient failure (timeouts, 5xx, rate limits). It wraps
	// apperr.ErrUnavailable, so retriers (apperr.IsRetryable) and the HTTP layer (503)
	// read it like any other dependency outage.
	ErrUnavailable = fmt.Errorf("search provider: %w", apperr.ErrUnavailable)
)

// CodeNoProvider is the 400 code when no search provider is available.
const CodeNoProvider = "no_search_provider"
