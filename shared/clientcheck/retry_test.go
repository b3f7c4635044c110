package clientcheck_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/client"
)

// TestRateLimitIsWaitedOut: a 429 with Retry-After: 1 (from a proxy in front of the
// real server, once) is waited out and the call succeeds on its second attempt, at
// least a second later, with the same x-request-id on both attempts.
func TestRateLimitIsWaitedOut(t *testing.T) {
	t.Parallel()
	s := newServer(t, 0, nil)
	rec := newRecorder(t, s.srv.URL, map[string]failure{"/v1/account": {status: http.StatusTooManyRequests, retryAfter: "1"}})
	c := s.clientAt(t, rec.srv.URL)
	start := time.Now()
	acct, resp, err := c.GetAccount(context.Background())
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if acct.OrgID == "" {
		t.Fatalf("account %+v", acct)
	}
	ids := rec.requestIDs("/v1/account")
	if resp.Attempts != 2 || len(ids) != 2 {
		t.Fatalf("attempts %d, requests %d; want 2", resp.Attempts, len(ids))
	}
	if ids[0] == "" || ids[0] != ids[1] || resp.RequestID != ids[0] {
		t.Fatalf("request ids %q, answer's %q: want one id on both attempts, echoed", ids, resp.RequestID)
	}
	if took < time.Second {
		t.Fatalf("retried after %s, before Retry-After's second", took)
	}
}

// TestUnavailableIsRetried: a 503 without Retry-After is retried after the first
// backoff step (a second) and succeeds.
func TestUnavailableIsRetried(t *testing.T) {
	t.Parallel()
	s := newServer(t, 0, nil)
	rec := newRecorder(t, s.srv.URL, map[string]failure{"/v1/industries": {status: http.StatusServiceUnavailable}})
	c := s.clientAt(t, rec.srv.URL)
	start := time.Now()
	in, resp, err := c.Industries(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Industries) == 0 || resp.Attempts != 2 || len(rec.requestIDs("/v1/industries")) != 2 {
		t.Fatalf("%d industries after %d attempts", len(in.Industries), resp.Attempts)
	}
	if took := time.Since(start); took < time.Second {
		t.Fatalf("retried after %s, before the first backoff step", took)
	}
}

// TestRetryAfterPastTheCapIsReturned: a Retry-After longer than MaxRetryWait is not
// waited out: the 429 comes back as an *Error saying how long to wait.
func TestRetryAfterPastTheCapIsReturned(t *testing.T) {
	t.Parallel()
	s := newServer(t, 0, nil)
	rec := newRecorder(t, s.srv.URL, map[string]failure{"/v1/account": {status: http.StatusTooManyRequests, retryAfter: "30"}})
	c, err := client.New(client.Config{BaseURL: rec.srv.URL, APIKey: s.key, MaxRetryWait: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = c.GetAccount(context.Background())
	var e *client.Error
	if !errors.As(err, &e) || e.Status != http.StatusTooManyRequests || e.RetryAfter != 30*time.Second || !e.Retryable() {
		t.Fatalf("err = %v, want a retryable 429 with Retry-After 30s", err)
	}
	if n := len(rec.requestIDs("/v1/account")); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
}

// TestValidationErrorNamesTheField: a 422 is returned at once as an *Error with the
// API's code, the field at fault and the request id.
func TestValidationErrorNamesTheField(t *testing.T) {
	t.Parallel()
	s := newServer(t, 0, nil)
	rec := newRecorder(t, s.srv.URL, nil)
	c := s.clientAt(t, rec.srv.URL)
	ctx := context.Background()
	for _, tc := range []struct {
		name, path, field string
		call              func() error
	}{
		{"query parameter", "/v1/bizdata", "domain", func() error { _, _, err := c.Bizdata(ctx, ""); return err }},
		{"JSON property", "/v1/email/find", "first_name", func() error {
			_, _, err := c.FindEmail(ctx, client.EmailFindRequest{LastName: "Doe", Domain: "acme.test"})
			return err
		}},
		{"form field", "/v1/bulkmatch", "name_column", func() error {
			_, _, err := c.BulkMatch(ctx, client.BulkMatchRequest{File: nil})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			var e *client.Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want *client.Error", err)
			}
			ids := rec.requestIDs(tc.path)
			if e.Status != http.StatusUnprocessableEntity || e.Code != "validation_error" || e.Field != tc.field || e.Message == "" || e.Retryable() {
				t.Fatalf("error %+v, want 422 validation_error naming %s", e, tc.field)
			}
			if len(ids) != 1 || e.RequestID != ids[0] {
				t.Fatalf("requests %q, error's request id %q: want one request, its id in the error", ids, e.RequestID)
			}
		})
	}
}

// TestOnRetrySaysWhyAndHowLong: each wait between attempts is reported before it
// starts, with its reason and length: a 503's first backoff step is one second plus a
// jitter of at most half a second; a refused connection is named as such.
func TestOnRetrySaysWhyAndHowLong(t *testing.T) {
	t.Parallel()
	s := newServer(t, 0, nil)
	rec := newRecorder(t, s.srv.URL, map[string]failure{"/v1/industries": {status: http.StatusServiceUnavailable}})
	var got []client.Retry
	c, err := client.New(client.Config{BaseURL: rec.srv.URL, APIKey: s.key, OnRetry: func(r client.Retry) { got = append(got, r) }})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Industries(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !strings.HasPrefix(got[0].Reason, "503") || got[0].Attempt != 1 || got[0].Wait < time.Second || got[0].Wait >= 1500*time.Millisecond {
		t.Fatalf("retries reported: %+v; want one 503 wait of 1-1.5 s", got)
	}

	// A port nothing listens on: the closed listener of a test server.
	dead := httptestClosedURL(t)
	got = nil
	c, err = client.New(client.Config{BaseURL: dead, APIKey: "k", Retries: 1, OnRetry: func(r client.Retry) { got = append(got, r) }})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Industries(context.Background()); err == nil {
		t.Fatal("a call to a closed port succeeded")
	}
	if len(got) != 1 || got[0].Reason != "connection refused" {
		t.Fatalf("retries reported: %+v; want one 'connection refused'", got)
	}
}
