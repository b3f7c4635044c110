package mcpserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/mcpserver"
)

// The review's finding: one malformed line ends `firmo mcp`. It is now answered with
// JSON-RPC's parse error (-32700, id null), and the next request is served.
func TestMalformedLineAnsweredAndServerGoesOn(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- mcpserver.Serve(ctx, mcpserver.New(nil, mcpserver.Options{}), inR, outW)
		outW.Close() // a server that ended answers nothing more: the reads below fail
	}()
	lines := bufio.NewScanner(outR)
	lines.Buffer(make([]byte, 1<<20), 1<<24)
	next := func() map[string]any {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("no answer: %v", lines.Err())
		}
		var m map[string]any
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("answer %q is not JSON: %v", lines.Text(), err)
		}
		return m
	}
	send := func(s string) {
		t.Helper()
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send("{{{")
	m := next()
	if e, _ := m["error"].(map[string]any); e == nil || e["code"] != float64(-32700) || m["id"] != nil {
		t.Fatalf("answer to {{{ = %v, want error -32700 with id null", m)
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if m := next(); m["id"] != float64(1) || m["result"] == nil {
		t.Fatalf("initialize after the bad line = %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`not json either`)
	if m := next(); m["error"] == nil {
		t.Fatalf("second bad line = %v, want a parse error", m)
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	m = next()
	res, _ := m["result"].(map[string]any)
	if m["id"] != float64(2) || res == nil || !strings.Contains(lines.Text(), "search_contacts") {
		t.Fatalf("tools/list after the bad lines = %v", m)
	}
	inW.Close()
	for lines.Scan() {
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve ended with %v after the client closed its input", err)
		}
	case <-ctx.Done():
		t.Fatal("Serve did not end when the input closed")
	}
}
