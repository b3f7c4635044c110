package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/client"
	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/namematch"
)

// The schemas' limits are the API's: the values shared/contactsearch and
// shared/namematch enforce.
func TestLimitsAreTheAPIs(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"max_records minimum", minMaxRecords, contactsearch.MinMaxRecords},
		{"persona_id items", maxPersonaIDs, contactsearch.MaxPersonaIDs},
		{"results_by_company maximum", maxResultsByCompany, contactsearch.MaxResultsByCompany},
		{"min_match_confidence minimum", minMatchConfidence, namematch.MinConfidence},
		{"min_match_confidence maximum", maxMatchConfidence, namematch.MaxConfidence},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, the API's is %d", c.name, c.got, c.want)
		}
	}
	if searchMaxRecords > contactsearch.MaxMaxRecords || searchDefaultRecords < contactsearch.MinMaxRecords {
		t.Errorf("search_contacts max_records %d-%d (default %d) leaves the API's range", minMaxRecords, searchMaxRecords, searchDefaultRecords)
	}
}

// fakeAPI answers contact searches with body and records what it was sent; any other
// method of API is nil and panics.
type fakeAPI struct {
	API
	body     string
	searches []client.ContactSearch
	calls    []client.Call
}

func (f *fakeAPI) DiscoverContacts(_ context.Context, s client.ContactSearch) (*client.ContactSearchResult, *client.Response, error) {
	f.searches = append(f.searches, s)
	var res client.ContactSearchResult
	if err := json.Unmarshal([]byte(f.body), &res); err != nil {
		return nil, nil, err
	}
	return &res, &client.Response{Status: 200, Body: []byte(f.body)}, nil
}

func (f *fakeAPI) Do(_ context.Context, c client.Call) (*client.Response, error) {
	f.calls = append(f.calls, c)
	return &client.Response{Status: 200, Body: []byte(f.body)}, nil
}

func TestSearchKeepsRankOrder(t *testing.T) {
	api := &fakeAPI{body: `{"results":{"zeta.com":{"domain":"zeta.com","name":"Zeta","contacts":[{"persona_id":3,"name":"A"}]},` +
		`"alpha.com":{"domain":"alpha.com","name":"Alpha","contacts":[{"persona_id":1,"name":"B"},{"persona_id":2,"name":"C"}]}},` +
		`"total_contacts":3,"total_domains":2}`}
	_, out, err := (&tools{api: api}).searchContacts(context.Background(), nil, SearchContactsInput{})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, c := range out.Companies {
		order = append(order, fmt.Sprint(c.Domain, c.Contacts))
	}
	var people []int64
	for _, c := range out.Contacts {
		people = append(people, c.PersonaID)
	}
	if strings.Join(order, ",") != "zeta.com1,alpha.com2" || fmt.Sprint(people) != "[3 1 2]" || out.TotalContacts != 3 || out.TotalDomains != 2 {
		t.Errorf("companies %v, contacts %v, totals %d/%d; want the answer's order, zeta.com then alpha.com", order, people, out.TotalContacts, out.TotalDomains)
	}
	if out.Contacts[0].CompanyName != "Zeta" {
		t.Errorf("a contact without company_name reads %q, want its company's name", out.Contacts[0].CompanyName)
	}
	// Twelve companies in reverse order of their names: a map's order would not keep it.
	var entries, want []string
	for i := range 12 {
		d := fmt.Sprintf("%c.com", 'z'-i)
		entries = append(entries, fmt.Sprintf(`%q:{"domain":%q,"contacts":[]}`, d, d))
		want = append(want, d)
	}
	api.body = `{"results":{` + strings.Join(entries, ",") + `},"total_contacts":0,"total_domains":12}`
	_, out, err = (&tools{api: api}).searchContacts(context.Background(), nil, SearchContactsInput{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range out.Companies {
		got = append(got, c.Domain)
	}
	if !slices.Equal(got, want) {
		t.Errorf("companies %v, want the answer's order %v", got, want)
	}
	api.body = `{"results":[],"total_contacts":0}`
	if _, _, err := (&tools{api: api}).searchContacts(context.Background(), nil, SearchContactsInput{}); err == nil {
		t.Error("results as an array decoded without error")
	}
}

// results_by_company 0 removes the per-company cap: it must reach the API, not be
// dropped as an empty value.
func TestSearchSendsResultsByCompanyZero(t *testing.T) {
	ptr := func(n int) *int { return &n }
	for _, c := range []struct {
		perCompany *int
		want       string // the results_by_company the API is sent ("" none)
	}{{nil, ""}, {ptr(3), "3"}, {ptr(0), "0"}} {
		api := &fakeAPI{body: `{"results":{},"total_contacts":0,"total_domains":0}`}
		in := SearchContactsInput{Domain: []string{"acme.com"}, MaxRecords: ptr(40), ResultsByCompany: c.perCompany, Offset: 20}
		if _, _, err := (&tools{api: api}).searchContacts(context.Background(), nil, in); err != nil {
			t.Fatal(err)
		}
		if len(api.searches) != 1 || len(api.calls) != 0 {
			t.Fatalf("results_by_company %s: %d typed searches, %d raw calls; want the typed method", c.want, len(api.searches), len(api.calls))
		}
		raw, _ := json.Marshal(api.searches[0])
		var body map[string]any
		json.Unmarshal(raw, &body)
		if got := fmt.Sprint(body["results_by_company"]); (c.want == "" && body["results_by_company"] != nil) || (c.want != "" && got != c.want) ||
			fmt.Sprint(body["domain"], body["max_records"], body["offset"]) != "[acme.com] 40 20" {
			t.Errorf("results_by_company %s: sent %s", c.want, raw)
		}
	}
}

// Every filter of the input reaches the client's filters under the same name.
func TestFiltersReachTheClient(t *testing.T) {
	var in ContactFilters
	v := reflect.ValueOf(&in).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("x")
		case reflect.Slice:
			f.Set(reflect.ValueOf([]string{"x"}))
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
			switch e := f.Elem(); e.Kind() {
			case reflect.Bool:
				e.SetBool(true)
			case reflect.Int:
				e.SetInt(7)
			}
		default:
			t.Fatalf("field %s of kind %s is not set by this test", v.Type().Field(i).Name, f.Kind())
		}
	}
	asMap := func(x any) map[string]any {
		raw, _ := json.Marshal(x)
		var m map[string]any
		json.Unmarshal(raw, &m)
		return m
	}
	want, got := asMap(in), asMap(in.api())
	if !reflect.DeepEqual(got, want) {
		t.Errorf("client filters %v\nwant the input's %v", got, want)
	}
}

func TestReadTaskKeepsOrderAndTrims(t *testing.T) {
	long := strings.Repeat("x", 500)
	body := `{"task_id":"t","status":"in_progress","progress":50,"warnings":["w"],` +
		`"interim_results":{"b.com":{"Reasoning":"` + long + `"},"a.com":{"ICP Fit":"Error: no data"}}}`
	a, err := readTask("gen", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	rows := a.rows
	if len(rows) != 2 || rows[0]["key"] != "b.com" || rows[1]["key"] != "a.com" || rows[1]["ICP Fit"] != "Error: no data" || fmt.Sprint(a.warnings) != "[w]" {
		t.Fatalf("rows = %v, warnings %v", rows, a.warnings)
	}
	if r, _ := rows[0]["Reasoning"].(string); len([]rune(r)) != 301 || !strings.HasSuffix(r, "…") {
		t.Errorf("a 500-character cell is %d characters, want clipped to 300 and marked", len([]rune(r)))
	}
	var cells, want []string
	for i := range 12 {
		k := fmt.Sprintf("%c.com", 'z'-i)
		cells = append(cells, fmt.Sprintf(`%q:{"ICP Fit":"yes"}`, k))
		want = append(want, k)
	}
	a, err = readTask("gen", []byte(`{"status":"completed","results":{`+strings.Join(cells, ",")+`}}`))
	var keys []string
	for _, r := range a.rows {
		keys = append(keys, fmt.Sprint(r["key"]))
	}
	if err != nil || !slices.Equal(keys, want) {
		t.Errorf("rows keyed %v (%v), want the answer's order %v", keys, err, want)
	}
	a, err = readTask("email_job", []byte(`{"job_id":"j","status":"completed","result":{"status":"found","result":{"email":"a@b.com","valid":true},"is_catch_all":false}}`))
	if err != nil || len(a.rows) != 1 || a.rows[0]["email"] != "a@b.com" || a.rows[0]["outcome"] != "found" {
		t.Errorf("email job rows %v, %v", a.rows, err)
	}
	a, err = readTask("email_job", []byte(`{"job_id":"j","status":"completed","result":{"status":"not_found","result":null}}`))
	if err != nil || a.rows[0]["email"] != nil || a.rows[0]["outcome"] != "not_found" {
		t.Errorf("a not_found job's row %v, %v; want no email", a.rows, err)
	}
	a, err = readTask("bulkmatch", []byte(`{"status":"failed","results":[{"domain":"a.com","name":"A","score":3,"input:company":"A Inc","address":{"country":"DE"}}],"error":{"code":"internal","message":"boom"}}`))
	if err != nil || len(a.rows) != 1 || a.rows[0]["input:company"] != "A Inc" || a.rows[0]["country"] != "DE" || a.rows[0]["score"] != nil || a.err == nil || a.err.Code != "internal" {
		t.Errorf("bulk match rows %v, error %+v, %v", a.rows, a.err, err)
	}
}

func TestTrimValueCutsLongLists(t *testing.T) {
	var xs []any
	for i := range 14 {
		xs = append(xs, i)
	}
	got, _ := trimValue(map[string]any{"contacts": xs}, 1).(map[string]any)
	list, _ := got["contacts"].([]any)
	if len(list) != 11 || list[10] != "… 4 more" {
		t.Errorf("a 14-item list trimmed to %v; want 10 items and a count of the rest", list)
	}
}

func TestToolErrorReadsTheAPIsError(t *testing.T) {
	for _, c := range []struct {
		err  error
		want []string
	}{
		{&client.Error{Status: 422, Code: "validation_error", Field: "department", Message: "not a department", RequestID: "r1"},
			[]string{"422 validation_error", `argument "department"`, "not a department", "fix department", "r1"}},
		{&client.Error{Status: 402, Code: "insufficient_credits", Message: "costs 5, balance 2"}, []string{"402", "too few credits"}},
		{&client.Error{Status: 429, Code: "rate_limited", RetryAfter: 7 * time.Second}, []string{"429", "try again in 7 s"}},
		{errors.New("dial tcp: connection refused"), []string{"could not be reached", "connection refused"}},
	} {
		msg := toolError("tool", c.err).Error()
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("toolError(%v) = %q; want it to contain %q", c.err, msg, w)
			}
		}
	}
}

func TestSearchNote(t *testing.T) {
	ptr := func(n int) *int { return &n }
	rows := func(n int) []ContactRow { return make([]ContactRow, min(n, maxRows)) }
	for _, c := range []struct {
		in       SearchContactsInput
		returned int
		want     string // "" means no note
	}{
		{SearchContactsInput{MaxRecords: ptr(30), ResultsByCompany: ptr(0), Offset: 10}, 30, "offset 40"},
		{SearchContactsInput{}, 25, "set results_by_company 0"},
		{SearchContactsInput{MaxRecords: ptr(60), ResultsByCompany: ptr(0)}, 60, "showing 25 of the 60 contacts returned"},
		{SearchContactsInput{}, 3, ""},
	} {
		out := SearchContactsOutput{TotalContacts: c.returned, TotalDomains: 1, Contacts: rows(c.returned), Companies: make([]CompanyRow, 1)}
		note := searchNote(c.in, out)
		if c.want == "" && note != "" || !strings.Contains(note, c.want) {
			t.Errorf("%d returned for %+v: note %q, want %q", c.returned, c.in, note, c.want)
		}
	}
}
