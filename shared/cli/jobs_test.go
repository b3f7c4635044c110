package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/firmoapi/firmo/shared/client"
	"github.com/firmoapi/firmo/shared/namematch"
)

func TestMain(m *testing.M) {
	if os.Getenv(asFirmoEnv) == "1" {
		// The README test's bin/firmo: this test binary acting as the firmo command.
		os.Exit(Run(context.Background(), Env{Program: "./bin/firmo", Args: os.Args[1:], Stdin: os.Stdin,
			Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Version: "readme-test"}))
	}
	code := m.Run()
	if live.s != nil {
		live.s.srv.Close()
		live.s.app.Close()
		live.s.llm.Close()
	}
	if live.dir != "" {
		os.RemoveAll(live.dir)
	}
	os.Exit(code)
}

// writeCSV writes rows under header to a file of the test's temp dir.
func writeCSV(t *testing.T, name string, header []string, rows [][]string) string {
	t.Helper()
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(header)
	w.WriteAll(rows)
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(raw)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func colIndex(t *testing.T, header []string, name string) int {
	t.Helper()
	for i, h := range header {
		if h == name {
			return i
		}
	}
	t.Fatalf("no column %q in %v", name, header)
	return -1
}

var progressLine = regexp.MustCompile(`(?m)^progress (\d+)/(\d+) (\d+\.\d)% (\d+\.\d)/s eta (\S+)$`)

// TestBulkMatch2000Rows matches a 2,000-row CSV of the world's company names: the plain
// progress lines rise to 2000/2000, and every row of a name the world holds once gets
// that company's domain, in file order; the matches are billed.
func TestBulkMatch2000Rows(t *testing.T) {
	s := server(t)
	w := s.world
	// Names that differ only by legal form or spelling ("Sterling LLC", "Sterling
	// Ltd") are one name to the matcher: only rows of a name no other company shares
	// have one right answer.
	key := func(name string) string { return strings.Join(namematch.Normalize(name, true).Tokens, " ") }
	names := map[string]int{}
	for i := range w.Len() {
		names[key(w.Company(i).Row.Name)]++
	}
	var rows [][]string
	var want []string
	for r := range 2000 {
		c := w.Company(r % w.Len())
		rows = append(rows, []string{c.Row.Name, strconv.Itoa(r)})
		want = append(want, c.Domain)
	}
	in := writeCSV(t, "companies.csv", []string{"Company Name", "Row"}, rows)
	out := filepath.Join(t.TempDir(), "matched.csv")
	// An organisation of its own: the matched companies are net-new to it, so billed.
	r := firmoAt(context.Background(), s.srv.URL, s.newKey(t, "bulkmatch"), "bulkmatch", in, "--out", out, "--progress-interval", "50ms")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	lines := progressLine.FindAllStringSubmatch(r.stderr, -1)
	if len(lines) == 0 {
		t.Fatalf("no progress line in:\n%s", r.stderr)
	}
	prev := int64(-1)
	for _, l := range lines {
		done, _ := strconv.ParseInt(l[1], 10, 64)
		total, _ := strconv.ParseInt(l[2], 10, 64)
		if done < prev || total != 2000 && total != 0 || done > 2000 {
			t.Fatalf("progress lines not monotone up to 2000:\n%s", r.stderr)
		}
		prev = done
	}
	if last := lines[len(lines)-1]; last[1] != "2000" || last[2] != "2000" {
		t.Fatalf("last progress line %q, want 2000/2000", last[0])
	}
	if r.credits(t) <= 0 {
		t.Fatalf("no credits charged for the matches:\n%s", r.stderr)
	}
	recs := readCSV(t, out)
	if len(recs) != 2001 {
		t.Fatalf("%d output rows, want 2000", len(recs)-1)
	}
	h := recs[0]
	rowCol, nameCol, domCol := colIndex(t, h, "input:Row"), colIndex(t, h, "input:Company Name"), colIndex(t, h, "domain")
	unique, wrong := 0, 0
	for i, rec := range recs[1:] {
		if rec[rowCol] != strconv.Itoa(i) {
			t.Fatalf("output row %d is input row %s", i, rec[rowCol])
		}
		if names[key(rec[nameCol])] != 1 {
			continue
		}
		unique++
		if rec[domCol] != want[i] {
			wrong++
			if wrong <= 5 {
				t.Errorf("row %d %q matched %q, the world has %s", i, rec[nameCol], rec[domCol], want[i])
			}
		}
	}
	if unique < 1000 || wrong > 0 {
		t.Fatalf("%d of %d rows of unique names matched another domain", wrong, unique)
	}
	t.Logf("%d progress lines; %d rows of unique names all matched their company; %d credits", len(lines), unique, r.credits(t))
}

// cancelProxy forwards to base, except that the n-th request for which hit is true
// cancels the command's context and is never answered: the command is interrupted
// right there.
func cancelProxy(t *testing.T, base string, n int32, hit func(*http.Request) bool) (*httptest.Server, context.Context) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	u, _ := url.Parse(base)
	rp := httputil.NewSingleHostReverseProxy(u)
	var seen atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hit(r) && seen.Add(1) == n {
			// The server notices the client going away only once the body is read.
			io.Copy(io.Discard, r.Body)
			cancel()
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
				t.Error("the command did not abort its request")
			}
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, ctx
}

// usageCredits is the organisation's credits used today (GET /v1/account/usage).
func usageCredits(t *testing.T, base, key string) int64 {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: base, APIKey: key})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(context.Background(), client.Call{Method: "GET", Path: "/v1/account/usage"})
	if err != nil {
		t.Fatal(err)
	}
	var u struct {
		Total struct {
			Credits int64 `json:"credits"`
		} `json:"total"`
	}
	if err := resp.Decode(&u); err != nil {
		t.Fatal(err)
	}
	return u.Total.Credits
}

// TestAppendInterruptedAndResumed: an append interrupted after its first chunk and run
// again writes the same file as an uninterrupted run (of another organisation), and
// the organisation is charged what the uninterrupted run was, once: the resumed run
// does not send the done chunk again.
func TestAppendInterruptedAndResumed(t *testing.T) {
	s := server(t)
	var rows [][]string
	for r := range 130 {
		rows = append(rows, []string{"https://www." + s.world.Domain(r%s.world.Len()) + "/", strconv.Itoa(r)})
	}
	in := writeCSV(t, "domains.csv", []string{"Website", "Row"}, rows)
	for _, ext := range []string{"csv", "json"} {
		t.Run(ext, func(t *testing.T) {
			keyA, keyB := s.newKey(t, "append-a-"+ext), s.newKey(t, "append-b-"+ext)
			dir := t.TempDir()
			outA, outB := filepath.Join(dir, "a."+ext), filepath.Join(dir, "b."+ext)
			args := func(out string) []string {
				return []string{"append", in, "--dataset", "bizdata,domain_status", "--chunk-size", "50", "--out", out}
			}
			before := usageCredits(t, s.srv.URL, keyA)
			proxy, ctx := cancelProxy(t, s.srv.URL, 2, func(r *http.Request) bool { return r.URL.Path == "/v1/append" })
			r1 := firmoAt(ctx, proxy.URL, keyA, args(outA)...)
			if r1.code != 130 || !strings.Contains(r1.stderr, "interrupted: 1 of 3 chunks") || !strings.Contains(r1.stderr, "resume with: firmo append") {
				t.Fatalf("interrupted run: exit %d\n%s", r1.code, r1.stderr)
			}
			if _, err := os.Stat(statePath(outA)); err != nil {
				t.Fatalf("no state file after the interruption: %v", err)
			}
			r2 := firmoAt(context.Background(), s.srv.URL, keyA, args(outA)...)
			if r2.code != 0 || !strings.Contains(r2.stderr, "resuming append: 1 of 3 chunks done") {
				t.Fatalf("resumed run: exit %d\n%s", r2.code, r2.stderr)
			}
			if _, err := os.Stat(statePath(outA)); err == nil {
				t.Fatal("the state file is left after the job completed")
			}
			r3 := firmoAt(context.Background(), s.srv.URL, keyB, args(outB)...)
			if r3.code != 0 {
				t.Fatalf("uninterrupted run: exit %d\n%s", r3.code, r3.stderr)
			}
			a, _ := os.ReadFile(outA)
			b, _ := os.ReadFile(outB)
			if !bytes.Equal(a, b) || len(a) == 0 {
				t.Fatalf("resumed output (%d bytes) differs from the uninterrupted one (%d bytes)", len(a), len(b))
			}
			if ext == "json" {
				var items []map[string]any
				if err := json.Unmarshal(a, &items); err != nil || len(items) != 130 {
					t.Fatalf("JSON output: %d items, %v", len(items), err)
				}
			} else if recs := readCSV(t, outA); len(recs) != 131 {
				t.Fatalf("CSV output: %d rows, want 130", len(recs)-1)
			}
			charged := usageCredits(t, s.srv.URL, keyA) - before
			c1, c2, c3 := r1.credits(t), r2.credits(t), r3.credits(t)
			if c3 <= 0 || c1 <= 0 || charged != c3 || c1+c2 != c3 {
				t.Fatalf("credits: interrupted %d + resumed %d, uninterrupted %d, account usage %d", c1, c2, c3, charged)
			}
		})
	}
}

// TestSegmentResumedFromTaskID: a segmentation interrupted while polling leaves the
// task running and prints the command that resumes it; that command polls the same
// task to the end and writes its results.
func TestSegmentResumedFromTaskID(t *testing.T) {
	s := server(t)
	var rows [][]string
	for i := range s.world.Len() {
		rows = append(rows, []string{s.world.Domain(i)})
	}
	in := writeCSV(t, "domains.csv", []string{"domain"}, rows)
	out := filepath.Join(t.TempDir(), "segments.json")
	proxy, ctx := cancelProxy(t, s.srv.URL, 1, func(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/v1/segment/status/") })
	r1 := firmoAt(ctx, proxy.URL, s.key, "segment", in, "--out", out)
	m := regexp.MustCompile(`(?m)^resume with: (firmo segment .* --resume ([0-9a-f-]{36}))$`).FindStringSubmatch(r1.stderr)
	if r1.code != 130 || m == nil {
		t.Fatalf("interrupted run: exit %d\n%s", r1.code, r1.stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("the interrupted run wrote its output")
	}
	args := strings.Fields(m[1])[1:]
	r2 := firmoAt(context.Background(), s.srv.URL, s.key, args...)
	if r2.code != 0 || !strings.Contains(r2.stderr, "resuming segment task "+m[2]) {
		t.Fatalf("resumed run: exit %d\n%s", r2.code, r2.stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// The same task's results, read directly: the output is one row per input row, in
	// input order, each with its company's segment from the task, or why it has none.
	c, _ := client.New(client.Config{BaseURL: s.srv.URL, APIKey: s.key})
	st, err := c.Poll(context.Background(), "/v1/segment/status/"+m[2])
	if err != nil || st.Status != "completed" {
		t.Fatalf("status: %v %v", st, err)
	}
	want, err := resultRows(st)
	if err != nil {
		t.Fatal(err)
	}
	segOf := map[string]string{}
	for _, w := range want {
		segOf[cellText(w.get("domain"))] = cellText(w.get("segment_id"))
	}
	var items []struct {
		Input     string          `json:"input:domain"`
		Domain    string          `json:"domain"`
		SegmentID json.RawMessage `json:"segment_id"`
		Omitted   *string         `json:"omitted"`
	}
	if err := json.Unmarshal(got, &items); err != nil || len(items) != len(rows) || len(want) < s.world.Len()/2 {
		t.Fatalf("output: %v, %d rows for %d in (%d results)", err, len(items), len(rows), len(want))
	}
	omitted := 0
	for i, it := range items {
		if it.Input != rows[i][0] || it.Domain != rows[i][0] {
			t.Fatalf("output row %d is %q, input row %q", i, it.Input, rows[i][0])
		}
		seg, ok := segOf[it.Domain]
		switch {
		case ok && (it.Omitted != nil || string(it.SegmentID) != seg):
			t.Fatalf("row %d (%s): segment %s omitted %v, the task's %s", i, it.Domain, it.SegmentID, it.Omitted, seg)
		case !ok && (it.Omitted == nil || *it.Omitted != "closed or unknown to Firmo"):
			t.Fatalf("row %d (%s) is not in the results but says %v", i, it.Domain, it.Omitted)
		case !ok:
			omitted++
		}
	}
	sum := fmt.Sprintf("summary: %d rows in, %d out (input order), %d with a result", len(rows), len(rows), len(rows)-omitted)
	if !strings.Contains(r2.stderr, sum) {
		t.Fatalf("no %q in:\n%s", sum, r2.stderr)
	}
}

// TestJobWaitsOut429: a status poll answered 429 with Retry-After is retried after the
// wait and the job completes (reading an Excel file, writing JSON to stdout).
func TestJobWaitsOut429(t *testing.T) {
	s := server(t)
	u, _ := url.Parse(s.srv.URL)
	rp := httputil.NewSingleHostReverseProxy(u)
	var limited atomic.Int32
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/v1/bulkmatch/status/") && limited.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"error":{"code":"rate_limited","message":"slow down"}}`)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	defer proxy.Close()
	// The input is an Excel workbook: the job sends it as CSV.
	f := excelize.NewFile()
	f.SetSheetRow("Sheet1", "A1", &[]any{"Company", "Country"})
	for i := range 20 {
		f.SetSheetRow("Sheet1", fmt.Sprintf("A%d", i+2), &[]any{s.world.Company(i).Row.Name, "Nowhere"})
	}
	in := filepath.Join(t.TempDir(), "names.xlsx")
	if err := f.SaveAs(in); err != nil {
		t.Fatal(err)
	}
	r := firmoAt(context.Background(), proxy.URL, s.key, "bulkmatch", in, "--format", "json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var items []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &items); err != nil || len(items) != 20 || items[0]["input:Company"] != s.world.Company(0).Row.Name {
		t.Fatalf("%d items, %v: %.300s", len(items), err, r.stdout)
	}
	if limited.Load() < 2 {
		t.Fatalf("the 429 was not retried (%d status polls)", limited.Load())
	}
}

// TestJobUsage: bad invocations are usage errors before any call.
func TestJobUsage(t *testing.T) {
	s := server(t)
	in := writeCSV(t, "d.csv", []string{"domain"}, [][]string{{"example.com"}})
	for _, args := range [][]string{
		{"append", in, "--dataset", "bizdata"},         // no --out
		{"append", in, "--out", in + ".out"},           // no --dataset
		{"segment"},                                    // no file
		{"segment", in, "--format", "xml"},             // bad format
		{"research", in},                               // no --prompt
		{"validate-icp", in},                           // no --icp
		{"bulkmatch", in, "--name_column", "Company"},  // no such column
		{"email-batch", in, "--out", in + ".out.json"}, // no name columns
	} {
		if r := s.firmo(t, args...); r.code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s", args, r.code, r.stderr)
		}
	}
}

// TestEmailBatch finds the addresses of a file's people in batches of two: each found
// address is the world's, and a row without a name is kept, marked skipped.
func TestEmailBatch(t *testing.T) {
	s := server(t)
	people := findablePeople(s.world, 3)
	if len(people) < 3 {
		t.Fatalf("the world has %d findable people", len(people))
	}
	var rows [][]string
	for _, p := range people {
		rows = append(rows, []string{p[0], p[1], "https://" + p[2]})
	}
	rows = append(rows, []string{"", "", "example.com"})
	in := writeCSV(t, "people.csv", []string{"First Name", "Last Name", "Website"}, rows)
	out := filepath.Join(t.TempDir(), "emails.json")
	r := s.firmo(t, "email-batch", in, "--out", out, "--chunk-size", "2")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	raw, _ := os.ReadFile(out)
	var got []map[string]any
	if err := json.Unmarshal(raw, &got); err != nil || len(got) != len(rows) {
		t.Fatalf("%d rows, %v: %s", len(got), err, raw)
	}
	for i, p := range people {
		if got[i]["email"] != p[3]+"@"+p[2] || got[i]["email_status"] != "found" || got[i]["input:First Name"] != p[0] {
			t.Errorf("row %d = %v, want %s@%s found", i, got[i], p[3], p[2])
		}
	}
	if e, _ := got[3]["error"].(string); !strings.HasPrefix(e, "skipped") || got[3]["email"] != nil {
		t.Errorf("row without a name = %v", got[3])
	}
}

// TestResearchAndValidateICP runs batch research and ICP validation over a file's
// domains with an integration on the fake model: one output row per input row, the
// model's answer in the result columns, empty ones for a row that holds no domain.
func TestResearchAndValidateICP(t *testing.T) {
	s := server(t)
	c, _ := client.New(client.Config{BaseURL: s.srv.URL, APIKey: s.key})
	resp, err := c.Do(context.Background(), client.Call{Method: "POST", Path: "/v1/llm-providers/config", JSON: map[string]any{
		"integration_name": "cli-test", "provider": "custom", "api_key": "sk-cli-test-0123456789", "model_name": "test-model", "base_url": s.llm.URL + "/v1"}})
	if err != nil {
		t.Fatal(err)
	}
	var in struct {
		IntegrationID string `json:"integration_id"`
	}
	if err := resp.Decode(&in); err != nil || in.IntegrationID == "" {
		t.Fatalf("integration: %v %s", err, resp.Body)
	}
	rows := [][]string{{"not a domain"}}
	for i := range 8 {
		rows = append(rows, []string{"https://www." + s.world.Domain(i) + "/about"})
	}
	file := writeCSV(t, "sites.csv", []string{"Website"}, rows)
	dir := t.TempDir()

	r := s.firmo(t, "research", file, "--prompt", "What does the company sell?", "--integration_id", in.IntegrationID,
		"--context_mode", "domain", "--out", filepath.Join(dir, "research.csv"))
	if r.code != 0 {
		t.Fatalf("research: exit %d\n%s", r.code, r.stderr)
	}
	recs := readCSV(t, filepath.Join(dir, "research.csv"))
	ans, dom := colIndex(t, recs[0], "Answer"), colIndex(t, recs[0], "domain")
	if len(recs) != len(rows)+1 || recs[1][ans] != "" || recs[1][dom] != "" {
		t.Fatalf("research output: %v", recs[:min(len(recs), 3)])
	}
	for i, rec := range recs[2:] {
		if rec[dom] != s.world.Domain(i) || rec[ans] != llmAnswer {
			t.Fatalf("research row %d: %v", i+1, rec)
		}
	}

	r = s.firmo(t, "validate-icp", file, "--icp", "B2B software companies", "--integration_id", in.IntegrationID,
		"--context_mode", "domain", "--out", filepath.Join(dir, "icp.json"))
	if r.code != 0 {
		t.Fatalf("validate-icp: exit %d\n%s", r.code, r.stderr)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "icp.json"))
	var got []map[string]any
	if err := json.Unmarshal(raw, &got); err != nil || len(got) != len(rows) {
		t.Fatalf("validate-icp output: %v %s", err, raw)
	}
	for i, row := range got[1:] {
		if row["domain"] != s.world.Domain(i) || row["Fit"] != "Yes" || row["Reasoning"] != "It sells to businesses." {
			t.Fatalf("validate-icp row %d: %v", i+1, row)
		}
	}
	if got[0]["Fit"] != nil {
		t.Fatalf("a row without a domain got a verdict: %v", got[0])
	}
	if !strings.Contains(r.stderr, fmt.Sprintf("summary: %d rows in, %d out (input order), 8 with a result; without one: 1 not a domain", len(rows), len(rows))) {
		t.Fatalf("validate-icp summary:\n%s", r.stderr)
	}
}

// TestEmailBatchResumesFromBatchID: an email batch interrupted while polling its first
// batch resumes by polling that batch: the batch is not submitted again, and the
// output is the uninterrupted run's.
func TestEmailBatchResumesFromBatchID(t *testing.T) {
	s := server(t)
	people := findablePeople(s.world, 3)
	var rows [][]string
	for _, p := range people {
		rows = append(rows, []string{p[0] + " " + p[1], p[2]})
	}
	in := writeCSV(t, "people.csv", []string{"Name", "Domain"}, rows)
	dir := t.TempDir()
	args := func(out string) []string { return []string{"email-batch", in, "--out", out, "--chunk-size", "2"} }
	proxy, ctx := cancelProxy(t, s.srv.URL, 1, func(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/v1/email/batch/") })
	r1 := firmoAt(ctx, proxy.URL, s.key, args(filepath.Join(dir, "a.csv"))...)
	if r1.code != 130 || !strings.Contains(r1.stderr, "interrupted: 0 of 2 chunks") {
		t.Fatalf("interrupted run: exit %d\n%s", r1.code, r1.stderr)
	}
	u, _ := url.Parse(s.srv.URL)
	rp := httputil.NewSingleHostReverseProxy(u)
	var submits atomic.Int32
	counting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/email/find/batch" {
			submits.Add(1)
		}
		rp.ServeHTTP(w, r)
	}))
	defer counting.Close()
	r2 := firmoAt(context.Background(), counting.URL, s.key, args(filepath.Join(dir, "a.csv"))...)
	if r2.code != 0 || submits.Load() != 1 {
		t.Fatalf("resumed run: exit %d, %d batches submitted (want only the second)\n%s", r2.code, submits.Load(), r2.stderr)
	}
	r3 := firmoAt(context.Background(), s.srv.URL, s.key, args(filepath.Join(dir, "b.csv"))...)
	a, _ := os.ReadFile(filepath.Join(dir, "a.csv"))
	b, _ := os.ReadFile(filepath.Join(dir, "b.csv"))
	if r3.code != 0 || !bytes.Equal(a, b) {
		t.Fatalf("resumed output differs from an uninterrupted run:\n%s\n%s", a, b)
	}
	recs := readCSV(t, filepath.Join(dir, "a.csv"))
	emailCol := colIndex(t, recs[0], "email")
	for i, p := range people {
		if recs[i+1][emailCol] != p[3]+"@"+p[2] {
			t.Errorf("row %d: %v, want %s@%s", i, recs[i+1], p[3], p[2])
		}
	}
}
