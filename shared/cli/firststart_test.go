package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a bytes.Buffer the server writes while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A first start on an empty data dir: /healthz answers while the world seeds, /readyz
// answers 200 once contact search is loaded, a contact search then answers, and the
// HNSW graph is built after ready (README "The demo world"), not before.
func TestFirstStartIsSearchableBeforeTheGraph(t *testing.T) {
	data := t.TempDir()
	vars := map[string]string{"FIRMO_DATA_DIR": data, "FIRMO_ADDR": "127.0.0.1:0", "FIRMO_SEED_COMPANIES": "30",
		"FIRMO_LOG_LEVEL": "info", "FIRMO_DNS_RESOLVER": "127.0.0.1:9"}
	var stdout, stderr lockedBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, Env{Args: []string{"serve"}, Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string { return vars[k] }})
	}()
	defer func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("serve exited %d\n%s", code, stderr.String())
		}
	}()

	addr := regexp.MustCompile(`serving on (http://[0-9.:]+)`)
	var base string
	waitFor(t, "the banner", func() bool {
		m := addr.FindStringSubmatch(stdout.String())
		if m != nil {
			base = m[1]
		}
		return m != nil
	}, stderr.String)
	if code := status(t, base+"/healthz"); code != http.StatusOK {
		t.Fatalf("/healthz = %d during the first start", code)
	}
	waitFor(t, "/readyz 200", func() bool { return status(t, base+"/readyz") == http.StatusOK }, stderr.String)

	key, err := os.ReadFile(filepath.Join(data, "demo-api-key"))
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", base+"/v1/contacts/discover", strings.NewReader(`{"icp_text":"head of sales","max_records":20}`))
	req.Header.Set("x-service-key", strings.TrimSpace(string(key)))
	req.Header.Set("content-type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		TotalContacts int `json:"total_contacts"`
	}
	err = json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || err != nil || body.TotalContacts == 0 {
		t.Fatalf("discover once ready = %d, %d contacts, %v", resp.StatusCode, body.TotalContacts, err)
	}

	waitFor(t, "the graph", func() bool { return strings.Contains(stderr.String(), "contact search graph built") }, stderr.String)
	log := stderr.String()
	ready, graph := strings.Index(log, "Ready: the demo world"), strings.Index(log, "contact search graph built")
	if ready < 0 || graph < ready {
		t.Fatalf("ready at %d, graph built at %d in the log: the graph must come after ready\n%s", ready, graph, log)
	}
}

func status(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// waitFor polls cond for up to two minutes (a loaded machine), then fails with log().
func waitFor(t *testing.T, what string, cond func() bool, log func() string) {
	t.Helper()
	for end := time.Now().Add(2 * time.Minute); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("no %s after 2 minutes\n%s", what, log())
}
