package clientcheck_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/client"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/world"
)

// server is a whole local composition (embedded storage) serving over HTTP, with the
// demo organisation's key, as `firmo serve` runs it.
type server struct {
	app  *allapp.App
	srv  *httptest.Server
	key  string
	opts world.Options
}

// newServer starts a composition on a fresh data directory with extra environment
// variables and seeds a small demo world (companies, their contacts and the
// company-name index). Task workers start only when start is called, so a test can
// look at a task before any worker picks it up.
func newServer(t *testing.T, companies int, vars map[string]string) *server {
	t.Helper()
	m := map[string]string{"FIRMO_DATA_DIR": t.TempDir()}
	for k, v := range vars {
		m[k] = v
	}
	cfg, err := config.Load(func(k string) string { return m[k] })
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := allapp.NewLocal(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	d, err := a.EnsureDemo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s := &server{app: a, key: d.Key, opts: world.Options{Seed: 3, Companies: companies, AsOf: time.Now()}.Normalized()}
	s.srv = httptest.NewServer(a.Handler())
	t.Cleanup(func() { s.srv.Close(); a.Close() })
	if companies > 0 {
		if _, err := a.SeedWorld(ctx, s.opts, company.LoadOptions{}, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := a.SeedContacts(ctx, s.opts, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := a.SyncNames(ctx); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// start runs the task workers.
func (s *server) start(t *testing.T) {
	t.Helper()
	if err := s.app.StartTasks(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// client is a client of the server with the demo key, configured from the
// environment variables a user sets.
func (s *server) client(t *testing.T) *client.Client {
	t.Helper()
	return s.clientAt(t, s.srv.URL)
}

func (s *server) clientAt(t *testing.T, base string) *client.Client {
	t.Helper()
	env := map[string]string{client.EnvURL: base, client.EnvAPIKey: s.key}
	c, err := client.New(client.ConfigFromEnv(func(k string) string { return env[k] }))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (s *server) world() *world.World { return world.New(s.opts) }

// fakeLLM is a local server speaking the OpenAI chat-completions wire format; every
// answer is "They sell things.".
func fakeLLM(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/models":
			fmt.Fprint(w, `{"object":"list","data":[{"id":"test-model","object":"model","created":1,"owned_by":"me"}]}`)
		case "/v1/chat/completions":
			var req struct {
				Model string `json:"model"`
			}
			json.NewDecoder(r.Body).Decode(&req)
			fmt.Fprintf(w, `{"id":"c1","object":"chat.completion","created":1,"model":%q,"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"They sell things."}}],"usage":{"prompt_tokens":10,"completion_tokens":4,"total_tokens":14}}`, req.Model)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// recorder is a proxy in front of a server that records the x-request-id of every
// request and answers the first request of a path with a canned status instead of
// forwarding it.
type recorder struct {
	mu      sync.Mutex
	ids     map[string][]string // by path
	failing map[string]failure  // the first request of a path fails
	srv     *httptest.Server
}

type failure struct {
	status     int
	retryAfter string
}

func newRecorder(t *testing.T, target string, failing map[string]failure) *recorder {
	r := &recorder{ids: map[string][]string{}, failing: failing}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.ids[req.URL.Path] = append(r.ids[req.URL.Path], req.Header.Get("x-request-id"))
		f, fail := r.failing[req.URL.Path]
		delete(r.failing, req.URL.Path)
		r.mu.Unlock()
		if fail {
			if f.retryAfter != "" {
				w.Header().Set("Retry-After", f.retryAfter)
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(f.status)
			fmt.Fprintf(w, `{"error":{"code":"rate_limited","message":"slow down","request_id":%q}}`, req.Header.Get("x-request-id"))
			return
		}
		out, err := http.NewRequestWithContext(req.Context(), req.Method, target+req.URL.RequestURI(), req.Body)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		out.Header = req.Header.Clone()
		resp, err := http.DefaultTransport.RoundTrip(out)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *recorder) requestIDs(path string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.ids[path]...)
}

// demoAdminPassword is the demo admin's password the server wrote on first start.
func (s *server) demoAdminPassword(t *testing.T) string {
	t.Helper()
	pw, err := os.ReadFile(filepath.Join(s.app.Config.DataDir, allapp.DemoPasswordFile))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(pw))
}

// httptestClosedURL is the address of a test server already closed: connections to it
// are refused.
func httptestClosedURL(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.NotFoundHandler())
	u := srv.URL
	srv.Close()
	return u
}
