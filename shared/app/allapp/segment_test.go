package allapp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/query"
	"github.com/firmoapi/firmo/shared/world"
)

// segmentStatus polls GET /v1/segment/status until the task has ended, asking for every
// result in one page (limit 10,000, the most a segmentation has).
func segmentStatus(t *testing.T, e *env, k map[string]string, taskID string) answer {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		a := e.do(t, "GET", "/v1/segment/status/"+taskID+"?limit=10000", k, "")
		if a.status != http.StatusOK {
			t.Fatalf("segment status: %d %s", a.status, a.raw)
		}
		if s, _ := a.body["status"].(string); s != "in_progress" {
			return a
		}
		if time.Now().After(deadline) {
			t.Fatalf("segmentation %s still in progress after 3 minutes", taskID)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// multipartBody is a multipart body with fields and, when file is not nil, the part
// file named name.
func multipartBody(t *testing.T, name string, file []byte, fields map[string]string) (string, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if file != nil {
		part, err := w.CreateFormFile("file", name)
		if err != nil {
			t.Fatal(err)
		}
		part.Write(file)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String(), w.FormDataContentType()
}

// TestSegmentDemoWorld segments 2,000 companies of the demo world (several industries
// and countries) through the endpoint, from an uploaded CSV: the segments align with
// the world's industries (normalized mutual information written down in
// shared/segment/BENCHMARKS.md), the unclustered share stays under maxUnclustered,
// closed companies are omitted and counted, descriptions are distinct, and the
// delivery is billed once. Seeding 2,000 full profiles takes about 20 s on 2 cores, so
// the test is skipped in -short runs.
func TestSegmentDemoWorld(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds 2,000 companies")
	}
	e := newEnv(t, nil)
	ctx := context.Background()
	opts := world.Options{Seed: 1, Companies: 2000, AsOf: time.Now()}.Normalized()
	if _, err := e.app.SeedWorld(ctx, opts, company.LoadOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if err := e.app.StartTasks(ctx); err != nil {
		t.Fatal(err)
	}
	w := world.New(opts)
	var csv strings.Builder
	csv.WriteString("Company,Website\n")
	truth := map[string]string{}
	closed := 0 // by the stored profiles: the pipeline derives the status
	for i := range w.Len() {
		c := w.Company(i)
		fmt.Fprintf(&csv, "%q,https://www.%s/\n", c.Row.Name, c.Domain)
		truth[c.Domain] = c.Truth.Industry
		rec, err := e.app.Companies.Store().Get(ctx, c.Domain)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Profile.Status.Status == company.StatusClosed {
			closed++
		}
	}
	k := key(e.demoKey)
	body, ctype := multipartBody(t, "companies.csv", []byte(csv.String()), nil)
	start := time.Now()
	a := e.do(t, "POST", "/v1/segment", map[string]string{"x-service-key": e.demoKey, "Content-Type": ctype}, body)
	if a.status != http.StatusAccepted {
		t.Fatalf("submit: %d %s", a.status, a.raw)
	}
	st := segmentStatus(t, e, k, a.body["task_id"].(string))
	took := time.Since(start)
	if st.body["status"] != "completed" {
		t.Fatalf("segmentation ended %v: %.500s", st.body["status"], st.raw)
	}
	var got struct {
		TotalDomains     int `json:"total_domains"`
		Segments         int `json:"segments"`
		OmittedClosed    int `json:"omitted_closed"`
		OmittedUnindexed int `json:"omitted_unindexed"`
		Results          []struct {
			Domain             string  `json:"domain"`
			SegmentID          int     `json:"segment_id"`
			SegmentDescription string  `json:"segment_description"`
			Probability        float64 `json:"probability"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(st.raw), &got); err != nil {
		t.Fatal(err)
	}
	if got.TotalDomains != w.Len() || got.OmittedClosed != closed || got.OmittedUnindexed != 0 || len(got.Results) != w.Len()-closed {
		t.Errorf("total %d, omitted closed %d unindexed %d, %d results; want %d, %d closed, 0, %d",
			got.TotalDomains, got.OmittedClosed, got.OmittedUnindexed, len(got.Results), w.Len(), closed, w.Len()-closed)
	}
	var labels, classes []string
	unclustered := 0
	descs := map[int]string{}
	for _, r := range got.Results {
		ind, ok := truth[r.Domain]
		if !ok {
			t.Fatalf("result for %s, not submitted", r.Domain)
		}
		if r.SegmentID < 0 {
			unclustered++
			if r.SegmentDescription != "UNCLUSTERED" || r.Probability != 0 {
				t.Errorf("unclustered %s: description %q probability %v", r.Domain, r.SegmentDescription, r.Probability)
			}
			continue
		}
		if d, seen := descs[r.SegmentID]; seen && d != r.SegmentDescription {
			t.Errorf("segment %d described %q and %q", r.SegmentID, d, r.SegmentDescription)
		}
		descs[r.SegmentID] = r.SegmentDescription
		labels, classes = append(labels, fmt.Sprint(r.SegmentID)), append(classes, ind)
	}
	distinct := map[string]bool{}
	for id, d := range descs {
		if distinct[d] {
			t.Errorf("description %q repeated (segment %d)", d, id)
		}
		distinct[d] = true
	}
	share := float64(unclustered) / float64(len(got.Results))
	nmi := normalizedMutualInfo(classes, labels)
	t.Logf("%d companies, %d segments, %.1f%% unclustered, NMI of clustered companies vs industry %.3f, took %s", len(got.Results), got.Segments, 100*share, nmi, took.Round(time.Millisecond))
	for id := range got.Segments {
		t.Logf("segment %d: %s", id, descs[id])
	}
	// Reliability of probability: per band, the share of the clustered companies that
	// are of their segment's majority industry (shared/segment/BENCHMARKS.md).
	majority := map[string]map[string]int{}
	for i, l := range labels {
		if majority[l] == nil {
			majority[l] = map[string]int{}
		}
		majority[l][classes[i]]++
	}
	top := func(l string) string {
		best := ""
		for c, n := range majority[l] {
			if best == "" || n > majority[l][best] || (n == majority[l][best] && c < best) {
				best = c
			}
		}
		return best
	}
	var band [10][2]int
	for _, r := range got.Results {
		if r.SegmentID < 0 {
			continue
		}
		b := min(int(r.Probability*10), 9)
		band[b][0]++
		if truth[r.Domain] == top(fmt.Sprint(r.SegmentID)) {
			band[b][1]++
		}
	}
	for b, c := range band {
		if c[0] > 0 {
			t.Logf("probability %.1f to %.1f: %d companies, %.3f of their segment's majority industry", float64(b)/10, float64(b+1)/10, c[0], float64(c[1])/float64(c[0]))
		}
	}
	if share > maxUnclustered {
		t.Errorf("%.1f%% unclustered, want at most %.0f%%", 100*share, 100*maxUnclustered)
	}
	if nmi < 0.8 {
		t.Errorf("NMI %.3f: the segments do not follow the industries", nmi)
	}
	if charged := st.header.Get("X-Credits-Charged"); charged == "0" || charged == "" {
		t.Errorf("the delivery charged %q credits", charged)
	}
	again := e.do(t, "GET", "/v1/segment/status/"+a.body["task_id"].(string), k, "")
	if charged := again.header.Get("X-Credits-Charged"); charged != "0" {
		t.Errorf("a second read charged %q credits", charged)
	}
}

// maxUnclustered bounds the unclustered share of the demo world's companies: the
// issue's goal of at most 25% (3.2% measured, shared/segment/BENCHMARKS.md).
const maxUnclustered = 0.25

// normalizedMutualInfo is NMI with the arithmetic mean of the entropies (scikit-learn's
// default).
func normalizedMutualInfo(a, b []string) float64 {
	n := float64(len(a))
	pa, pb, pab := map[string]float64{}, map[string]float64{}, map[[2]string]float64{}
	for i := range a {
		pa[a[i]]++
		pb[b[i]]++
		pab[[2]string{a[i], b[i]}]++
	}
	var ha, hb, mi float64
	for _, c := range pa {
		ha -= c / n * math.Log(c/n)
	}
	for _, c := range pb {
		hb -= c / n * math.Log(c/n)
	}
	for k, c := range pab {
		mi += c / n * math.Log(c*n/(pa[k[0]]*pb[k[1]]))
	}
	if ha+hb == 0 {
		return 1
	}
	return 2 * mi / (ha + hb)
}

// segmentFixture is an app with a small seeded world (full profiles), tasks running, a
// second organisation with its own key, and a saved query of each organisation.
type segmentFixture struct {
	e                    *env
	w                    *world.World
	domains              []string // the world's open companies
	otherKey             string
	ownQuery, otherQuery string
}

func newSegmentFixture(t *testing.T, companies int) *segmentFixture {
	t.Helper()
	e := newEnv(t, nil)
	ctx := context.Background()
	opts := world.Options{Seed: 3, Companies: companies, AsOf: time.Now()}.Normalized()
	if _, err := e.app.SeedWorld(ctx, opts, company.LoadOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if err := e.app.StartTasks(ctx); err != nil {
		t.Fatal(err)
	}
	f := &segmentFixture{e: e, w: world.New(opts)}
	for i := range f.w.Len() {
		if c := f.w.Company(i); c.Truth.Status != company.StatusClosed {
			f.domains = append(f.domains, c.Domain)
		}
	}
	org, _, err := e.app.Accounts.EnsureOrg(ctx, "segment-other", account.PlanEnterprise)
	if err != nil {
		t.Fatal(err)
	}
	u, err := e.app.Accounts.CreateUser(ctx, org.ID, "other@segment.firmo.local", account.RoleAdmin, "")
	if err != nil {
		t.Fatal(err)
	}
	if f.otherKey, _, err = e.app.Accounts.CreateKey(ctx, org.ID, u.ID, "other"); err != nil {
		t.Fatal(err)
	}
	q, err := e.app.Queries.CreateList(ctx, demoOrg(t, e), query.Actor{UserID: "u", Admin: true}, query.NewList{Name: "own", Action: query.ActionDiscover, Domains: f.domains[:10]})
	if err != nil {
		t.Fatal(err)
	}
	f.ownQuery = q.ID
	if q, err = e.app.Queries.CreateList(ctx, org.ID, query.Actor{UserID: u.ID, Admin: true}, query.NewList{Name: "other", Action: query.ActionDiscover, Domains: f.domains[:10]}); err != nil {
		t.Fatal(err)
	}
	f.otherQuery = q.ID
	return f
}

// submit posts a segmentation and returns the answer.
func (f *segmentFixture) submit(t *testing.T, apiKey, rawQuery, fileName string, file []byte, fields map[string]string) answer {
	t.Helper()
	h := map[string]string{"x-service-key": apiKey}
	body := ""
	if file != nil || len(fields) > 0 {
		var ctype string
		body, ctype = multipartBody(t, fileName, file, fields)
		h["Content-Type"] = ctype
	}
	path := "/v1/segment"
	if rawQuery != "" {
		path += "?" + rawQuery
	}
	return f.e.do(t, "POST", path, h, body)
}

func domainsCSV(domains []string) string {
	var b strings.Builder
	b.WriteString("Company,Website\n")
	for i, d := range domains {
		fmt.Fprintf(&b, "Company %d,https://%s/\n", i, d)
	}
	return b.String()
}

func domainsWorkbook(t *testing.T, domains []string) []byte {
	t.Helper()
	x := excelize.NewFile()
	defer x.Close()
	rows := [][]any{{"Company", "Website"}}
	for i, d := range domains {
		rows = append(rows, []any{fmt.Sprintf("Company %d", i), "https://" + d + "/"})
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := x.SetSheetRow("Sheet1", cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	buf, err := x.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestSegmentUploads: every broken upload is a 4xx naming file or the parameter, never
// a 500; UTF-16 and Latin-1 CSV are accepted; the same domains from CSV and from Excel
// give the same segmentation.
func TestSegmentUploads(t *testing.T) {
	f := newSegmentFixture(t, 60)
	doms := f.domains[:40]
	good := domainsCSV(doms)
	xlsx := domainsWorkbook(t, doms)
	encrypted := func() []byte {
		x := excelize.NewFile()
		defer x.Close()
		x.SetSheetRow("Sheet1", "A1", &[]any{"domain"})
		x.SetSheetRow("Sheet1", "A2", &[]any{"example.com"})
		var buf bytes.Buffer
		if err := x.Write(&buf, excelize.Options{Password: "pw"}); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}()
	var rows10001 strings.Builder
	rows10001.WriteString("domain\n")
	for i := range 10_001 {
		fmt.Fprintf(&rows10001, "d%d.com\n", i)
	}
	big := "domain,notes\n" + strings.Repeat("example.com,"+strings.Repeat("x", 1000)+"\n", 1100)
	utf16 := func(s string) []byte {
		b, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().Bytes([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	latin1 := func(s string) []byte {
		b, err := charmap.ISO8859_1.NewEncoder().Bytes([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	accented := strings.Replace(good, "Company 0,", "Société Générale,", 1)
	tests := []struct {
		name   string
		file   []byte
		fields map[string]string
		status int
		field  string
		want   string // in the message
	}{
		{name: "corrupt xlsx", file: xlsx[:300], status: 422, field: "file", want: "xlsx"},
		{name: "encrypted xlsx", file: encrypted, status: 422, field: "file", want: "password"},
		{name: "unbalanced quotes", file: []byte("domain,name\n" + doms[0] + ",\"Acme\n" + doms[1] + ",x\n"), status: 422, field: "file", want: "CSV"},
		{name: "no domain column", file: []byte("name,city\nAcme,Paris\nGlobex,Berlin\n"), status: 422, field: "domain_column", want: "domain_column"},
		{name: "domain_column not a column", file: []byte(good), fields: map[string]string{"domain_column": "URL"}, status: 422, field: "domain_column", want: "Website"},
		{name: "10,001 rows", file: []byte(rows10001.String()), status: 422, field: "file", want: "10001"},
		{name: "over 1 MB", file: []byte(big), status: 413, field: "file", want: "1 MB"},
		{name: "too few domains", file: []byte(domainsCSV(doms[:4])), status: 422, field: "file", want: "hold 4"},
		{name: "max_segments out of range", file: []byte(good), fields: map[string]string{"max_segments": "101"}, status: 422, field: "max_segments", want: "2 and 100"},
		{name: "utf-16 accepted", file: utf16(accented), status: 202},
		{name: "latin-1 accepted", file: latin1(accented), status: 202},
		{name: "xlsx accepted", file: xlsx, status: 202},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := f.submit(t, f.e.demoKey, "", "upload.csv", tc.file, tc.fields)
			if a.status != tc.status {
				t.Fatalf("status %d, want %d; body %.300s", a.status, tc.status, a.raw)
			}
			if tc.status == 202 {
				return
			}
			errBody, _ := a.body["error"].(map[string]any)
			if errBody["field"] != tc.field || !strings.Contains(fmt.Sprint(errBody["message"]), tc.want) {
				t.Errorf("error %v; want field %q and a message saying %q", errBody, tc.field, tc.want)
			}
		})
	}

	// The same domains from CSV and from Excel (and in another order, with duplicates)
	// give the same segmentation: the files parse identically and the clustering is
	// deterministic.
	reversed := []string{doms[5]} // a duplicate, then the domains backwards
	for i := len(doms) - 1; i >= 0; i-- {
		reversed = append(reversed, doms[i])
	}
	results := map[string]string{}
	for name, up := range map[string]struct {
		name string
		data []byte
	}{"csv": {"d.csv", []byte(good)}, "xlsx": {"d.xlsx", xlsx}, "csv reordered": {"d.csv", []byte(domainsCSV(reversed))}} {
		a := f.submit(t, f.e.demoKey, "", up.name, up.data, map[string]string{"domain_column": "website"})
		if a.status != http.StatusAccepted {
			t.Fatalf("%s: %d %s", name, a.status, a.raw)
		}
		st := segmentStatus(t, f.e, key(f.e.demoKey), a.body["task_id"].(string))
		var body struct {
			Results json.RawMessage `json:"results"`
		}
		json.Unmarshal([]byte(st.raw), &body)
		results[name] = string(body.Results)
		if st.body["status"] != "completed" || len(body.Results) < 100 {
			t.Fatalf("%s: %.300s", name, st.raw)
		}
	}
	if results["csv"] != results["xlsx"] {
		t.Error("the CSV and the Excel file with the same domains segment differently")
	}
	if results["csv"] != results["csv reordered"] {
		t.Error("the same domains in another order segment differently")
	}
}

// TestSegmentSourcesAndOrganisations: domains and query_id are unioned; another
// organisation's query_id and another organisation's task are 404s.
func TestSegmentSourcesAndOrganisations(t *testing.T) {
	f := newSegmentFixture(t, 30)
	k := key(f.e.demoKey)

	// Another organisation's saved query: 404 naming query_id.
	a := f.submit(t, f.e.demoKey, "query_id="+f.otherQuery, "", nil, nil)
	checkError(t, a, http.StatusNotFound, "not_found")
	// domains plus the organisation's own query (its 10 domains, 3 of them repeated).
	extra := f.domains[7:15]
	a = f.submit(t, f.e.demoKey, "domains="+url.QueryEscape(strings.Join(extra, ","))+"&query_id="+f.ownQuery, "", nil, nil)
	if a.status != http.StatusAccepted {
		t.Fatalf("submit: %d %s", a.status, a.raw)
	}
	taskID := a.body["task_id"].(string)
	st := segmentStatus(t, f.e, k, taskID)
	if got := st.body["total_domains"]; got != float64(15) {
		t.Errorf("total_domains %v, want the 15 distinct domains of domains and the query", got)
	}
	// A domains value that is not a domain names domains.
	a = f.submit(t, f.e.demoKey, "domains="+url.QueryEscape("a.com,b.com,c.com,d.com,not a domain"), "", nil, nil)
	if a.status != http.StatusUnprocessableEntity || !strings.Contains(a.raw, `"domains"`) {
		t.Errorf("bad domain: %d %s", a.status, a.raw)
	}
	// Nothing to segment: 422 naming domains.
	a = f.submit(t, f.e.demoKey, "", "", nil, nil)
	if a.status != http.StatusUnprocessableEntity || !strings.Contains(a.raw, `"domains"`) {
		t.Errorf("no source: %d %s", a.status, a.raw)
	}

	// The answers match the API reference: a submission, a completed status with
	// results, an unknown task.
	v := referenceValidator(t)
	for _, c := range []struct{ method, path string }{
		{"POST", "/v1/segment?max_segments=3&domains=" + url.QueryEscape(strings.Join(f.domains[:12], ","))},
		{"GET", "/v1/segment/status/" + taskID},
		{"GET", "/v1/segment/status/3f1c2a4e-8b7d-4c1e-9a2b-5d6e7f8a9b0c"},
	} {
		rec := call(t, f.e.app, f.e.demoKey, c.method, c.path, "")
		req, _ := http.NewRequest(c.method, "http://firmo.test"+c.path, nil)
		if ok, errs := v.ValidateHttpResponse(req, rec.Result()); !ok {
			for _, err := range errs {
				t.Errorf("%s %s: %d answer does not match the reference: %s: %s", c.method, c.path, rec.Code, err.Message, err.Reason)
				for _, s := range err.SchemaValidationErrors {
					t.Errorf("  %s", s.Reason)
				}
			}
		}
	}

	// Another organisation's task is a 404, and charges nothing.
	other := f.e.do(t, "GET", "/v1/segment/status/"+taskID, key(f.otherKey), "")
	checkError(t, other, http.StatusNotFound, "not_found")
	if got := other.header.Get(httpapi.HeaderCreditsCharged); got != "0" {
		t.Errorf("the 404 charged %q credits", got)
	}
}
