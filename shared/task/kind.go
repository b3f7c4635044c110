package task

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"time"
)

// Processor answers one record of a task. Later issues plug their work in here
// (batch research, ICP validation, contact generation, ...).
type Processor interface {
	// Provider names the outside service Process calls ("openai", "smtp", ...): the
	// engine limits how many records of one provider run at once. "" means none.
	Provider() string
	// Process answers one record. An error that apperr.IsRetryable accepts (one marked
	// with apperr.Retryable, an apperr.ErrUnavailable, ErrRateLimited or ErrConflict,
	// a deadline) is retried with backoff, waiting at least apperr.RetryAfter; any
	// other error, or the last retryable one, becomes an "Error: <reason>" cell in
	// every result column of the record.
	Process(ctx context.Context, rec Record) (Result, error)
}

// Record is what a processor is given: the record's key (a domain or a persona id),
// its own input if the submission gave one, and the task's parameters.
type Record struct {
	Ref
	Key     string
	Index   int             // position in the submission (after duplicates were merged)
	Input   json.RawMessage // per-record input, nil when the submission had none
	Params  json.RawMessage // the task's parameters, as submitted
	Attempt int             // 1 for the first try
}

// Result is the answer for one record.
type Result struct {
	// Row is the record's answer: column label -> value. It is stored as a JSON
	// object and shown under the record's key in results.
	Row map[string]any
	// Warnings are non-fatal problems; the task shows them deduplicated.
	Warnings []string
	// Usage is the spend on each provider/model the record called (cost_metadata).
	// Spend returned with an error counts too: the calls were paid for.
	Usage []Usage
	// Search is the spend on a caller-supplied search provider.
	Search []SearchUsage
	// ExtraCostUSD is folded into estimated_cost without a cost_metadata entry
	// (the API reference's typed-judgment spend).
	ExtraCostUSD float64
}

// Usage is one provider/model's share of a record's spend.
type Usage struct {
	Provider         string  `json:"provider"`
	Model            string  `json:"model"`
	Calls            int     `json:"calls"`
	SearchCalls      int     `json:"search_calls"`
	PromptTokens     *int64  `json:"prompt_tokens,omitempty"`
	CompletionTokens *int64  `json:"completion_tokens,omitempty"`
	CostUSD          float64 `json:"est_cost_usd"`
}

// SearchUsage is a record's use of a caller-supplied search provider.
type SearchUsage struct {
	Provider         string  `json:"provider"`
	Model            string  `json:"search_model"`
	QueriesExecuted  int     `json:"queries_executed"`
	QueriesSucceeded int     `json:"queries_succeeded"`
	CostUSD          float64 `json:"est_cost_usd"`
}

// GenStatusRoute is the engine's general status route (shared/httpapi/generationhttp):
// the kinds whose results it may show list it in their StatusRoutes.
const GenStatusRoute = "GET /v1/gen/status/{task_id}"

// GenCancelRoute is the engine's cancel route: it stops the kinds GenStatusRoute reads
// (Engine.Cancel), and answers any other kind as not found.
const GenCancelRoute = "DELETE /v1/gen/cancel/{task_id}"

// Kind is one sort of task: a name, its processor and its default result columns.
type Kind struct {
	Name      string
	Processor Processor
	// Columns are the result column labels, used when a submission does not name its
	// own (a batch research task's columns depend on its query).
	Columns []string
	// Timeout bounds one attempt of one record; zero means Options.RecordTimeout.
	Timeout time.Duration
	// StatusRoutes are the route patterns ("GET /v1/bulkmatch/status/{task_id}") through
	// which a request reads the kind's tasks. Engine.Status answers any other route's
	// request as if the task did not exist: a kind billed when its results are read
	// (bulk match) is read only where it is billed. A kind with none is read by no
	// route; callers outside a request (no billing.RouteOf in ctx) read every kind.
	StatusRoutes []string
}

// Registry holds the task kinds. A later issue adds a kind with Register at start-up.
type Registry struct {
	mu    sync.RWMutex
	kinds map[string]Kind
}

// NewRegistry makes an empty registry.
func NewRegistry() *Registry { return &Registry{kinds: map[string]Kind{}} }

// Register adds a kind. Names are unique.
func (r *Registry) Register(k Kind) error {
	if k.Name == "" || k.Processor == nil {
		return fmt.Errorf("register task kind %q: a name and a processor are required", k.Name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.kinds[k.Name]; dup {
		return fmt.Errorf("register task kind %q: already registered", k.Name)
	}
	r.kinds[k.Name] = k
	return nil
}

// Lookup returns a registered kind.
func (r *Registry) Lookup(name string) (Kind, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	k, ok := r.kinds[name]
	return k, ok
}

// Names lists the registered kinds, sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]string, 0, len(r.kinds))
	for n := range r.kinds {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
