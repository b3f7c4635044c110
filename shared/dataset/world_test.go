package dataset_test

import (
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/dataset"
	"github.com/firmoapi/firmo/shared/dnsmx"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/score"
	"github.com/firmoapi/firmo/shared/world"
)

// worldOpts is the demo world the datasets are graded on.
var worldOpts = world.Options{Seed: 7, Companies: 1000, AsOf: time.Date(2026, 5, 14, 0, 0, 0, 0, time.UTC)}

// seededWorld seeds a world into a fresh embedded store (the text-derived fields are
// not needed here, so pages are not extracted), with MX records asked of the world's
// DNS zone, and returns a dataset service on the store dated the world's day.
func seededWorld(t testing.TB, opts world.Options) (*world.World, *company.Service, *dataset.Service) {
	t.Helper()
	kv, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { kv.Close() })
	kv.DB().NoSync = true
	return seededWorldOn(t, opts, kv)
}

// seededWorldOn is seededWorld on a given kv store.
func seededWorldOn(t testing.TB, opts world.Options, kv kv.Store) (*world.World, *company.Service, *dataset.Service) {
	t.Helper()
	w := world.New(opts)
	zone := &dnsmx.MapZone{}
	zone.Set(w.Zone())
	dns, err := dnsmx.Serve("127.0.0.1:0", zone)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dns.Close() })
	now := func() time.Time { return opts.AsOf.Add(10 * time.Hour) }
	d := company.NewDeriver(company.DeriverDeps{MX: dnsmx.New([]string{dns.Addr()}, time.Second), Now: now})
	svc := company.NewService(company.NewKVStore(kv), d)
	if _, err := world.Seed(context.Background(), svc, w, company.LoadOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	return w, svc, dataset.New(dataset.Deps{Store: svc.Store(), Scorer: d, Now: now})
}

// cells indexes a result's rows by column name.
func cells(t *testing.T, res dataset.Result, row int) map[string]json.RawMessage {
	t.Helper()
	m := map[string]json.RawMessage{}
	for j, c := range res.Columns {
		m[c] = res.Rows[row][j]
	}
	return m
}

func decode[T any](t *testing.T, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return v
}

// TestDatasetsMatchTheWorld appends every dataset to every domain of a demo world and
// grades each against what the generator put there.
func TestDatasetsMatchTheWorld(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds a 1,000-company world: 20 to 90 s on the shared 2-core build machine")
	}
	w, _, ds := seededWorld(t, worldOpts)
	ctx := context.Background()
	req := dataset.Request{Sets: dataset.All}
	companies := make([]world.Company, w.Len())
	for i := range w.Len() {
		companies[i] = w.Company(i)
		req.Rows = append(req.Rows, dataset.Input{Domain: "https://www." + w.Domain(i) + "/"})
	}
	unknown := []string{"no-such-company-anywhere.example", "not a domain"}
	for _, u := range unknown {
		req.Rows = append(req.Rows, dataset.Input{Domain: u})
	}
	res, err := ds.Append(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != len(req.Rows) {
		t.Fatalf("%d rows for %d inputs", len(res.Rows), len(req.Rows))
	}
	qs := dataset.LastQuarters(worldOpts.AsOf, dataset.Quarters)

	// Redirects: each domain's final destination, by following the generator's
	// redirects (a chain ends at a domain that redirects nowhere).
	next := map[string]string{}
	for _, c := range companies {
		if c.Truth.RedirectTo != "" {
			next[c.Domain] = c.Truth.RedirectTo
		}
	}
	finalOf := func(d string) string {
		seen := map[string]bool{}
		for next[d] != "" && !seen[d] {
			seen[d] = true
			d = next[d]
		}
		return d
	}
	sourcesOf := map[string][]string{}
	chains := 0
	for src := range next {
		sourcesOf[finalOf(src)] = append(sourcesOf[finalOf(src)], src)
		if next[next[src]] != "" {
			chains++
		}
	}
	if len(next) == 0 || chains == 0 {
		t.Fatalf("the world has %d redirects and %d chains; the test needs both", len(next), chains)
	}

	var vendorsSeen, subsSeen, redirectsSeen, statusSeen int
	for i, c := range companies {
		row := cells(t, res, i)
		if got := decode[string](t, row["domain"]); got != c.Domain {
			t.Fatalf("row %d domain = %q, want %q (input order)", i, got, c.Domain)
		}
		if got := decode[string](t, row["name"]); got != c.Row.Name {
			t.Errorf("%s: bizdata name = %q, want %q", c.Domain, got, c.Row.Name)
		}

		// vendors: the homepage's scripts, the injected resources, the DNS records
		// and the mail provider the world put there.
		want := map[string]bool{}
		for _, v := range c.Truth.Vendors {
			want[v] = true
		}
		for _, v := range w.Site(i, c).Vendors {
			want[v] = true
		}
		if p := c.Truth.MXProvider; p != "" && p != company.NoMX {
			want[p] = true
		}
		delete(want, c.Domain)
		wantV := slices.Sorted(mapsKeys(want))
		gotV := decode[[]string](t, row["vendors:vendors"])
		if !slices.Equal(gotV, wantV) && !(len(gotV) == 0 && len(wantV) == 0) {
			t.Errorf("%s: vendors = %v, want %v", c.Domain, gotV, wantV)
		}
		if len(gotV) > 0 {
			vendorsSeen++
		}

		// subdomains: from the certificates, most certificates first.
		gotS := decode[[]string](t, row["subdomains:subdomains"])
		if wantS := subdomainsByCount(c.Domain, c.Certs); !slices.Equal(gotS, wantS) && !(len(gotS) == 0 && len(wantS) == 0) {
			t.Errorf("%s: subdomains = %v, want %v", c.Domain, gotS, wantS)
		}
		sortedS := slices.Sorted(slices.Values(gotS))
		if !slices.Equal(sortedS, c.Truth.Subdomains) && !(len(sortedS) == 0 && len(c.Truth.Subdomains) == 0) {
			t.Errorf("%s: subdomains %v are not the world's %v", c.Domain, sortedS, c.Truth.Subdomains)
		}
		if len(gotS) > 0 {
			subsSeen++
		}

		// redirects: totals against the redirect graph.
		wantR := sourcesOf[c.Domain]
		if next[c.Domain] != "" {
			wantR = nil // a domain that redirects on is nobody's final destination
		}
		sort.Strings(wantR)
		gotR := slices.Sorted(slices.Values(decode[[]string](t, row["redirects:redirect_sources"])))
		count := decode[int](t, row["redirects:redirect_count"])
		if count != len(wantR) || !slices.Equal(gotR, wantR) && len(wantR) > 0 {
			t.Errorf("%s: redirect_sources = %v (count %d), want %v", c.Domain, gotR, count, wantR)
		}
		redirectsSeen += count

		// domain_status: the latest homepage fetch of the world's pages.
		home, ok := latestHomepage(c)
		code := row["domain_status:status_code"]
		switch {
		case !ok && string(code) != "null":
			t.Errorf("%s: status_code %s without a homepage", c.Domain, code)
		case ok:
			if decode[int](t, code) != home.StatusCode || decode[string](t, row["domain_status:record_date"]) != company.Date(home.FetchedAt) {
				t.Errorf("%s: domain_status %s %s, want %d on %s", c.Domain, code, row["domain_status:record_date"], home.StatusCode, company.Date(home.FetchedAt))
			}
			statusSeen++
		}

		// growth: recomputed from the certificates by the formula itself.
		var scores, subs []float64
		for _, q := range qs {
			s, n := independentGrowth(c.Domain, c.Certs, q.End())
			scores, subs = append(scores, s), append(subs, float64(n))
			if got := decode[float64](t, row["growth:score_"+q.Label()]); got != s {
				t.Errorf("%s: score_%s = %v, want %v", c.Domain, q.Label(), got, s)
			}
			if got := decode[int](t, row["growth:subdomains_"+q.Label()]); got != n {
				t.Errorf("%s: subdomains_%s = %v, want %v", c.Domain, q.Label(), got, n)
			}
		}
		checkRate(t, c.Domain+" score_growth_3m", row["growth:score_growth_3m"], scores[len(scores)-2], scores[len(scores)-1])
		checkRate(t, c.Domain+" subdomain_growth_3m", row["growth:subdomain_growth_3m"], subs[len(subs)-2], subs[len(subs)-1])
		if t.Failed() {
			t.FailNow() // one company's diff is enough to read
		}
	}
	for k := range unknown {
		row := res.Rows[len(companies)+k]
		for j, v := range row[1:] {
			if string(v) != "null" {
				t.Errorf("unknown %q: %s = %s, want null", unknown[k], res.Columns[j+1], v)
			}
		}
	}
	t.Logf("%d companies: %d with vendors, %d with subdomains, %d redirect sources (%d chained), %d homepage fetches",
		len(companies), vendorsSeen, subsSeen, redirectsSeen, chains, statusSeen)
	if vendorsSeen < len(companies)/2 || subsSeen == 0 || statusSeen < len(companies)/2 {
		t.Errorf("too little data to grade: %d vendors, %d subdomains, %d statuses", vendorsSeen, subsSeen, statusSeen)
	}
}

func mapsKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func latestHomepage(c world.Company) (company.Page, bool) {
	var best company.Page
	ok := false
	for _, p := range c.Pages {
		if p.URL != "https://"+c.Domain+"/" && p.URL != "https://www."+c.Domain+"/" {
			continue
		}
		if !ok || p.FetchedAt.After(best.FetchedAt) {
			best, ok = p, true
		}
	}
	return best, ok
}

// subdomainsByCount lists the certificate names under dom (not the apex, www or
// wildcards) by the number of certificates naming them, then alphabetically.
func subdomainsByCount(dom string, certs []company.Certificate) []string {
	count := map[string]int{}
	for _, c := range certs {
		seen := map[string]bool{}
		for _, n := range c.AlternativeFQDN {
			if n == dom || n == "www."+dom || n[0] == '*' || len(n) <= len(dom) || n[len(n)-len(dom)-1:] != "."+dom || seen[n] {
				continue
			}
			seen[n] = true
			count[n]++
		}
	}
	var out []string
	for n := range count {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool {
		if count[out[i]] != count[out[j]] {
			return count[out[i]] > count[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}

// independentGrowth scores certificates on a date by the formula of the score's
// documentation, written out again here (sharing only the three constants), and counts
// the subdomains named by certificates valid then.
func independentGrowth(dom string, certs []company.Certificate, at time.Time) (float64, int) {
	k := score.DefaultConstants()
	const dayH = 24.0
	var years [10]int
	l360, l720 := 0, 0
	oldestRecent := -1.0
	var latest time.Time
	names := map[string]bool{}
	for _, c := range certs {
		ageDays := at.Sub(c.DateFrom).Hours() / dayH
		if ageDays < 0 {
			continue
		}
		if x := int(math.Floor(ageDays / 365)); x < 10 {
			years[x]++
		}
		if ageDays < 360 {
			l360++
		} else if ageDays < 720 {
			l720++
		}
		if ageDays < 3*365 && c.DateTo.Sub(c.DateFrom).Hours()/dayH <= 3*365 && ageDays > oldestRecent {
			oldestRecent = ageDays
		}
		if c.DateTo.After(at) {
			if c.DateTo.After(latest) {
				latest = c.DateTo
			}
			for _, n := range c.AlternativeFQDN {
				if n != dom && n != "www."+dom && n[0] != '*' && len(n) > len(dom) && n[len(n)-len(dom)-1:] == "."+dom {
					names[n] = true
				}
			}
		}
	}
	base := 0.0
	for i, n := range years {
		x := float64(i + 1)
		w := 0.4 + 0.5*math.Exp(-(x-6)*(x-6)/8) + 0.05*(x-1)
		base += math.Min(float64(n)/k.BaselineCertificates, 1) * k.BaselinePoints * k.MarketCoefficient * w
	}
	recency := 0.0
	if oldestRecent >= 0 {
		recency = math.Min(oldestRecent/365, 1)
	}
	growth := 0.0
	if l720 > 0 {
		growth = math.Max(float64(l360-l720)/float64(l360+l720)*50, -base/2)
	}
	exp := 0.0
	if !latest.IsZero() {
		exp = math.Min(latest.Sub(at).Hours()/dayH/14, 1)
	}
	return math.Ceil(math.Min(math.Max((base*recency+growth)*exp, 0), 800)), len(names)
}

func checkRate(t *testing.T, what string, got json.RawMessage, prev, last float64) {
	t.Helper()
	if prev == 0 {
		if string(got) != "null" {
			t.Errorf("%s = %s, want null (nothing to grow from)", what, got)
		}
		return
	}
	want := math.Round((last-prev)/prev*1e4) / 1e4
	if g := decode[float64](t, got); math.Abs(g-want) > 1e-9 {
		t.Errorf("%s = %v, want %v", what, g, want)
	}
}
