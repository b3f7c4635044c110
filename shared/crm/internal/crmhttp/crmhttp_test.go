package crmhttp_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/crm"
	"github.com/firmoapi/firmo/shared/crm/internal/crmhttp"
)

// script answers the i-th request with answers[i] (the last one repeats).
func script(t *testing.T, answers ...func(w http.ResponseWriter)) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		answers[min(i, len(answers)-1)](w)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func status(code int, header, body string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		if k, v, ok := strings.Cut(header, ": "); ok {
			w.Header().Set(k, v)
		}
		w.WriteHeader(code)
		w.Write([]byte(body))
	}
}

type recorder struct{ waits []time.Duration }

func (r *recorder) sleep(ctx context.Context, d time.Duration) error {
	r.waits = append(r.waits, d)
	return ctx.Err()
}

func caller(r *recorder, now time.Time) *crmhttp.Caller {
	return &crmhttp.Caller{
		Provider: "test", Sleep: r.sleep, Now: func() time.Time { return now },
		Message: func(b []byte) string { return string(b) },
	}
}

func TestRetryAfterForms(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	ok := status(200, "", `{"v":1}`)
	for _, tc := range []struct {
		name   string
		header string
		want   []time.Duration
	}{
		{"seconds", "Retry-After: 3", []time.Duration{3 * time.Second}},
		{"http date", "Retry-After: " + now.Add(9*time.Second).Format(http.TimeFormat), []time.Duration{9 * time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := script(t, status(429, tc.header, "slow down"), ok)
			rec := &recorder{}
			var out struct{ V int }
			if err := caller(rec, now).GetJSON(context.Background(), crmhttp.Request{HTTP: srv.Client(), URL: srv.URL}, &out); err != nil || out.V != 1 {
				t.Fatalf("GetJSON = %v, %+v", err, out)
			}
			if len(rec.waits) != 1 || rec.waits[0] != tc.want[0] {
				t.Errorf("waits %v, want %v", rec.waits, tc.want)
			}
		})
	}
}

func TestNoRetryAfterBacksOffDoubling(t *testing.T) {
	srv, calls := script(t, status(429, "", ""), status(429, "", ""), status(429, "", ""), status(200, "", `{}`))
	rec := &recorder{}
	var out struct{}
	if err := caller(rec, time.Now()).GetJSON(context.Background(), crmhttp.Request{HTTP: srv.Client(), URL: srv.URL}, &out); err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}
	if len(rec.waits) != 3 || rec.waits[0] != want[0] || rec.waits[1] != want[1] || rec.waits[2] != want[2] || calls.Load() != 4 {
		t.Errorf("waits %v over %d calls, want %v over 4", rec.waits, calls.Load(), want)
	}
}

func TestRetryAfterBeyondMaxWaitFailsAtOnce(t *testing.T) {
	srv, calls := script(t, status(429, "Retry-After: 3600", "daily limit"))
	rec := &recorder{}
	c := caller(rec, time.Now())
	c.MaxWait = time.Minute
	var out struct{}
	err := c.GetJSON(context.Background(), crmhttp.Request{HTTP: srv.Client(), URL: srv.URL}, &out)
	if !errors.Is(err, apperr.ErrRateLimited) || apperr.RetryAfter(err) != time.Hour || len(rec.waits) != 0 || calls.Load() != 1 {
		t.Fatalf("GetJSON = %v (retry after %s), %d waits, %d calls; want rate limited, retry after 1h, no wait, 1 call",
			err, apperr.RetryAfter(err), len(rec.waits), calls.Load())
	}
}

func TestStatusMapping(t *testing.T) {
	for _, tc := range []struct {
		code int
		want error
	}{
		{401, crm.ErrTokenRejected},
		{403, apperr.ErrBadRequest},
		{404, apperr.ErrBadRequest},
		{500, apperr.ErrUnavailable},
		{503, apperr.ErrUnavailable},
	} {
		srv, _ := script(t, status(tc.code, "", "provider says no"))
		var out struct{}
		err := caller(&recorder{}, time.Now()).GetJSON(context.Background(), crmhttp.Request{HTTP: srv.Client(), URL: srv.URL}, &out)
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), "provider says no") {
			t.Errorf("HTTP %d: %v, want %v with the provider's message", tc.code, err, tc.want)
		}
	}
}

func TestSleepRespectsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := crmhttp.Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("Sleep on a cancelled context = %v, want context.Canceled", err)
	}
	if err := crmhttp.Sleep(context.Background(), time.Millisecond); err != nil {
		t.Fatalf("Sleep 1ms = %v", err)
	}
}
