package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/app/companyapp"
	"github.com/firmoapi/firmo/shared/world"
)

// readyCompanies is the world of TestReadyMeansSettled: at least the 50 domains whose
// profiles it reads.
const readyCompanies = 60

// At the first 200 from /readyz on an empty data dir, a fixed set of reads (the
// profiles of 50 world domains, the contact count of every industry, a filtered
// discover and a company-name match) answers exactly what it answers once the start has
// settled. Settled is proven, not waited for: the test waits until the server reports
// every piece of background work it starts done (the contact-search graph, the first
// pass of the company reprocessing job, the verification pass of the contacts'
// addresses), reads again, then stops the server and starts a second one on the same
// data dir, whose contact search is loaded afresh from the settled store, and reads a
// third time (its company-name index deleted first, so rebuilt). The only field allowed to differ is email_validated, which the
// verification pass fills in after ready (README "The demo world").
func TestReadyMeansSettled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts firmo serve twice on a seeded world")
	}
	data := t.TempDir()
	vars := map[string]string{"FIRMO_DATA_DIR": data, "FIRMO_ADDR": "127.0.0.1:0", "FIRMO_SEED_COMPANIES": fmt.Sprint(readyCompanies),
		"FIRMO_LOG_LEVEL": "info", "FIRMO_DNS_RESOLVER": "127.0.0.1:9"}

	first := startServe(t, vars)
	waitFor(t, "/readyz 200", func() bool { return status(t, first.base+"/readyz") == http.StatusOK }, first.stderr.String)
	key, err := os.ReadFile(filepath.Join(data, allapp.DemoKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	reads := fixedReads(t, strings.TrimSpace(string(key)))
	atReady := reads(first.base)

	for _, done := range []*regexp.Regexp{
		regexp.MustCompile(`contact search graph built`),
		regexp.MustCompile(`company reprocessing.*complete=true`),
		regexp.MustCompile(`email verification of contacts`),
	} {
		waitLong(t, done.String(), func() bool { return done.MatchString(first.stderr.String()) }, first.stderr.String)
	}
	log := first.stderr.String()
	if m := regexp.MustCompile(`company reprocessing.*refreshed=(\d+)`).FindStringSubmatch(log); m == nil || m[1] != "0" {
		t.Errorf("the reprocessing job's first pass after a first start re-derived companies (%v): they were not complete at ready\n%s", m, log)
	}
	settled := reads(first.base)
	first.stop(t)
	// The restart also rebuilds a lost company-name index: the match read at its
	// first 200 must not come from a half-filled one.
	if err := os.RemoveAll(filepath.Join(data, companyapp.NameIndexDir)); err != nil {
		t.Fatal(err)
	}

	second := startServe(t, vars)
	waitFor(t, "/readyz 200 after a restart", func() bool { return status(t, second.base+"/readyz") == http.StatusOK }, second.stderr.String)
	restarted := reads(second.base)
	second.stop(t)

	if len(atReady) != len(settled) || len(atReady) != len(restarted) {
		t.Fatalf("%d reads at ready, %d settled, %d after a restart", len(atReady), len(settled), len(restarted))
	}
	industriesSeen := 0
	for i := range atReady {
		a, s, r := atReady[i], settled[i], restarted[i]
		if a.body != s.body || a.body != r.body {
			t.Errorf("%s\n at ready:  %.600s\n settled:   %.600s\n restarted: %.600s", a.what, a.body, s.body, r.body)
		}
		if strings.HasPrefix(a.what, "count industry") && !strings.Contains(a.body, `"count":0`) {
			industriesSeen++
		}
	}
	// The reads must be able to fail: at ready the world's industries are counted.
	if industriesSeen < 3 {
		t.Errorf("only %d industries have contacts at ready", industriesSeen)
	}
}

// read is one request and its answer, email_validated removed.
type read struct{ what, body string }

// fixedReads returns the reads of TestReadyMeansSettled against a server's base URL.
func fixedReads(t *testing.T, key string) func(base string) []read {
	w := world.New(world.Options{Seed: allapp.DefaultWorldSeed, Companies: readyCompanies}.Normalized())
	var domains []string
	for i := range 50 {
		domains = append(domains, w.Company(i).Domain)
	}
	named := w.Company(3)
	return func(base string) []read {
		t.Helper()
		var out []read
		get := func(what, path string) {
			code, body := call(t, key, "GET", base+path, "")
			out = append(out, read{what, fmt.Sprintf("%d %s", code, body)})
		}
		for _, d := range domains {
			get("bizdata "+d, "/v1/bizdata?domain="+url.QueryEscape(d))
		}
		_, body := call(t, key, "GET", base+"/v1/industries", "")
		var tax struct {
			Industries []struct{ Value string } `json:"industries"`
		}
		if err := json.Unmarshal([]byte(body), &tax); err != nil || len(tax.Industries) == 0 {
			t.Fatalf("industries: %v %s", err, body)
		}
		for _, ind := range tax.Industries {
			get("count industry "+ind.Value, "/v1/contacts/count?filter_industry="+ind.Value)
		}
		for _, q := range []string{
			`{"icp_text":"head of sales","filter_industry":["CONSTRUCTION","MANUFACTURING","SOFTWARE"],"employee_range":"10,500","max_records":25}`,
			`{"filter_country":["DE","US","GB"],"seniority":["executive","director"],"max_records":25}`,
		} {
			code, body := call(t, key, "POST", base+"/v1/contacts/discover", q)
			out = append(out, read{"discover " + q, fmt.Sprintf("%d %s", code, body)})
		}
		get("match "+named.Truth.Name, "/v1/match?name="+url.QueryEscape(named.Truth.Name)+"&country="+named.Truth.Country)
		return out
	}
}

// call makes one API request and returns its status and body, without email_validated.
func call(t *testing.T, key, method, u, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("x-service-key", key)
	if body != "" {
		req.Header.Set("content-type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, withoutField(b, "email_validated")
}

// withoutField re-encodes a JSON body without any member named field (object key order
// kept as encoding/json writes maps: sorted, so equal documents compare equal).
func withoutField(b []byte, field string) string {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return string(b)
	}
	var strip func(any)
	strip = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			delete(x, field)
			for _, e := range x {
				strip(e)
			}
		case []any:
			for _, e := range x {
				strip(e)
			}
		}
	}
	strip(v)
	out, _ := json.Marshal(v)
	return string(out)
}

// served is a `firmo serve` run by a test.
type served struct {
	base           string
	stdout, stderr *lockedBuffer
	cancel         context.CancelFunc
	done           chan int
}

func startServe(t *testing.T, vars map[string]string) *served {
	t.Helper()
	s := &served{stdout: &lockedBuffer{}, stderr: &lockedBuffer{}, done: make(chan int, 1)}
	var ctx context.Context
	ctx, s.cancel = context.WithCancel(context.Background())
	go func() {
		s.done <- Run(ctx, Env{Args: []string{"serve"}, Stdout: s.stdout, Stderr: s.stderr, Getenv: func(k string) string { return vars[k] }})
	}()
	t.Cleanup(func() { s.stop(t) })
	addr := regexp.MustCompile(`serving on (http://[0-9.:]+)`)
	waitFor(t, "the banner", func() bool {
		m := addr.FindStringSubmatch(s.stdout.String())
		if m != nil {
			s.base = m[1]
		}
		return m != nil
	}, s.stderr.String)
	return s
}

// stop stops the server once and checks it exited cleanly.
func (s *served) stop(t *testing.T) {
	t.Helper()
	if s.cancel == nil {
		return
	}
	s.cancel()
	s.cancel = nil
	if code := <-s.done; code != 0 {
		t.Errorf("serve exited %d\n%s", code, s.stderr.String())
	}
}

// waitLong is waitFor with ten minutes, for background work on a loaded machine.
func waitLong(t *testing.T, what string, cond func() bool, log func() string) {
	t.Helper()
	for end := time.Now().Add(10 * time.Minute); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("no %s after 10 minutes\n%s", what, log())
}
