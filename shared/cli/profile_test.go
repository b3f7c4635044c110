package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoginProfiles: firmo login checks the key against the server and stores it in a
// profile file of mode 0600; a later command with no FIRMO_API_KEY uses the profile,
// FIRMO_API_KEY wins over it and --key over both; a wrong key is refused and not stored.
func TestLoginProfiles(t *testing.T) {
	s := server(t)
	cfgFile := filepath.Join(t.TempDir(), "firmo", "config.json")
	run := func(vars map[string]string, stdin string, args ...string) remoteRun {
		var out, errb bytes.Buffer
		vars["FIRMO_CONFIG"] = cfgFile
		code := Run(context.Background(), Env{Args: args, Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
			Getenv: func(k string) string { return vars[k] }})
		return remoteRun{code, out.String(), errb.String()}
	}
	r := run(map[string]string{}, "fk_wrong_key\n", "login", "--url", s.srv.URL, "--profile", "work")
	if r.code != 1 || !strings.Contains(r.stderr, "401") {
		t.Fatalf("wrong key: exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(cfgFile); err == nil {
		t.Fatal("a refused key was stored")
	}
	r = run(map[string]string{}, s.key+"\n", "login", "--url", s.srv.URL, "--profile", "work")
	if r.code != 0 || !strings.Contains(r.stderr, `profile "work" saved`) {
		t.Fatalf("login: exit %d\n%s", r.code, r.stderr)
	}
	st, err := os.Stat(cfgFile)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("config file: %v %v", err, st)
	}
	// The profile, named by flag or by FIRMO_PROFILE, with nothing in the environment.
	var count struct {
		Count *int `json:"count"`
	}
	r = run(map[string]string{}, "", "api", "count", "--profile", "work")
	mustJSON(t, r, &count)
	r = run(map[string]string{"FIRMO_PROFILE": "work"}, "", "api", "count")
	mustJSON(t, r, &count)
	if count.Count == nil {
		t.Fatalf("count: %s", r.stdout)
	}
	// FIRMO_API_KEY wins over the profile's key, --key over both.
	r = run(map[string]string{"FIRMO_PROFILE": "work", "FIRMO_API_KEY": "fk_wrong_env"}, "", "api", "count")
	if r.code != 1 || !strings.Contains(r.stderr, "401") {
		t.Fatalf("env key should win: exit %d\n%s", r.code, r.stderr)
	}
	r = run(map[string]string{"FIRMO_PROFILE": "work", "FIRMO_API_KEY": "fk_wrong_env"}, "", "api", "count", "--key", s.key)
	mustJSON(t, r, &count)
	// A profile named but not stored is a usage error naming it.
	r = run(map[string]string{}, "", "api", "count", "--profile", "nope")
	if r.code != 2 || !strings.Contains(r.stderr, `no profile "nope"`) {
		t.Fatalf("unknown profile: exit %d\n%s", r.code, r.stderr)
	}
	r = run(map[string]string{}, "", "login", "--list")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "work\t"+s.srv.URL+"\tfk_") || strings.Contains(r.stdout, s.key) {
		t.Fatalf("login --list: %q", r.stdout)
	}
}

// TestAPIRequest: firmo api request calls any operation with a query or a JSON body, and
// refuses a path that is no operation, naming the nearest ones.
func TestAPIRequest(t *testing.T) {
	s := server(t)
	var acct struct {
		OrgID string `json:"org_id"`
	}
	mustJSON(t, s.firmo(t, "api", "request", "GET", "/v1/account"), &acct)
	if acct.OrgID == "" {
		t.Fatal("no org_id")
	}
	var score struct {
		Domain string `json:"domain"`
	}
	d := s.world.Domain(0)
	mustJSON(t, s.firmo(t, "api", "request", "get", "/v1/score", "--query", "domain="+d), &score)
	if score.Domain != d {
		t.Fatalf("score of %s: %+v", d, score)
	}
	body := filepath.Join(t.TempDir(), "q.json")
	os.WriteFile(body, []byte(`{"domain":["`+d+`"],"max_records":20}`), 0o644)
	var disc struct {
		Results map[string]json.RawMessage `json:"results"`
	}
	mustJSON(t, s.firmo(t, "api", "request", "POST", "/v1/contacts/discover", "--body", "@"+body), &disc)
	if _, ok := disc.Results[d]; !ok {
		t.Fatalf("discover by body: %v", disc.Results)
	}
	r := s.firmo(t, "api", "request", "GET", "/v1/scroe")
	if r.code != 2 || !strings.Contains(r.stderr, "not an operation") {
		t.Fatalf("unknown path: exit %d\n%s", r.code, r.stderr)
	}
	r = s.firmo(t, "api", "request", "DELETE", "/v1/score")
	if r.code != 2 || !strings.Contains(r.stderr, "did you mean: GET /v1/score") {
		t.Fatalf("wrong method: exit %d\n%s", r.code, r.stderr)
	}
}
