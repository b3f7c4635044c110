package httpapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestWriteErrorClientGone: a request whose client disconnected (its context canceled)
// is logged at info as a disconnect, not as a failed request with status 500; the same
// error on a live request still is one.
func TestWriteErrorClientGone(t *testing.T) {
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := httptest.NewRequest("POST", "/v1/append", nil).WithContext(ctx)
	w := httptest.NewRecorder()
	WriteError(w, r, log, fmt.Errorf("claim records: %w", context.Canceled))
	if w.Code != StatusClientClosedRequest {
		t.Errorf("status %d, want %d", w.Code, StatusClientClosedRequest)
	}
	got := logs.String()
	if !strings.Contains(got, "level=INFO") || !strings.Contains(got, "client disconnected") || strings.Contains(got, "level=ERROR") {
		t.Errorf("log = %q, want one info line 'client disconnected'", got)
	}

	logs.Reset()
	live := httptest.NewRequest("POST", "/v1/append", nil)
	w = httptest.NewRecorder()
	WriteError(w, live, log, fmt.Errorf("claim records: %w", errors.New("disk full")))
	if w.Code != 500 || !strings.Contains(logs.String(), "level=ERROR") {
		t.Errorf("a live request's internal error: status %d, log %q; want 500 logged at error", w.Code, logs.String())
	}
}
