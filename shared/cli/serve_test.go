package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/httpapi"
)

// The demo key is a secret: the banner shows it on the start that issued it, once,
// and later starts only name its file (README "Two commands").
func TestBannerShowsTheDemoKeyOnItsFirstStartOnly(t *testing.T) {
	const key = "fk_demo000001_0123456789abcdef0123456789abcdef"
	for _, tc := range []struct {
		name    string
		created bool
		want    int
	}{
		{"first start", true, 1},
		{"later start", false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			printBanner(&out, "[::]:8080", "data", account.Demo{Org: account.Org{Name: "Demo"}, Key: key, KeyCreated: tc.created})
			if got := strings.Count(out.String(), key); got != tc.want {
				t.Fatalf("key printed %d times, want %d:\n%s", got, tc.want, out.String())
			}
			if !strings.Contains(out.String(), "data/demo-api-key") {
				t.Fatalf("banner does not name the key file:\n%s", out.String())
			}
		})
	}
}

// A client that trickles its body is cut once the body deadline passes after its
// headers, and a handler that runs longer than the deadline once it has the body is
// not (its context stays live).
func TestSlowBodyIsCutAtTheBodyDeadline(t *testing.T) {
	cfg := config.Config{BodyTimeout: 300 * time.Millisecond}
	srv := newHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, "slow body", http.StatusRequestTimeout)
			return
		}
		time.Sleep(3 * cfg.BodyTimeout) // work after the body: not cut
		if err := r.Context().Err(); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		io.WriteString(w, "ok")
	}), cfg)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

	t.Run("trickled body", func(t *testing.T) {
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n")
		stop := make(chan struct{})
		defer close(stop)
		go func() { // one byte every 100 ms: 10 s for the whole body
			for {
				select {
				case <-stop:
					return
				case <-time.After(100 * time.Millisecond):
					if _, err := conn.Write([]byte("x")); err != nil {
						return
					}
				}
			}
		}()
		// The server must answer or close well before the body could complete; the
		// bound only keeps a broken server from hanging the test.
		// A server that closes while the client still writes may reset the connection
		// instead of ending it: both mean it was cut; only the read deadline means not.
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := io.ReadAll(conn); errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("the connection was still open after 5 s of a 300 ms body deadline: %v", err)
		}
	})
	t.Run("prompt body, slow handler", func(t *testing.T) {
		resp, err := http.Post("http://"+ln.Addr().String()+"/", "application/json", strings.NewReader(`{"a":1}`))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || string(body) != "ok" {
			t.Fatalf("got %d %q", resp.StatusCode, body)
		}
	})
}

// While the demo world loads, /readyz and the families that read it answer 503 with
// Retry-After; accounts and health answer; while contact search and the name index
// load, contact search and name matching wait (a match read from a half-synced name
// index answered "no match" for seeded companies); once the names are in, only contact
// search waits. A restart starts in the indexing phase (its name index may be missing
// or behind the store, and contact search loads afresh).
func TestReadinessGate(t *testing.T) {
	route := func(path string, f httpapi.Family) httpapi.Route { return httpapi.Route{Path: path, Family: f} }
	healthz, readyz := route("/healthz", httpapi.FamilyAccount), route("/readyz", httpapi.FamilyAccount)
	account, score := route("/v1/account", httpapi.FamilyAccount), route("/v1/score", httpapi.FamilyCompany)
	contacts := route("/v1/contacts/count", httpapi.FamilyContacts)
	match, bulkmatch := route("/v1/match", httpapi.FamilyCompany), route("/v1/bulkmatch", httpapi.FamilyCompany)
	bulkStatus := route("/v1/bulkmatch/status/{task_id}", httpapi.FamilyCompany)
	for _, tc := range []struct {
		name   string
		phase  *phase
		held   []httpapi.Route
		served []httpapi.Route
	}{
		{"seeding", seedingPhase(), []httpapi.Route{readyz, score, contacts, match, bulkmatch}, []httpapi.Route{healthz, account}},
		{"indexing", indexingPhase(true), []httpapi.Route{readyz, contacts, match, bulkmatch}, []httpapi.Route{healthz, account, score, bulkStatus}},
		{"names synced", contactsPhase(true), []httpapi.Route{readyz, contacts}, []httpapi.Route{healthz, account, score, match, bulkmatch, bulkStatus}},
		{"restart", startPhase(false), []httpapi.Route{readyz, contacts, match, bulkmatch}, []httpapi.Route{healthz, account, score, bulkStatus}},
		{"restart, names synced", contactsPhase(false), []httpapi.Route{readyz, contacts}, []httpapi.Route{healthz, account, score, match, bulkmatch, bulkStatus}},
		{"ready", nil, nil, []httpapi.Route{healthz, readyz, account, score, contacts, match, bulkmatch}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r readiness
			r.set(tc.phase)
			for _, rt := range tc.held {
				d := apperr.Describe(r.gate(rt))
				if d.Status != 503 || d.RetryAfter <= 0 {
					t.Errorf("%s: %d, retry after %v; want 503 with Retry-After", rt.Path, d.Status, d.RetryAfter)
				}
			}
			for _, rt := range tc.served {
				if err := r.gate(rt); err != nil {
					t.Errorf("%s: %v; want it served", rt.Path, err)
				}
			}
		})
	}
}

// A port another program holds stops firmo serve with one line saying how to pick
// another (FIRMO_ADDR) and how to point the commands at it (FIRMO_URL).
func TestServeNamesTheAddressSettingWhenThePortIsTaken(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	vars := map[string]string{"FIRMO_ADDR": ln.Addr().String(), "FIRMO_DATA_DIR": t.TempDir(), "FIRMO_SEED_COMPANIES": "0"}
	var stdout, stderr strings.Builder
	code := Run(context.Background(), Env{Args: []string{"serve"}, Stdout: &stdout, Stderr: &stderr,
		Getenv: func(k string) string { return vars[k] }})
	if code != 1 || !strings.Contains(stderr.String(), "address already in use") ||
		!strings.Contains(stderr.String(), "set FIRMO_ADDR") || !strings.Contains(stderr.String(), "FIRMO_URL=") {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
}
