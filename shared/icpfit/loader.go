package icpfit

import (
	_ "embed"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
)

// defaultModel is the shipped model (see EVALUATION.md for what it was trained on).
//
//go:embed default_model.json
var defaultModel []byte

// DefaultModel parses the embedded model.
func DefaultModel() (*Model, error) { return Parse(defaultModel) }

// RetryAfter is the Retry-After of the 503 a model that cannot be loaded gives, and
// how long a Loader waits before it tries the file again.
const RetryAfter = 30 * time.Second

// Loader loads the model file once, on first use, shared by concurrent callers; an
// empty path means the embedded default model. A failed load is tried again on a call
// RetryAfter later (the file may have been fixed or mounted meanwhile).
type Loader struct {
	path string
	now  func() time.Time

	mu       sync.Mutex
	model    *Model
	err      error
	failedAt time.Time
}

// NewLoader returns a Loader of the model file at path ("" for the embedded model).
func NewLoader(path string) *Loader { return &Loader{path: path, now: time.Now} }

// Model returns the loaded model. Its error is retryable (a 503 with Retry-After
// through apperr) when the file cannot be read or is not a valid model file.
func (l *Loader) Model() (*Model, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.model != nil {
		return l.model, nil
	}
	if l.err != nil && l.now().Sub(l.failedAt) < RetryAfter {
		return nil, l.err
	}
	m, err := l.load()
	if err != nil {
		l.err, l.failedAt = apperr.Retryable(&apperr.Error{Kind: apperr.ErrUnavailable, RetryAfter: RetryAfter,
			Message: "The native ICP-fit model is unavailable; retry later, or use an LLM integration."}, RetryAfter), l.now()
		l.err = fmt.Errorf("load icp model: %v: %w", err, l.err)
		return nil, l.err
	}
	l.model, l.err = m, nil
	return m, nil
}

func (l *Loader) load() (*Model, error) {
	if l.path == "" {
		return DefaultModel()
	}
	b, err := os.ReadFile(l.path)
	if err != nil {
		return nil, err
	}
	return Parse(b)
}
