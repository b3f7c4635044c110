package mcpserver_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/client"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/mcpserver"
	"github.com/firmoapi/firmo/shared/world"
)

// worldOpts is the small demo world the tests seed: the default world's seed, whose
// first company is the README's email example.
func worldOpts() world.Options {
	return world.Options{Seed: allapp.DefaultWorldSeed, Companies: 40, AsOf: time.Now()}.Normalized()
}

// env is a real Firmo server (the whole local composition on embedded storage, a seeded
// world, task workers running) and an MCP session with the Firmo tools, held by the
// SDK's own client over an in-memory transport.
type env struct {
	world   *world.World
	api     *client.Client
	session *mcp.ClientSession
}

func newEnv(t *testing.T) *env {
	t.Helper()
	return newEnvOf(t, worldOpts(), false)
}

// newEnvOf is an env on the world of opts. With noSync the embedded store does not
// fsync each transaction (as while seeding): for a test of thousands of billed calls
// whose durability is not what it checks.
func newEnvOf(t *testing.T, opts world.Options, noSync bool) *env {
	t.Helper()
	ctx := context.Background()
	vars := map[string]string{"FIRMO_DATA_DIR": t.TempDir()}
	cfg, err := config.Load(func(k string) string { return vars[k] })
	if err != nil {
		t.Fatal(err)
	}
	a, err := allapp.NewLocal(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	demo, err := a.EnsureDemo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.SeedWorld(ctx, opts, company.LoadOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SeedContacts(ctx, opts, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Composer.SyncNames(ctx); err != nil { // what `firmo serve` does after a seed
		t.Fatal(err)
	}
	if s, ok := a.Core.Store.(interface{ DeferSync() func() error }); ok && noSync {
		synced := s.DeferSync()
		t.Cleanup(func() { synced() })
	}
	if err := a.StartTasks(ctx); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler())
	t.Cleanup(func() { srv.Close(); a.Close() })

	api, err := client.New(client.Config{BaseURL: srv.URL, APIKey: demo.Key})
	if err != nil {
		t.Fatal(err)
	}
	return &env{world: world.New(opts), api: api, session: connect(t, api)}
}

// connect serves the Firmo tools over api on one end of an in-memory transport and
// connects the SDK's client to the other.
func connect(t *testing.T, api mcpserver.API) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := mcpserver.New(api, mcpserver.Options{Version: "test"}).Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-agent", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and decodes its structured answer into out; a tool error fails the
// test with the error's text.
func (e *env) call(t *testing.T, name string, args map[string]any, out any) {
	t.Helper()
	res := e.callRaw(t, name, args)
	if res.IsError {
		t.Fatalf("%s(%v) is a tool error: %s", name, args, text(res))
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("%s: decode %s: %v", name, raw, err)
	}
	// The text content is the same JSON, for clients that read only text.
	if got := text(res); !json.Valid([]byte(got)) {
		t.Fatalf("%s: text content is not the JSON answer: %q", name, got)
	}
}

func (e *env) callRaw(t *testing.T, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := e.session.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s(%v) failed at the protocol level: %v", name, args, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// firstActive is the first company of the world that is active, has a team with an
// email address and at least a few contacts.
func (e *env) firstActive(t *testing.T) (int, world.Company) {
	t.Helper()
	for i := range e.world.Len() {
		c := e.world.Company(i)
		if c.Truth.Status == "active" && len(c.Truth.Team) > 0 && c.Truth.Team[0].Email != "" && c.Truth.RedirectTo == "" {
			return i, c
		}
	}
	t.Fatal("no active company with a team in the world")
	return 0, world.Company{}
}

var wantTools = []string{"company_profile", "company_score", "count_contacts", "find_email", "match_company", "search_contacts", "task_status"}

// TestToolsListed lists the tools and reads their schemas; listing calls no API, so
// the client points at no server (the other tests call every tool against a real one).
func TestToolsListed(t *testing.T) {
	api, err := client.New(client.Config{BaseURL: "http://127.0.0.1:9", APIKey: "unused"})
	if err != nil {
		t.Fatal(err)
	}
	session := connect(t, api)
	var names []string
	schemas := map[string]map[string]any{}
	for tool, err := range session.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
		if len(tool.Description) < 80 {
			t.Errorf("%s: description %q is too short to tell an agent what the tool does", tool.Name, tool.Description)
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s has no output schema", tool.Name)
		}
		raw, _ := json.Marshal(tool.InputSchema)
		var s map[string]any
		json.Unmarshal(raw, &s)
		schemas[tool.Name] = s
	}
	sort.Strings(names)
	if !slices.Equal(names, wantTools) {
		t.Fatalf("tools = %v, want %v", names, wantTools)
	}
	// The API's own constraints are in the schemas.
	props := func(tool string) map[string]any { p, _ := schemas[tool]["properties"].(map[string]any); return p }
	dept, _ := props("search_contacts")["department"].(map[string]any)
	items, _ := dept["items"].(map[string]any)
	if enum, _ := items["enum"].([]any); len(enum) != 15 {
		t.Errorf("search_contacts department enum has %d values, want the 15 departments: %v", len(enum), dept)
	}
	if mr, _ := props("search_contacts")["max_records"].(map[string]any); mr["minimum"] != 20.0 {
		t.Errorf("search_contacts max_records = %v, want minimum 20 (the API's)", mr)
	}
	if mc, _ := props("match_company")["min_match_confidence"].(map[string]any); mc["minimum"] != 50.0 || mc["maximum"] != 100.0 {
		t.Errorf("match_company min_match_confidence = %v, want 50-100", mc)
	}
	for tool, req := range map[string][]string{
		"find_email": {"first_name", "last_name", "domain"}, "match_company": {"name"}, "company_profile": {"domain"},
		"company_score": {"domain"}, "task_status": {"kind", "id"},
	} {
		got, _ := schemas[tool]["required"].([]any)
		for _, r := range req {
			if !slices.Contains(got, any(r)) {
				t.Errorf("%s: %s is not required (required %v)", tool, r, got)
			}
		}
	}
}

func TestCompanyTools(t *testing.T) {
	e := newEnv(t)
	_, c := e.firstActive(t)

	var p struct {
		Domain, Name, Status string
		Score                int
		Address              struct{ City, Country string }
		Keywords             []string
	}
	e.call(t, "company_profile", map[string]any{"domain": "www." + c.Domain}, &p)
	if p.Domain != c.Domain || p.Name != c.Truth.Name || p.Status != c.Truth.Status || p.Address.Country != c.Truth.Country {
		t.Errorf("company_profile(%s) = %+v; the world has %s %q, %s, in %s", c.Domain, p, c.Domain, c.Truth.Name, c.Truth.Status, c.Truth.Country)
	}
	if len(p.Keywords) > 10 {
		t.Errorf("company_profile lists %d keywords, want at most 10", len(p.Keywords))
	}

	var s struct {
		Domain     string
		Score      int
		FirstEvent *string `json:"first_event"`
		Parameters map[string]any
	}
	e.call(t, "company_score", map[string]any{"domain": c.Domain}, &s)
	first := c.Certs[0].DateFrom.UTC().Format(time.DateOnly)
	for _, cert := range c.Certs {
		first = min(first, cert.DateFrom.UTC().Format(time.DateOnly))
	}
	if s.Domain != c.Domain || s.Score < 0 || s.Score > 800 || s.Parameters["base_score"] == nil {
		t.Errorf("company_score(%s) = %+v", c.Domain, s)
	}
	if s.Score != p.Score {
		t.Errorf("company_score = %d, company_profile's score = %d", s.Score, p.Score)
	}
	if s.FirstEvent == nil || *s.FirstEvent != first {
		t.Errorf("company_score first_event = %v, the world's first certificate is of %s", s.FirstEvent, first)
	}

	var m struct {
		Count   int
		Matches []struct {
			Domain          string
			MatchConfidence int `json:"match_confidence"`
		}
		CreditsCharged int64 `json:"credits_charged"`
	}
	e.call(t, "match_company", map[string]any{"name": c.Truth.Name, "country": c.Truth.Country}, &m)
	if len(m.Matches) == 0 || m.Matches[0].Domain != c.Domain || m.Matches[0].MatchConfidence < 50 {
		t.Fatalf("match_company(%q, %s) = %+v; want %s first", c.Truth.Name, c.Truth.Country, m, c.Domain)
	}
	if m.Count < len(m.Matches) || len(m.Matches) > 10 || m.CreditsCharged <= 0 {
		t.Errorf("match_company count %d, %d rows, %d credits: want count >= rows, at most 10 rows, net-new companies billed", m.Count, len(m.Matches), m.CreditsCharged)
	}

	// Invalid input: refused by the schema (the API's range), and by the API itself.
	for _, c := range []struct {
		tool, field string
		args        map[string]any
		api         bool
	}{
		{"match_company", "min_match_confidence", map[string]any{"name": "Acme", "min_match_confidence": 20}, false},
		{"company_profile", "domain", map[string]any{}, false},
		{"match_company", "name", map[string]any{"name": "!!! ..."}, true},
		{"company_score", "domain", map[string]any{"domain": "not a domain"}, true},
	} {
		expectToolError(t, e, c.tool, c.args, c.field, c.api)
	}
	res := e.callRaw(t, "company_profile", map[string]any{"domain": "no-such-company-anywhere.com"})
	if !res.IsError || !strings.Contains(text(res), "404") {
		t.Errorf("company_profile of an unknown domain = %v %q, want a 404 tool error", res.IsError, text(res))
	}
}

// expectToolError calls a tool with a bad argument: the answer must be a tool error
// (not a protocol failure) naming the argument; api says the API refused it (a 4xx
// with its code), not the input schema.
func expectToolError(t *testing.T, e *env, tool string, args map[string]any, field string, api bool) {
	t.Helper()
	res := e.callRaw(t, tool, args)
	msg := text(res)
	t.Logf("%s(%v): %s", tool, args, msg)
	if !res.IsError || !strings.Contains(msg, field) {
		t.Errorf("%s(%v) = IsError %v %q; want a tool error naming %s", tool, args, res.IsError, msg, field)
		return
	}
	if api && !(strings.Contains(msg, "422") || strings.Contains(msg, "400")) {
		t.Errorf("%s(%v) = %q; want the API's 4xx", tool, args, msg)
	}
}

func TestContactTools(t *testing.T) {
	e := newEnv(t)
	i, c := e.firstActive(t)
	rows := e.world.ContactRows(i, c)

	// Domain mode: every contact of the company, each with its main fields.
	var got struct {
		TotalContacts int `json:"total_contacts"`
		TotalDomains  int `json:"total_domains"`
		Contacts      []struct {
			PersonaID  int64 `json:"persona_id"`
			Name       string
			Title      string
			Seniority  string
			Department string
			Domain     string
		}
		Companies []struct {
			Domain   string
			Name     string
			Contacts int
		}
		CreditsCharged int64 `json:"credits_charged"`
		Note           string
	}
	e.call(t, "search_contacts", map[string]any{"domain": []string{c.Domain}, "results_by_company": 0, "max_records": 25}, &got)
	if got.TotalContacts != min(len(rows), 25) || got.TotalDomains != 1 {
		t.Fatalf("search_contacts at %s: %d contacts at %d companies; the world has %d contacts there", c.Domain, got.TotalContacts, got.TotalDomains, len(rows))
	}
	want := map[string]bool{}
	for _, r := range rows {
		want[r.Name] = true
	}
	if len(got.Contacts) != min(len(rows), 25) {
		t.Errorf("search_contacts shows %d contacts of %d, want min(rows, 25)", len(got.Contacts), len(rows))
	}
	for _, p := range got.Contacts {
		if !want[p.Name] || p.Domain != c.Domain || p.Title == "" || p.Seniority == "" || p.Department == "" {
			t.Errorf("contact %+v is not one of the world's at %s, or lacks its main fields", p, c.Domain)
		}
	}
	if len(got.Companies) != 1 || got.Companies[0].Name != c.Truth.Name || got.Companies[0].Contacts != min(len(rows), 25) {
		t.Errorf("companies = %+v, want %s with %d contacts", got.Companies, c.Truth.Name, min(len(rows), 25))
	}
	if got.CreditsCharged <= 0 {
		t.Errorf("a first search charged %d credits; the contacts are net-new", got.CreditsCharged)
	}

	// Filter mode over the whole world: one page of 25, every contact billed shown,
	// with a note on how to page.
	var wide struct {
		TotalContacts int `json:"total_contacts"`
		Contacts      []struct{ Seniority string }
		Note          string
	}
	e.call(t, "search_contacts", map[string]any{"seniority": []string{"executive", "vp"}, "max_records": 25, "results_by_company": 0}, &wide)
	if wide.TotalContacts != 25 || len(wide.Contacts) != 25 || !strings.Contains(wide.Note, "offset 25") || strings.Contains(wide.Note, "billed") {
		t.Errorf("a 25-record search: %d returned, %d shown, note %q; want 25, 25 and how to page", wide.TotalContacts, len(wide.Contacts), wide.Note)
	}
	// The review's finding: search_contacts billed up to 100 contacts and showed 25.
	// An agent can no longer ask for more than it is shown.
	if res := e.callRaw(t, "search_contacts", map[string]any{"seniority": []string{"executive"}, "max_records": 60}); !res.IsError || !strings.Contains(text(res), "max_records") {
		t.Errorf("max_records 60 accepted (%s): an agent would pay for 60 contacts and see 25", text(res))
	}
	for _, p := range wide.Contacts {
		if p.Seniority != "executive" && p.Seniority != "vp" {
			t.Errorf("seniority filter let through %q", p.Seniority)
		}
	}

	// Count: the world's contacts in one country.
	country := c.Truth.Country
	truth := 0
	for j := range e.world.Len() {
		for _, r := range e.world.ContactRows(j, e.world.Company(j)) {
			if r.Country == country {
				truth++
			}
		}
	}
	var n struct{ Count int }
	e.call(t, "count_contacts", map[string]any{"person_country": []string{strings.ToLower(country)}}, &n)
	if n.Count != truth || truth == 0 {
		t.Errorf("count_contacts(person_country %s) = %d; the world has %d", country, n.Count, truth)
	}

	for _, c := range []struct {
		tool, field string
		args        map[string]any
		api         bool
	}{
		{"search_contacts", "department", map[string]any{"department": []string{"Engineering"}}, false},
		{"search_contacts", "max_records", map[string]any{"max_records": 5}, false},
		{"search_contacts", "person_country", map[string]any{"person_country": []string{"XQ"}}, true},
		{"count_contacts", "jobstart_date", map[string]any{"jobstart_date": "last year"}, true},
		{"count_contacts", "seniority", map[string]any{"seniority": []string{"ceo"}}, false},
	} {
		expectToolError(t, e, c.tool, c.args, c.field, c.api)
	}
}

func TestEmailAndTaskTools(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	_, c := e.firstActive(t)
	person := c.Truth.Team[0]
	first, last, _ := strings.Cut(person.Name, " ")

	var found struct {
		JobID     string `json:"job_id"`
		JobStatus string `json:"job_status"`
		Outcome   string
		Email     *string
	}
	e.call(t, "find_email", map[string]any{"first_name": first, "last_name": last, "domain": c.Domain, "wait_seconds": 60}, &found)
	if found.JobStatus != "completed" || found.Outcome != "found" || found.Email == nil || !strings.EqualFold(*found.Email, person.Email) {
		t.Fatalf("find_email(%s at %s) = %+v; the world's address is %s", person.Name, c.Domain, found, person.Email)
	}

	// task_status reads the same job by its id.
	var job struct {
		Status      string
		ResultCount int `json:"result_count"`
		Results     []map[string]any
	}
	e.call(t, "task_status", map[string]any{"kind": "email_job", "id": found.JobID}, &job)
	if job.Status != "completed" || job.ResultCount != 1 || job.Results[0]["email"] != *found.Email {
		t.Errorf("task_status(email_job) = %+v", job)
	}

	// An email batch, a bulk match and a segmentation submitted through the client, read
	// through task_status until they finish.
	var people []client.EmailFindRequest
	for _, p := range c.Truth.Team[:min(3, len(c.Truth.Team))] {
		f, l, _ := strings.Cut(p.Name, " ")
		people = append(people, client.EmailFindRequest{FirstName: f, LastName: l, Domain: c.Domain})
	}
	batch, _, err := e.api.FindEmailBatch(ctx, client.EmailBatchRequest{Requests: people})
	if err != nil {
		t.Fatal(err)
	}
	var b struct {
		Status      string
		ResultCount int `json:"result_count"`
		Results     []map[string]any
	}
	e.call(t, "task_status", map[string]any{"kind": "email_batch", "id": batch.BatchID, "wait_seconds": 60}, &b)
	if b.Status != "completed" || b.ResultCount != len(people) {
		t.Errorf("task_status(email_batch) = %+v; want completed with %d rows", b, len(people))
	}

	var names, domains []string
	csv := "company\n"
	for j := range 5 {
		w := e.world.Company(j)
		names = append(names, w.Truth.Name)
		domains = append(domains, w.Domain)
		csv += `"` + w.Truth.Name + `"` + "\n"
	}
	ref, _, err := e.api.BulkMatch(ctx, client.BulkMatchRequest{File: strings.NewReader(csv), FileName: "names.csv", NameColumn: "company"})
	if err != nil {
		t.Fatal(err)
	}
	var bm struct {
		Status      string
		ResultCount int `json:"result_count"`
		Results     []map[string]any
	}
	e.call(t, "task_status", map[string]any{"kind": "bulkmatch", "id": ref.TaskID, "wait_seconds": 60}, &bm)
	if bm.Status != "completed" || bm.ResultCount < len(names) {
		t.Fatalf("task_status(bulkmatch) = %+v", bm)
	}
	matched := map[string]string{}
	for _, r := range bm.Results {
		in, _ := r["input:company"].(string)
		if d, _ := r["domain"].(string); d != "" && matched[in] == "" {
			matched[in] = d
		}
	}
	for j, name := range names {
		if matched[name] != domains[j] {
			t.Errorf("bulk match row %q matched %q, the world's domain is %s (rows %v)", name, matched[name], domains[j], bm.Results)
		}
	}

	var segDomains []string
	for j := range 20 {
		segDomains = append(segDomains, e.world.Domain(j))
	}
	seg, _, err := e.api.Segment(ctx, client.SegmentRequest{Domains: segDomains})
	if err != nil {
		t.Fatal(err)
	}
	var sg struct {
		Status      string
		ResultCount int `json:"result_count"`
		Results     []map[string]any
	}
	e.call(t, "task_status", map[string]any{"kind": "segment", "id": seg.TaskID, "wait_seconds": 60}, &sg)
	if sg.Status != "completed" || sg.ResultCount == 0 || sg.ResultCount > len(segDomains) {
		t.Fatalf("task_status(segment) = %+v", sg)
	}
	for _, r := range sg.Results {
		if d, _ := r["domain"].(string); !slices.Contains(segDomains, d) || r["segment_id"] == nil {
			t.Errorf("segment row %v is not one of the submitted domains with its segment", r)
		}
	}

	// A batch task read through the gen route: ICP validation with the native engine.
	icpDomains := segDomains[:3]
	icp, _, err := e.api.ValidateICP(ctx, client.ValidateICPRequest{ICPText: "Mandatory: B2B companies\nReject if: agencies\nNice-to-have: based in Europe",
		Domains: icpDomains, IntegrationID: "native-icp"})
	if err != nil {
		t.Fatal(err)
	}
	var gen struct {
		Status      string
		Progress    float64
		ResultCount int `json:"result_count"`
		Results     []map[string]any
	}
	e.call(t, "task_status", map[string]any{"kind": "gen", "id": icp.TaskID, "wait_seconds": 60}, &gen)
	if gen.Status != "completed" || gen.Progress != 100 || gen.ResultCount != len(icpDomains) {
		t.Fatalf("task_status(gen) = %+v; want completed with %d rows", gen, len(icpDomains))
	}
	for _, r := range gen.Results {
		if k, _ := r["key"].(string); !slices.Contains(icpDomains, k) || r["ICP Fit"] == nil {
			t.Errorf("ICP validation row %v is not a submitted domain with its verdict", r)
		}
	}

	for _, c := range []struct {
		tool, field string
		args        map[string]any
		api         bool
	}{
		{"find_email", "last_name", map[string]any{"first_name": "Jane", "domain": c.Domain}, false},
		{"find_email", "domain", map[string]any{"first_name": "Jane", "last_name": "Doe", "domain": "not a domain"}, true},
		{"task_status", "kind", map[string]any{"kind": "report", "id": ref.TaskID}, false},
	} {
		expectToolError(t, e, c.tool, c.args, c.field, c.api)
	}
	// A task of one kind is not found through another kind's route.
	res := e.callRaw(t, "task_status", map[string]any{"kind": "gen", "id": ref.TaskID})
	if !res.IsError || !strings.Contains(text(res), "404") {
		t.Errorf("a bulk match read as kind gen = %v %q, want a 404 tool error", res.IsError, text(res))
	}
}
