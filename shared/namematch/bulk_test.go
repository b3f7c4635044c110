package namematch_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/namematch"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/memqueue"
	"github.com/firmoapi/firmo/shared/task/tasktest"
)

func TestReadCSV(t *testing.T) {
	ok := namematch.BulkParams{NameColumn: "Company"}
	big := "Company\n" + strings.Repeat(strings.Repeat("x", 99)+"\n", namematch.MaxBulkBytes/100+1)
	cases := []struct {
		name   string
		file   string
		p      namematch.BulkParams
		status int
		field  string
	}{
		{"name_column required", "Company\nAcme\n", namematch.BulkParams{}, 422, "name_column"},
		{"name_column not in header", "Company\nAcme\n", namematch.BulkParams{NameColumn: "Name"}, 422, "name_column"},
		{"country_column not in header", "Company\nAcme\n", namematch.BulkParams{NameColumn: "Company", CountryColumn: "Land"}, 422, "country_column"},
		{"state_column not in header", "Company\nAcme\n", namematch.BulkParams{NameColumn: "Company", StateColumn: "St"}, 422, "state_column"},
		{"city_column not in header", "Company\nAcme\n", namematch.BulkParams{NameColumn: "Company", CityColumn: "Town"}, 422, "city_column"},
		{"zip_code_column not in header", "Company\nAcme\n", namematch.BulkParams{NameColumn: "Company", ZipCodeColumn: "Zip"}, 422, "zip_code_column"},
		{"phone_column not in header", "Company\nAcme\n", namematch.BulkParams{NameColumn: "Company", PhoneColumn: "Tel"}, 422, "phone_column"},
		{"min_match_confidence low", "Company\nAcme\n", namematch.BulkParams{NameColumn: "Company", MinMatchConfidence: 49}, 422, "min_match_confidence"},
		{"min_match_confidence high", "Company\nAcme\n", namematch.BulkParams{NameColumn: "Company", MinMatchConfidence: 101}, 422, "min_match_confidence"},
		{"empty file", "", ok, 422, "file"},
		{"header only", "Company\n", ok, 422, "file"},
		{"blank header column", "Company,\nAcme,x\n", ok, 422, "file"},
		{"duplicate header column", "Company,Company\nAcme,x\n", ok, 422, "file"},
		{"bad quoting", "Company\n\"Acme\n", ok, 422, "file"},
		{"Latin-1 is read (shared/upload)", "Company\nAcm\xe9\n", ok, 0, ""},
		{"too many rows", "Company\n" + strings.Repeat("Acme\n", namematch.MaxBulkRows+1), ok, 422, "file"},
		{"too large", big, ok, 413, "file"},
		{"valid with BOM and ragged rows", "\xef\xbb\xbfCompany,Country\nAcme\nBeta,DE,extra\n", namematch.BulkParams{NameColumn: "Company", CountryColumn: "Country"}, 0, ""},
		{"exactly the row limit", "Company\n" + strings.Repeat("Acme\n", namematch.MaxBulkRows), ok, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			header, rows, err := namematch.ReadCSV(strings.NewReader(c.file), c.p)
			if c.status == 0 {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				if header[0] != "Company" || len(rows) == 0 || len(rows[0]) != len(header) {
					t.Fatalf("header %q, %d rows, first %q", header, len(rows), rows[0])
				}
				return
			}
			var ae *apperr.Error
			if !errors.As(err, &ae) || apperr.Status(err) != c.status || ae.Field != c.field {
				t.Fatalf("error = %v, want %d naming %s", err, c.status, c.field)
			}
		})
	}
}

// The review's wide bulk match (a 16,000-column header, 2,000 rows of x: no match, so
// free) stored 714 MB and built a 554 MB answer per status read. It is refused at
// submit, naming the file, and so is a narrower file whose rows would each echo more
// than 16 KB; no task is started for either.
func TestBulkMatchWideFileRefusedAtSubmit(t *testing.T) {
	fx := newFixture(t, records(bulkCompanies()...), namematch.Options{})
	env := newBulkEnv(t, fx.index, fx.recs)
	wide := func(cols, rows int, name string) string {
		var b strings.Builder
		b.WriteString("Company")
		for i := range cols - 1 {
			fmt.Fprintf(&b, ",%s%d", name, i)
		}
		b.WriteByte('\n')
		for range rows {
			b.WriteString("x" + strings.Repeat(",x", cols-1) + "\n")
		}
		return b.String()
	}
	cases := []struct {
		name, file, want string
	}{
		{"16,000 columns", wide(16_000, 20, "c"), "more than 256 columns"},
		// 200 columns with 80-byte names: each row echoes about 18 KB.
		{"rows echoing over 16 KB", wide(200, 2_000, strings.Repeat("n", 80)), "at most 16384 (16 KB)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sub, err := env.bulk.Submit(context.Background(), orgA.ID, strings.NewReader(c.file), namematch.BulkParams{NameColumn: "Company"})
			var ae *apperr.Error
			if !errors.As(err, &ae) || apperr.Status(err) != 422 || ae.Field != "file" || !strings.Contains(ae.Message, c.want) {
				t.Fatalf("Submit = %+v, %v; want a 422 naming file saying %q", sub, err, c.want)
			}
		})
	}
	// Just under the echo limit is accepted.
	if _, err := env.bulk.Submit(context.Background(), orgA.ID, strings.NewReader(wide(150, 5, strings.Repeat("n", 80))), namematch.BulkParams{NameColumn: "Company"}); err != nil {
		t.Fatalf("150 columns of 80-byte names: %v", err)
	}
}

// charger records charges and the routes they were made under; refuse makes the
// next charge a 402.
type charger struct {
	mu     sync.Mutex
	calls  [][]string
	ids    []string
	routes []string
	refuse bool
}

func (c *charger) Charge(ctx context.Context, org account.Org, kind billing.Kind, records []string, requestID string) (billing.Charge, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.refuse {
		c.refuse = false
		return billing.Charge{}, &apperr.Error{Kind: apperr.ErrPaymentRequired, Message: "not enough credits"}
	}
	route := billing.RouteOf(ctx)
	if kind != billing.KindCompany || route == "" {
		return billing.Charge{}, fmt.Errorf("unexpected charge %q %s", route, kind)
	}
	c.calls = append(c.calls, append([]string(nil), records...))
	c.ids = append(c.ids, requestID)
	c.routes = append(c.routes, route)
	return billing.Charge{Credits: int64(len(records)), NetNew: len(records), Records: len(records)}, nil
}

// bulkEnv is a bulk match service on a real task engine (bbolt, in-process queue).
type bulkEnv struct {
	bulk   *namematch.Bulk
	engine *task.Engine
	store  kv.Store
	bill   *charger
}

func newBulkEnv(t *testing.T, index namematch.Index, recs namematch.Records) *bulkEnv {
	t.Helper()
	store, err := boltkv.Open(filepath.Join(t.TempDir(), "firmo.db"))
	if err != nil {
		t.Fatal(err)
	}
	q := memqueue.New(memqueue.Options{Workers: 8, RetryDelay: 5 * time.Millisecond})
	flow := memqueue.NewWorkflow(memqueue.FlowOptions{PollEvery: 20 * time.Millisecond})
	eng := task.New(task.Deps{Store: store, Kinds: task.NewRegistry(), Queue: q, Flow: flow})
	env := &bulkEnv{engine: eng, store: store, bill: &charger{}}
	m := namematch.New(index, recs, namematch.Options{Attempts: 2, Backoff: time.Millisecond})
	env.bulk = namematch.NewBulk(namematch.BulkDeps{Matcher: m, Tasks: eng, Store: store, Billing: env.bill})
	if err := eng.Kinds().Register(env.bulk.Kind()); err != nil {
		t.Fatal(err)
	}
	q.Run(eng)
	flow.Run(eng)
	t.Cleanup(func() {
		flow.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		q.Close(ctx)
		store.Close()
	})
	return env
}

var orgA = account.Org{ID: "org-a", Plan: account.PlanPro}

// await polls until the task has ended and returns its status.
func (e *bulkEnv) await(t *testing.T, org account.Org, id string) namematch.BulkStatus {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		st, err := e.bulk.Status(context.Background(), org, id)
		if err != nil {
			t.Fatal(err)
		}
		if st.Status.Terminal() {
			return st
		}
		if len(st.Results) != 0 {
			t.Fatalf("results delivered while %s", st.Status)
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s still %s", id, st.Status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func decodeRows(t *testing.T, st namematch.BulkStatus) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, r := range st.Results {
		var m map[string]any
		if err := json.Unmarshal(r, &m); err != nil {
			t.Fatalf("row %s: %v", r, err)
		}
		out = append(out, m)
	}
	return out
}

const bulkFile = `Company,Country,Town,Notes
Acme Robotics Inc,US,San Jose,exact
Acme Robotcs,US,,typo
Zzyzx Unknown Widgets,US,,no match
" .. ",US,,blank name
Harbor Freight Partners,DE,Munich,location picks
`

func bulkCompanies() []co {
	return []co{
		{domain: "acme-robotics.com", name: "Acme Robotics, Inc.", country: "US", state: "CA", city: "San Jose", score: 300},
		{domain: "harbor.de", name: "Harbor Freight Partners GmbH", country: "DE", city: "München"},
		{domain: "harbor.com", name: "Harbor Freight Partners LLC", country: "US", city: "Boston", score: 800},
	}
}

func TestBulkMatchEndToEnd(t *testing.T) {
	fx := newFixture(t, records(bulkCompanies()...), namematch.Options{})
	env := newBulkEnv(t, fx.index, fx.recs)
	p := namematch.BulkParams{NameColumn: "Company", CountryColumn: "Country", CityColumn: "Town"}
	// Submitted under a route, as the HTTP server does; no kind falls back to this one.
	const route = "POST /v1/test/bulkmatch"
	sub, err := env.bulk.Submit(billing.WithRoute(context.Background(), route), orgA.ID, strings.NewReader(bulkFile), p)
	if err != nil {
		t.Fatal(err)
	}
	st := env.await(t, orgA, sub.TaskID)
	if st.Status != task.StatusCompleted || st.Progress != 100 || st.TotalRows != 5 {
		t.Fatalf("status = %+v", st)
	}
	rows := decodeRows(t, st)
	wantDomains := []any{"acme-robotics.com", "acme-robotics.com", nil, nil, "harbor.de"}
	for i, r := range rows {
		if r["domain"] != wantDomains[i] {
			t.Errorf("row %d: domain %v, want %v", i+1, r["domain"], wantDomains[i])
		}
		if r["input:Notes"] == nil || r["input:Company"] == nil || r["input:Town"] == nil {
			t.Errorf("row %d lacks its input columns: %v", i+1, r)
		}
	}
	if c, _ := rows[0]["match_confidence"].(float64); c < 90 {
		t.Errorf("exact row confidence %v", rows[0]["match_confidence"])
	}
	if rows[2]["match_confidence"] != nil || rows[2]["match_error"] != nil {
		t.Errorf("a row without a match has a null confidence and no error: %v", rows[2])
	}
	if rows[3]["match_error"] != namematch.MatchErrorInvalidName {
		t.Errorf("blank name row: %v", rows[3])
	}
	// Input columns first, in file order, then the profile in its order, then the
	// confidence.
	first := string(st.Results[0])
	if !strings.HasPrefix(first, `{"input:Company":"Acme Robotics Inc","input:Country":"US","input:Town":"San Jose","input:Notes":"exact","domain":"acme-robotics.com","name":`) ||
		!strings.HasSuffix(first, `"match_confidence":`+fmt.Sprint(rows[0]["match_confidence"])+`}`) {
		t.Errorf("row JSON order: %s", first)
	}
	// Billed once, on delivery, for the matched rows only.
	if len(env.bill.calls) != 1 || !reflect.DeepEqual(env.bill.calls[0], []string{"acme-robotics.com", "acme-robotics.com", "harbor.de"}) {
		t.Errorf("charges = %v", env.bill.calls)
	}
	if st.Credits != 3 {
		t.Errorf("credits charged on delivery = %d, want 3", st.Credits)
	}
	if !reflect.DeepEqual(env.bill.routes, []string{route}) {
		t.Errorf("charged under %q, want the submitting route %q", env.bill.routes, route)
	}
	again, err := env.bulk.Status(billing.WithRoute(context.Background(), namematch.StatusRoute), orgA, sub.TaskID)
	if err != nil || again.Credits != 0 || len(env.bill.calls) != 1 || len(again.Results) != 5 {
		t.Errorf("second poll: credits %d, charges %d, rows %d, %v", again.Credits, len(env.bill.calls), len(again.Results), err)
	}
}

func TestBulkMatchStrictAndThreshold(t *testing.T) {
	fx := newFixture(t, records(co{domain: "acme-intl.com", name: "Acme Intl Inc"}, co{domain: "keystone.com", name: "Keystone Laboratories"}), namematch.Options{})
	env := newBulkEnv(t, fx.index, fx.recs)
	file := "name\nAcme International\nAcme Intl Corp\nKeystone\n"
	cases := []struct {
		name string
		p    namematch.BulkParams
		want []any
	}{
		{"default", namematch.BulkParams{NameColumn: "name"}, []any{"acme-intl.com", "acme-intl.com", "keystone.com"}},
		{"strict", namematch.BulkParams{NameColumn: "name", Strict: true}, []any{nil, "acme-intl.com", nil}},
		{"min 80", namematch.BulkParams{NameColumn: "name", MinMatchConfidence: 80}, []any{"acme-intl.com", "acme-intl.com", nil}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sub, err := env.bulk.Submit(context.Background(), orgA.ID, strings.NewReader(file), c.p)
			if err != nil {
				t.Fatal(err)
			}
			var got []any
			for _, r := range decodeRows(t, env.await(t, orgA, sub.TaskID)) {
				got = append(got, r["domain"])
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("domains = %v, want %v", got, c.want)
			}
		})
	}
}

// Rows whose search failed carry match_error search_failed and domain null, and are
// not billed.
func TestBulkMatchSearchFailed(t *testing.T) {
	fx := newFixture(t, records(bulkCompanies()...), namematch.Options{})
	down := &failing{Index: fx.index, n: 1 << 30}
	env := newBulkEnv(t, down, fx.recs)
	sub, err := env.bulk.Submit(context.Background(), orgA.ID, strings.NewReader("Company\nAcme Robotics\nHarbor Freight Partners\n"), namematch.BulkParams{NameColumn: "Company"})
	if err != nil {
		t.Fatal(err)
	}
	st := env.await(t, orgA, sub.TaskID)
	for i, r := range decodeRows(t, st) {
		if r["match_error"] != namematch.MatchErrorSearchFailed || r["domain"] != nil || r["input:Company"] == nil {
			t.Errorf("row %d = %v, want match_error search_failed, domain null, its input", i+1, r)
		}
	}
	if len(env.bill.calls) != 0 || st.Credits != 0 {
		t.Errorf("failed rows were billed: %v", env.bill.calls)
	}
}

func TestBulkMatchBillingRefusedThenPaid(t *testing.T) {
	fx := newFixture(t, records(bulkCompanies()...), namematch.Options{})
	env := newBulkEnv(t, fx.index, fx.recs)
	sub, err := env.bulk.Submit(context.Background(), orgA.ID, strings.NewReader("Company\nAcme Robotics\n"), namematch.BulkParams{NameColumn: "Company"})
	if err != nil {
		t.Fatal(err)
	}
	env.await(t, orgA, sub.TaskID) // completes and bills
	sub2, err := env.bulk.Submit(context.Background(), orgA.ID, strings.NewReader("Company\nHarbor Freight Partners\n"), namematch.BulkParams{NameColumn: "Company"})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		v, err := env.engine.Status(context.Background(), task.Ref{OrgID: orgA.ID, TaskID: sub2.TaskID})
		if err != nil {
			t.Fatal(err)
		}
		if v.Status.Terminal() || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	env.bill.refuse = true
	_, err = env.bulk.Status(context.Background(), orgA, sub2.TaskID)
	if apperr.Status(err) != http.StatusPaymentRequired {
		t.Fatalf("short balance: error %v, want 402", err)
	}
	st, err := env.bulk.Status(context.Background(), orgA, sub2.TaskID)
	if err != nil || len(st.Results) != 1 || st.Credits != 1 {
		t.Fatalf("after the top-up: %+v, %v", st, err)
	}
}

// Another organisation's bulk task, and a task of another kind, are 404s.
func TestBulkMatchTenantIsolation(t *testing.T) {
	fx := newFixture(t, records(bulkCompanies()...), namematch.Options{})
	env := newBulkEnv(t, fx.index, fx.recs)
	sub, err := env.bulk.Submit(context.Background(), orgA.ID, strings.NewReader("Company\nAcme Robotics\n"), namematch.BulkParams{NameColumn: "Company"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = env.bulk.Status(context.Background(), account.Org{ID: "org-b", Plan: account.PlanPro}, sub.TaskID)
	if apperr.Status(err) != http.StatusNotFound {
		t.Errorf("other organisation: %v, want 404", err)
	}
	_, err = env.bulk.Status(context.Background(), orgA, "3f1c2a4e-8b7d-4c1e-9a2b-5d6e7f8a9b0c")
	if apperr.Status(err) != http.StatusNotFound {
		t.Errorf("unknown task: %v, want 404", err)
	}
	echo := &tasktest.Echo{}
	if err := env.engine.Kinds().Register(echo.Kind("echo")); err != nil {
		t.Fatal(err)
	}
	other, err := env.engine.Submit(context.Background(), task.Submission{OrgID: orgA.ID, Kind: "echo", Records: tasktest.Keys("d", 1)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = env.bulk.Status(context.Background(), orgA, other.TaskID)
	if apperr.Status(err) != http.StatusNotFound {
		t.Errorf("a task of another kind: %v, want 404", err)
	}
}
