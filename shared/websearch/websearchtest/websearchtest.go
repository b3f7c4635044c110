// Package websearchtest is the contract suite of the search API adapters of
// websearch.Searcher: how they turn HTTP failures into the port's errors. Each adapter
// runs it with its provider's real error bodies.
package websearchtest

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/websearch"
)

// ErrorCase is an answer of the provider and the port error it must give.
type ErrorCase struct {
	Status int
	Body   string
	Want   error
}

// HTTPErrors runs cases against the Searcher newSearcher makes for a test server's
// base URL, and the failures every adapter shares: a server that is gone and a 200
// that is not JSON are websearch.ErrUnavailable, and a cancelled request returns the
// context's error. An error is retryable (apperr.IsRetryable) exactly when it is
// websearch.ErrUnavailable.
func HTTPErrors(t *testing.T, newSearcher func(baseURL string) websearch.Searcher, cases []ErrorCase) {
	answer := func(status int, body string) *httptest.Server {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(status)
			_, _ = io.WriteString(w, body)
		}))
		t.Cleanup(srv.Close)
		return srv
	}
	for _, c := range cases {
		t.Run(http.StatusText(c.Status), func(t *testing.T) {
			_, err := newSearcher(answer(c.Status, c.Body).URL).Search(context.Background(), "q", 3)
			if !errors.Is(err, c.Want) {
				t.Fatalf("err = %v, want %v", err, c.Want)
			}
			if got, want := apperr.IsRetryable(err), errors.Is(c.Want, websearch.ErrUnavailable); got != want {
				t.Fatalf("apperr.IsRetryable(%v) = %v, want %v", err, got, want)
			}
		})
	}
	t.Run("undecodable", func(t *testing.T) {
		_, err := newSearcher(answer(http.StatusOK, "<html>not json</html>").URL).Search(context.Background(), "q", 3)
		if !errors.Is(err, websearch.ErrUnavailable) {
			t.Fatalf("err = %v, want ErrUnavailable", err)
		}
	})
	t.Run("server gone", func(t *testing.T) {
		srv := answer(http.StatusOK, "{}")
		srv.Close()
		_, err := newSearcher(srv.URL).Search(context.Background(), "q", 3)
		if !errors.Is(err, websearch.ErrUnavailable) || !apperr.IsRetryable(err) {
			t.Fatalf("err = %v, want a retryable ErrUnavailable", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := newSearcher(answer(http.StatusOK, "{}").URL).Search(ctx, "q", 3)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})
}
