package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestMCPOverStdio runs `firmo mcp` through the command's entry point with its stdin and
// stdout on pipes, as an agent's host starts it, and holds a session with the SDK's own
// client against the shared live server: the tools are listed, a call answers from the
// demo world, a bad argument is a tool error, and closing stdin ends the command with
// exit status 0.
func TestMCPOverStdio(t *testing.T) {
	s := server(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	stdinR, stdinW := io.Pipe()
	stdoutR, stdoutW := io.Pipe()
	var stderr syncBuffer
	vars := map[string]string{"FIRMO_URL": s.srv.URL, "FIRMO_API_KEY": s.key}
	done := make(chan int, 1)
	go func() {
		code := Run(ctx, Env{Args: []string{"mcp"}, Stdin: stdinR, Stdout: stdoutW, Stderr: &stderr, Getenv: func(k string) string { return vars[k] }})
		stdoutW.Close()
		done <- code
	}()

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-host", Version: "1"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: stdoutR, Writer: stdinW}, nil)
	if err != nil {
		t.Fatalf("connect: %v; stderr:\n%s", err, stderr.String())
	}
	if got := cs.InitializeResult().ServerInfo.Name; got != "firmo" {
		t.Errorf("server name = %q, want firmo", got)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tool := range tools.Tools {
		names[tool.Name] = true
	}
	for _, want := range []string{"search_contacts", "count_contacts", "company_profile", "company_score", "match_company", "find_email", "task_status"} {
		if !names[want] {
			t.Errorf("tool %s is not listed (tools %v)", want, names)
		}
	}

	c := s.world.Company(0)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "company_profile", Arguments: map[string]any{"domain": c.Domain}})
	if err != nil {
		t.Fatal(err)
	}
	var p struct{ Domain, Name string }
	raw, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(raw, &p)
	if res.IsError || p.Domain != c.Domain || p.Name != c.Truth.Name {
		t.Errorf("company_profile(%s) = %s; the world's company is %q", c.Domain, raw, c.Truth.Name)
	}

	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "count_contacts", Arguments: map[string]any{"employee_range": "ten,twenty"}})
	if err != nil {
		t.Fatal(err)
	}
	if msg := res.Content[0].(*mcp.TextContent).Text; !res.IsError || !strings.Contains(msg, "employee_range") {
		t.Errorf("count_contacts with a bad employee_range = IsError %v %q; want a tool error naming employee_range", res.IsError, msg)
	}

	cs.Close() // closes the command's stdin
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("firmo mcp exited %d after stdin closed; stderr:\n%s", code, stderr.String())
		}
	case <-ctx.Done():
		t.Fatal("firmo mcp did not end after its stdin closed")
	}
}

// TestMCPNeedsKey: without an API key the command stops before serving, saying what to set.
func TestMCPNeedsKey(t *testing.T) {
	var out, errb bytes.Buffer
	code := Run(context.Background(), Env{Args: []string{"mcp"}, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" }})
	if code != 2 || !strings.Contains(errb.String(), "FIRMO_API_KEY") || out.Len() != 0 {
		t.Errorf("firmo mcp without a key = exit %d, stdout %q, stderr %q; want 2 and a message naming FIRMO_API_KEY", code, out.String(), errb.String())
	}
}
