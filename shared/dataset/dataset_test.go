package dataset_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/dataset"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
)

// memStore is an in-memory dataset.Store.
type memStore struct {
	recs      map[string]company.Record
	certs     map[string][]company.Certificate
	sites     map[string]company.Site
	redirects map[string][]string // target -> sources
}

func newMemStore() *memStore {
	return &memStore{recs: map[string]company.Record{}, certs: map[string][]company.Certificate{}, sites: map[string]company.Site{}, redirects: map[string][]string{}}
}

func (m *memStore) GetMany(_ context.Context, ds []string) (map[string]company.Record, error) {
	out := map[string]company.Record{}
	for _, d := range ds {
		if r, ok := m.recs[d]; ok {
			out[d] = r
		}
	}
	return out, nil
}

func (m *memStore) Certificates(_ context.Context, d string, _ int) ([]company.Certificate, error) {
	return m.certs[d], nil
}

func (m *memStore) Sites(_ context.Context, ds []string) (map[string]company.Site, error) {
	out := map[string]company.Site{}
	for _, d := range ds {
		if s, ok := m.sites[d]; ok {
			out[d] = s
		}
	}
	return out, nil
}

func (m *memStore) RedirectSources(_ context.Context, t string) ([]string, error) {
	return m.redirects[t], nil
}

var now = time.Date(2026, 5, 14, 12, 0, 0, 0, time.UTC)

func str(s string) *string { return &s }

// fixture is a store with one company that has data in every dataset.
func fixture() *memStore {
	m := newMemStore()
	d := "acme.com"
	m.recs[d] = company.Record{Domain: d,
		Profile: company.Profile{Domain: d, Name: "Acme, Inc.", Score: 420, Address: company.Address{City: "Berlin", Country: "DE"}, Phones: []string{}, MXProvider: str("google.com"), RevenueRange: "1-10M"},
		Derived: company.Derived{Vendors: []string{"stripe.com"}, Subdomains: []string{"app.acme.com", "api.acme.com"},
			Fetch: &company.FetchStatus{URL: "https://acme.com/", StatusCode: 200, FetchedAt: "2026-05-01"}},
	}
	for k := range 12 {
		from := now.AddDate(0, -3*k, -5)
		m.certs[d] = append(m.certs[d], company.Certificate{FQDN: "acme.com", AlternativeFQDN: []string{"acme.com", "app.acme.com"}, DateFrom: from, DateTo: from.AddDate(0, 0, 90)})
	}
	m.sites[d] = company.Site{TXT: []string{"v=spf1 include:_spf.google.com include:sendgrid.net ~all"}}
	m.redirects[d] = []string{"acme-old.com"}
	m.recs["quiet.com"] = company.Record{Domain: "quiet.com", Profile: company.Profile{Domain: "quiet.com", Name: "Quiet"}}
	return m
}

func newService(m *memStore) *dataset.Service {
	return dataset.New(dataset.Deps{Store: m, Scorer: company.NewDeriver(company.DeriverDeps{}), Now: func() time.Time { return now }})
}

// subsets lists every non-empty subset of the datasets, in All's order.
func subsets() [][]dataset.Name {
	var out [][]dataset.Name
	for mask := 1; mask < 1<<len(dataset.All); mask++ {
		var s []dataset.Name
		for i, n := range dataset.All {
			if mask&(1<<i) != 0 {
				s = append(s, n)
			}
		}
		out = append(out, s)
	}
	return out
}

// TestNamingRuleAndFormatsAgree checks the column naming rule over every combination
// of datasets, and that the JSON and CSV answers agree cell for cell.
func TestNamingRuleAndFormatsAgree(t *testing.T) {
	svc := newService(fixture())
	qs := dataset.LastQuarters(now, dataset.Quarters)
	for _, sets := range subsets() {
		var names []string
		for _, n := range sets {
			names = append(names, string(n))
		}
		t.Run(strings.Join(names, "+"), func(t *testing.T) {
			req := dataset.Request{Sets: sets, InputHeader: []string{"Website", "Owner"}, Rows: []dataset.Input{
				{Domain: "https://www.acme.com/", Columns: []string{"https://www.acme.com/", "Ann"}},
				{Domain: "unknown-firm.org", Columns: []string{"unknown-firm.org", "Bob"}},
				{Domain: "quiet.com"}, // from a saved query: no input columns
			}}
			res, err := svc.Append(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			// The rule, stated independently: bizdata never prefixed; any other
			// dataset prefixed unless it is the only one requested.
			nonBiz := 0
			for _, n := range sets {
				if n != dataset.Bizdata {
					nonBiz++
				}
			}
			want := []string{"domain", "input:Website", "input:Owner"}
			for _, n := range sets {
				prefix := string(n) + ":"
				if n == dataset.Bizdata || (len(sets) == 1 && nonBiz == 1) {
					prefix = ""
				}
				for _, f := range dataset.FieldNames(n, qs) {
					want = append(want, prefix+f)
				}
			}
			if !slices.Equal(res.Columns, want) {
				t.Fatalf("columns = %v\nwant %v", res.Columns, want)
			}
			if slices.Contains(sets, dataset.Bizdata) && !slices.Contains(res.Columns, "name") {
				t.Errorf("bizdata field name missing or prefixed: %v", res.Columns)
			}
			if len(sets) == 1 && sets[0] == dataset.Vendors && !slices.Contains(res.Columns, "vendors") {
				t.Errorf("single non-bizdata dataset is prefixed: %v", res.Columns)
			}

			var js bytes.Buffer
			if err := dataset.WriteJSON(&js, res); err != nil {
				t.Fatal(err)
			}
			var objs []json.RawMessage
			if err := json.Unmarshal(js.Bytes(), &objs); err != nil {
				t.Fatalf("JSON answer: %v", err)
			}
			var cs bytes.Buffer
			if err := dataset.WriteCSV(&cs, res); err != nil {
				t.Fatal(err)
			}
			recs, err := csv.NewReader(&cs).ReadAll()
			if err != nil {
				t.Fatalf("CSV answer: %v", err)
			}
			if len(objs) != 3 || len(recs) != 4 {
				t.Fatalf("%d JSON objects and %d CSV records for 3 rows", len(objs), len(recs))
			}
			if !slices.Equal(recs[0], want) {
				t.Fatalf("CSV header = %v, want %v", recs[0], want)
			}
			for i, raw := range objs {
				keys := objectKeys(t, raw)
				if !slices.Equal(keys, want) {
					t.Fatalf("row %d JSON keys = %v, want %v", i, keys, want)
				}
				var obj map[string]json.RawMessage
				json.Unmarshal(raw, &obj)
				for j, col := range want {
					if got, wantCell := recs[i+1][j], jsonAsCell(t, obj[col]); got != wantCell {
						t.Errorf("row %d column %s: CSV %q, JSON %s", i, col, got, obj[col])
					}
				}
			}
			var first map[string]json.RawMessage
			json.Unmarshal(objs[0], &first)
			if string(first["domain"]) != `"acme.com"` || string(first["input:Owner"]) != `"Ann"` {
				t.Errorf("row 0 = domain %s, input:Owner %s", first["domain"], first["input:Owner"])
			}
			var third map[string]json.RawMessage
			json.Unmarshal(objs[2], &third)
			if string(third["input:Website"]) != "null" {
				t.Errorf("a saved-query row has input:Website %s, want null", third["input:Website"])
			}
		})
	}
}

// objectKeys lists a JSON object's keys in document order.
func objectKeys(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.Token()
	var keys []string
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	return keys
}

// jsonAsCell is the documented CSV form of a JSON value: strings bare, null empty,
// anything else its compact JSON text.
func jsonAsCell(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("cell %s: %v", raw, err)
	}
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	}
	var b bytes.Buffer
	json.Compact(&b, raw)
	return b.String()
}

func TestParseNames(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want []dataset.Name
		err  bool
	}{
		{in: []string{"vendors"}, want: []dataset.Name{dataset.Vendors}},
		{in: []string{"subdomains", "bizdata", "subdomains"}, want: []dataset.Name{dataset.Bizdata, dataset.Subdomains}},
		{in: []string{"growth,redirects"}, want: []dataset.Name{dataset.Redirects, dataset.Growth}},
		{in: nil, err: true},
		{in: []string{""}, err: true},
		{in: []string{"vendors", "techstack"}, err: true},
	} {
		got, err := dataset.ParseNames(tc.in)
		if tc.err {
			var ae *apperr.Error
			if !errors.As(err, &ae) || ae.Field != "dataset" {
				t.Errorf("ParseNames(%q) error = %v, want one naming dataset", tc.in, err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("ParseNames(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestQuarters(t *testing.T) {
	qs := dataset.LastQuarters(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), 8)
	var got []string
	for _, q := range qs {
		got = append(got, q.Label())
	}
	want := []string{"2024q1", "2024q2", "2024q3", "2024q4", "2025q1", "2025q2", "2025q3", "2025q4"}
	if !slices.Equal(got, want) {
		t.Errorf("quarters = %v, want %v", got, want)
	}
	if e := qs[7].End(); !e.Equal(time.Date(2025, 12, 31, 23, 59, 59, 0, time.UTC)) {
		t.Errorf("2025q4 ends %v", e)
	}
}

// TestCapsKeepTrueTotals fills one company past every cap.
func TestCapsKeepTrueTotals(t *testing.T) {
	m := newMemStore()
	d := "big.com"
	m.recs[d] = company.Record{Domain: d, Profile: company.Profile{Domain: d}}
	// 1,200 sources: 700 direct, 500 behind them in chains.
	for i := range 700 {
		m.redirects[d] = append(m.redirects[d], fmt.Sprintf("old%04d.com", i))
	}
	for i := range 500 {
		via := fmt.Sprintf("old%04d.com", i)
		m.redirects[via] = append(m.redirects[via], fmt.Sprintf("older%04d.com", i))
	}
	m.redirects["old0000.com"] = append(m.redirects["old0000.com"], d) // a loop back: not counted
	var site company.Site
	for i := range 150 {
		site.CNAME = append(site.CNAME, company.CNAME{Host: fmt.Sprintf("h%d.big.com", i), Target: fmt.Sprintf("x.vendor%03d.net", i)})
	}
	site.CNAME = append(site.CNAME, company.CNAME{Host: "self.big.com", Target: "cdn.big.com"})
	m.sites[d] = site
	var certs []company.Certificate
	for i := range 350 {
		names := []string{"big.com", "www.big.com", "*.big.com", "admin@big.com", fmt.Sprintf("s%03d.big.com", i)}
		for range 1 + i%3 { // s002 is on three certificates, s000 on one
			certs = append(certs, company.Certificate{FQDN: "big.com", AlternativeFQDN: names, DateFrom: now.AddDate(0, -1, 0), DateTo: now.AddDate(0, 2, 0)})
		}
	}
	m.certs[d] = certs
	rec := m.recs[d]
	rec.Derived.Subdomains = subdomainsOfCerts(d, certs)
	m.recs[d] = rec

	srcs, total, err := dataset.RedirectSources(context.Background(), m, d, dataset.MaxRedirectSources)
	if err != nil {
		t.Fatal(err)
	}
	if len(srcs) != 1000 || total != 1200 {
		t.Errorf("redirect sources: %d listed, total %d; want 1000 and 1200", len(srcs), total)
	}
	if srcs[0] != "old0000.com" || srcs[699] != "old0699.com" || srcs[700] != "older0000.com" {
		t.Errorf("sources not nearest first: %s %s %s", srcs[0], srcs[699], srcs[700])
	}
	vs, vtotal := company.Vendors(d, nil, site, nil)
	if len(vs) != 100 || vtotal != 150 || slices.Contains(vs, "big.com") {
		t.Errorf("vendors: %d listed of %d (own domain listed: %v); want 100 of 150", len(vs), vtotal, slices.Contains(vs, "big.com"))
	}
	res, err := newService(m).Append(context.Background(), dataset.Request{Sets: []dataset.Name{dataset.Redirects, dataset.Vendors, dataset.Subdomains}, Rows: []dataset.Input{{Domain: d}}})
	if err != nil {
		t.Fatal(err)
	}
	row := map[string]json.RawMessage{}
	for j, c := range res.Columns {
		row[c] = res.Rows[0][j]
	}
	var list []string
	json.Unmarshal(row["redirects:redirect_sources"], &list)
	if len(list) != 1000 || string(row["redirects:redirect_count"]) != "1200" {
		t.Errorf("redirects: %d sources, count %s", len(list), row["redirects:redirect_count"])
	}
	json.Unmarshal(row["vendors:vendors"], &list)
	if len(list) != 100 {
		t.Errorf("vendors: %d listed, want the cap of 100", len(list))
	}
	json.Unmarshal(row["subdomains:subdomains"], &list)
	if len(list) != 300 {
		t.Errorf("subdomains: %d listed, want the cap of 300", len(list))
	}
	for _, s := range list {
		if strings.ContainsAny(s, "*@") || s == "www.big.com" || s == "big.com" {
			t.Errorf("subdomain %q should have been removed", s)
		}
	}
	if list[0] != "s002.big.com" {
		t.Errorf("first subdomain %q, want the one on most certificates (s002.big.com)", list[0])
	}
}

// subdomainsOfCerts runs the pipeline's derivation on certificates alone.
func subdomainsOfCerts(d string, certs []company.Certificate) []string {
	p, _, der, _ := company.NewDeriver(company.DeriverDeps{Now: func() time.Time { return now }}).Derive(context.Background(), company.Inputs{Domain: d, Certs: certs})
	_ = p
	return der.Subdomains
}

// TestBillingOnTheLedger charges two appends: bizdata bills net-new domains only,
// the other datasets every row with data, each request as one charge.
func TestBillingOnTheLedger(t *testing.T) {
	kv, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer kv.Close()
	bill := billing.New(kv, billing.WithClock(func() time.Time { return now }))
	org := account.Org{ID: "org1", Plan: account.PlanEnterprise}
	ctx := billing.WithRoute(context.Background(), "POST /v1/append")
	if _, err := bill.Grant(ctx, org.ID, 1_000_000); err != nil {
		t.Fatal(err)
	}
	m := fixture()
	svc := newService(m)
	rows := []dataset.Input{{Domain: "acme.com"}, {Domain: "quiet.com"}, {Domain: "nobody.net"}, {Domain: "www.acme.com"}}
	sets := []dataset.Name{dataset.Bizdata, dataset.Vendors, dataset.Redirects}

	res, err := svc.Append(ctx, dataset.Request{Sets: sets, Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	c1, err := bill.ChargeAll(ctx, org, res.Billing.Items(), "req-1")
	if err != nil {
		t.Fatal(err)
	}
	// bizdata: acme.com and quiet.com are known (acme.com on two rows, one record);
	// vendors and redirects: acme.com's two rows have data, quiet.com has none.
	// One request rounds once: 2 x 200 + 4 x 100 millicredits on ENTERPRISE is 1 credit
	// (each kind rounded up on its own would be 2).
	milli := 2*billing.Rate(org.Plan, billing.KindCompany) + 4*billing.Rate(org.Plan, billing.KindAppendRow)
	wantFirst := (milli + 999) / 1000
	if c1.Credits != wantFirst || c1.NetNew != 2+4 {
		t.Errorf("first charge = %+v; want %d credits for 2 companies and 4 rows", c1, wantFirst)
	}
	res2, _ := svc.Append(ctx, dataset.Request{Sets: sets, Rows: rows[:1]})
	c2, err := bill.ChargeAll(ctx, org, res2.Billing.Items(), "req-2")
	if err != nil {
		t.Fatal(err)
	}
	if want := billing.Price(org.Plan, billing.KindAppendRow, 2); c2.Credits != want || c2.NetNew != 2 {
		t.Errorf("second charge = %+v; want %d credits: bizdata within its cache, 2 rows", c2, want)
	}
	entries, err := bill.Entries(ctx, org.ID, now.AddDate(0, 0, -1), now.AddDate(0, 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	var credits int64
	for _, e := range entries {
		credits += e.Credits
	}
	if credits != c1.Credits+c2.Credits {
		t.Errorf("ledger holds %d credits, charges were %d and %d (entries %+v)", credits, c1.Credits, c2.Credits, entries)
	}
	// A short balance refuses the whole charge.
	poor := account.Org{ID: "org2", Plan: account.PlanFree}
	if _, err := bill.ChargeAll(ctx, poor, res.Billing.Items(), "req-3"); !errors.Is(err, apperr.ErrPaymentRequired) {
		t.Errorf("charge without credits: %v, want payment required", err)
	}
	if e, _ := bill.Entries(ctx, poor.ID, now.AddDate(0, 0, -1), now.AddDate(0, 0, 1)); len(e) != 0 {
		t.Errorf("a refused charge left ledger entries %+v", e)
	}
}
