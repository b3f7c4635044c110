package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/world"
)

// liveServer is the whole API in the local composition on embedded storage, seeded
// with a small demo world and its contacts, shared by this package's remote tests.
type liveServer struct {
	app   *allapp.App
	srv   *httptest.Server
	key   string
	world *world.World
	// llm is an OpenAI-compatible model server for LLM integrations: every answer is
	// llmAnswer.
	llm *httptest.Server
}

// llmAnswer is the fake model's reply: an ICP verdict (batch research shows it as text).
const llmAnswer = `{"Fit":"Yes","Confidence":"High","Reasoning":"It sells to businesses."}`

// newFakeLLM answers the chat-completions wire format with llmAnswer.
func newFakeLLM() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/models":
			fmt.Fprint(w, `{"object":"list","data":[{"id":"test-model","object":"model","created":1,"owned_by":"me"}]}`)
		case "/v1/chat/completions":
			io.Copy(io.Discard, r.Body)
			reply, _ := json.Marshal(llmAnswer)
			fmt.Fprintf(w, `{"id":"c1","object":"chat.completion","created":1,"model":"test-model","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":%s}}],"usage":{"prompt_tokens":10,"completion_tokens":9,"total_tokens":19}}`, reply)
		default:
			http.NotFound(w, r)
		}
	}))
}

var live struct {
	once sync.Once
	dir  string
	s    *liveServer
	err  error
}

// liveWorld is the seeded world: small, so the tests stay fast.
var liveWorld = world.Options{Seed: 11, Companies: 120}

// server starts the shared server on first use (it lives until the test binary exits;
// TestMain closes it and removes its data dir).
func server(t *testing.T) *liveServer {
	t.Helper()
	live.once.Do(func() { live.s, live.err = startLive() })
	if live.err != nil {
		t.Fatal(live.err)
	}
	return live.s
}

func startLive() (*liveServer, error) {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "firmo-cli-test-")
	if err != nil {
		return nil, err
	}
	live.dir = dir
	llm := newFakeLLM()
	vars := map[string]string{"FIRMO_DATA_DIR": dir, "FIRMO_LOG_LEVEL": "warn", "FIRMO_FETCH_ALLOW_HOSTS": strings.TrimPrefix(llm.URL, "http://")}
	cfg, err := config.Load(func(k string) string { return vars[k] })
	if err != nil {
		return nil, err
	}
	a, err := allapp.NewLocal(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		return nil, err
	}
	d, err := a.EnsureDemo(ctx)
	if err != nil {
		return nil, err
	}
	opts := liveWorld
	opts.AsOf = time.Now()
	opts = opts.Normalized()
	if _, err := a.SeedWorld(ctx, opts, company.LoadOptions{}, nil); err != nil {
		return nil, err
	}
	if _, err := a.SeedContacts(ctx, opts, nil); err != nil {
		return nil, err
	}
	if _, err := a.SyncNames(ctx); err != nil {
		return nil, err
	}
	if err := a.StartTasks(ctx); err != nil {
		return nil, err
	}
	return &liveServer{app: a, srv: httptest.NewServer(a.Handler()), key: d.Key, world: world.New(opts), llm: llm}, nil
}

// newKey creates an organisation of its own (ENTERPRISE) and answers its API key.
func (s *liveServer) newKey(t *testing.T, org string) string {
	t.Helper()
	res, err := createKey(context.Background(), s.app.Accounts, keyRequest{Org: org, Plan: account.PlanEnterprise, Role: account.RoleAdmin})
	if err != nil {
		t.Fatal(err)
	}
	return res.Secret
}

type remoteRun struct {
	code           int
	stdout, stderr string
}

// credits is the total of the run's "credits charged: N" line.
func (r remoteRun) credits(t *testing.T) int64 {
	t.Helper()
	m := regexp.MustCompile(`(?m)^credits charged: (\d+)`).FindStringSubmatch(r.stderr)
	if m == nil {
		t.Fatalf("no credits line in stderr:\n%s", r.stderr)
	}
	n, _ := strconv.ParseInt(m[1], 10, 64)
	return n
}

// firmoAt runs the command in-process against base with key.
func firmoAt(ctx context.Context, base, key string, args ...string) remoteRun {
	var out, errb bytes.Buffer
	vars := map[string]string{"FIRMO_URL": base, "FIRMO_API_KEY": key}
	code := Run(ctx, Env{Args: args, Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return vars[k] }})
	return remoteRun{code, out.String(), errb.String()}
}

func (s *liveServer) firmo(t *testing.T, args ...string) remoteRun {
	t.Helper()
	return firmoAt(context.Background(), s.srv.URL, s.key, args...)
}

func mustJSON(t *testing.T, r remoteRun, v any) {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	if err := json.Unmarshal([]byte(r.stdout), v); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%.500s\nstderr: %s", err, r.stdout, r.stderr)
	}
}

// TestAPICommands runs every `firmo api` command once against the server and checks
// its JSON answer against the seeded world; bizdata once as a table.
func TestAPICommands(t *testing.T) {
	s := server(t)
	w := s.world
	c := w.Company(3)

	var disc struct {
		Results map[string]struct {
			Contacts []struct {
				PersonaID int64  `json:"persona_id"`
				Name      string `json:"name"`
				Domain    string `json:"domain"`
			} `json:"contacts"`
		} `json:"results"`
		TotalContacts int `json:"total_contacts"`
	}
	r := s.firmo(t, "api", "discover", "--domain", c.Domain, "--max_records", "20")
	mustJSON(t, r, &disc)
	if disc.TotalContacts == 0 || len(disc.Results[c.Domain].Contacts) == 0 {
		t.Fatalf("discover --domain %s found no contact: %.300s", c.Domain, r.stdout)
	}
	if !strings.Contains(r.stderr, "credits charged: ") {
		t.Fatalf("no credits line: %s", r.stderr)
	}
	person := disc.Results[c.Domain].Contacts[0]

	var count struct {
		Count int `json:"count"`
	}
	mustJSON(t, s.firmo(t, "api", "count", "--has_email=true"), &count)
	var all struct {
		Count int `json:"count"`
	}
	mustJSON(t, s.firmo(t, "api", "count"), &all)
	if all.Count == 0 || count.Count > all.Count {
		t.Fatalf("count = %d, with email %d", all.Count, count.Count)
	}

	var look struct {
		PersonaID int64  `json:"persona_id"`
		Name      string `json:"name"`
		Domain    string `json:"domain"`
	}
	mustJSON(t, s.firmo(t, "api", "lookup", "--persona_id", strconv.FormatInt(person.PersonaID, 10)), &look)
	if look.PersonaID != person.PersonaID || look.Name != person.Name || look.Domain != c.Domain {
		t.Fatalf("lookup = %+v, want %+v", look, person)
	}

	var prof struct {
		Domain string `json:"domain"`
		Name   string `json:"name"`
	}
	mustJSON(t, s.firmo(t, "api", "bizdata", "https://www."+c.Domain+"/"), &prof)
	if prof.Domain != c.Domain || prof.Name == "" {
		t.Fatalf("bizdata = %+v, want %s", prof, c.Domain)
	}

	var sc struct {
		Domain string   `json:"domain"`
		Score  *float64 `json:"score"`
	}
	mustJSON(t, s.firmo(t, "api", "score", "--domain", c.Domain), &sc)
	if sc.Domain != c.Domain || sc.Score == nil {
		t.Fatalf("score = %+v", sc)
	}

	var hist struct {
		Domain       string            `json:"domain"`
		Certificates []json.RawMessage `json:"certificates"`
	}
	mustJSON(t, s.firmo(t, "api", "history", c.Domain), &hist)
	if hist.Domain != c.Domain || len(hist.Certificates) != min(len(c.Certs), 1000) {
		t.Fatalf("history: %d certificates, the world has %d", len(hist.Certificates), len(c.Certs))
	}

	var match struct {
		Matches []struct {
			Domain string `json:"domain"`
		} `json:"matches"`
	}
	mustJSON(t, s.firmo(t, "api", "match", c.Row.Name), &match)
	if len(match.Matches) == 0 || match.Matches[0].Domain != c.Domain {
		t.Fatalf("match %q = %+v, want %s first", c.Row.Name, match.Matches, c.Domain)
	}

	var ext struct {
		Language string `json:"language"`
		Text     string `json:"text"`
	}
	mustJSON(t, s.firmo(t, "api", "extract", "--domain", c.Domain), &ext)
	if ext.Language == "" || ext.Text == "" {
		t.Fatalf("extract = %+v", ext)
	}

	first, last, dom, local := findablePerson(t, w)
	var job struct {
		Status string `json:"status"`
		Result struct {
			Status string `json:"status"`
			Result struct {
				Email string `json:"email"`
			} `json:"result"`
		} `json:"result"`
	}
	mustJSON(t, s.firmo(t, "api", "email-find", "--first_name", first, "--last_name", last, "--domain", dom), &job)
	if job.Status != "completed" || job.Result.Status != "found" || job.Result.Result.Email != local+"@"+dom {
		t.Fatalf("email-find %s %s @ %s = %+v, want %s@%s", first, last, dom, job, local, dom)
	}

	// The table form: one field per line, the profile's name among them.
	tab := s.firmo(t, "api", "bizdata", "--table", c.Domain)
	if tab.code != 0 || !regexp.MustCompile(`(?m)^domain +`+regexp.QuoteMeta(c.Domain)+`$`).MatchString(tab.stdout) ||
		!strings.Contains(tab.stdout, prof.Name) {
		t.Fatalf("bizdata --table (exit %d):\n%s", tab.code, tab.stdout)
	}
	mt := s.firmo(t, "api", "match", "--table", c.Row.Name)
	if lines := strings.Split(strings.TrimSpace(mt.stdout), "\n"); mt.code != 0 || !strings.HasPrefix(lines[0], "DOMAIN") ||
		!strings.HasPrefix(lines[1], c.Domain) {
		t.Fatalf("match --table (exit %d):\n%s", mt.code, mt.stdout)
	}
}

// findablePerson is a person of the world whose address its strict mail server
// accepts, at a company whose pattern its listed addresses show.
func findablePerson(t *testing.T, w *world.World) (first, last, domain, local string) {
	t.Helper()
	p := findablePeople(w, 1)
	if len(p) == 0 {
		t.Fatal("the world has no findable person")
	}
	return p[0][0], p[0][1], p[0][2], p[0][3]
}

// findablePeople are up to n such people (first, last, domain, local part), one per
// company.
func findablePeople(w *world.World, n int) [][4]string {
	var out [][4]string
	for i := 0; i < w.Len() && len(out) < n; i++ {
		m := w.Mail(i)
		if m.Kind != world.MailStrict || !m.Inferable {
			continue
		}
		for _, p := range m.People {
			parts := strings.Fields(p.Name)
			if p.Departed || p.PersonaID == 0 || len(parts) != 2 || !isASCII(p.Name) {
				continue
			}
			out = append(out, [4]string{parts[0], parts[1], m.Domain, p.Local})
			break
		}
	}
	return out
}

func isASCII(s string) bool {
	for _, r := range s {
		if r > 127 {
			return false
		}
	}
	return true
}

// TestAPIErrors: an API error prints its status, code, field and message and exits 1;
// a missing key or an unknown command is a usage error (2).
func TestAPIErrors(t *testing.T) {
	s := server(t)
	r := s.firmo(t, "api", "bizdata", "--domain", "not a domain")
	if r.code != 1 || !regexp.MustCompile(`(?m)^firmo: 422 \S+ \(field domain\): .+ \[request `).MatchString(r.stderr) || !strings.Contains(r.stderr, "credits charged: 0") {
		t.Fatalf("bad domain: exit %d, stderr %s", r.code, r.stderr)
	}
	r = s.firmo(t, "api", "score", "--max_records", "5")
	if r.code != 2 {
		t.Fatalf("unknown flag: exit %d, stderr %s", r.code, r.stderr)
	}
	r = firmoAt(context.Background(), s.srv.URL, "", "api", "count")
	if r.code != 2 || !strings.Contains(r.stderr, "FIRMO_API_KEY") {
		t.Fatalf("no key: exit %d, stderr %s", r.code, r.stderr)
	}
	r = firmoAt(context.Background(), s.srv.URL, "fk_wrong", "api", "count")
	if r.code != 1 || !strings.Contains(r.stderr, "401") {
		t.Fatalf("wrong key: exit %d, stderr %s", r.code, r.stderr)
	}
	r = s.firmo(t, "api", "nope")
	if r.code != 2 {
		t.Fatalf("unknown command: exit %d", r.code)
	}
	r = s.firmo(t, "api", "count", "-h")
	if r.code != 0 || !strings.Contains(r.stdout, "-filter_country") || !strings.Contains(r.stdout, "repeatable") {
		t.Fatalf("count -h: exit %d, stdout %.300s", r.code, r.stdout)
	}
	r = s.firmo(t, "api", "history", "--max_records", "many", "x.com")
	if r.code != 2 || !strings.Contains(r.stderr, "integer") {
		t.Fatalf("bad integer: exit %d, stderr %s", r.code, r.stderr)
	}
}
