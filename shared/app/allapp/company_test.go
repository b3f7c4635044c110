package allapp_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/score"
	"github.com/firmoapi/firmo/shared/world"
)

// TestCompanyEndpointsAnswerForEverySeededDomain is the acceptance check of the company
// family: after seeding, bizdata, history and score answer for every seeded domain, in
// its www., subdomain and URL forms too, and every score recomputes from its parameters.
func TestCompanyEndpointsAnswerForEverySeededDomain(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	opts := world.Options{Seed: 5, Companies: 300, AsOf: time.Now()}.Normalized()
	if _, err := e.app.SeedWorld(ctx, opts, company.LoadOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	w := world.New(opts)
	k := key(e.demoKey)
	forms := []func(string) string{
		func(d string) string { return d },
		func(d string) string { return "www." + d },
		func(d string) string { return "https://www." + d + "/about?x=1" },
		func(d string) string { return "shop." + d },
		func(d string) string { return strings.ToUpper(d) },
	}
	for i := 0; i < w.Len(); i++ {
		c := w.Company(i)
		form := forms[i%len(forms)](c.Domain)

		p := e.do(t, "GET", "/v1/bizdata?domain="+form, k, "")
		if p.status != 200 || p.body["domain"] != c.Domain {
			t.Fatalf("bizdata %q = %d %s", form, p.status, p.raw)
		}
		if i == 0 {
			checkFieldOrder(t, p.raw)
		}

		h := e.do(t, "GET", "/v1/history?domain="+form, k, "")
		certs, _ := h.body["certificates"].([]any)
		if h.status != 200 || h.body["domain"] != c.Domain || len(certs) != min(len(c.Certs), 1000) {
			t.Fatalf("history %q = %d, %d certificates (world has %d)", form, h.status, len(certs), len(c.Certs))
		}
		var prev string
		for _, ct := range certs {
			from := ct.(map[string]any)["date_from"].(string)
			if prev != "" && from > prev {
				t.Fatalf("history of %s is not newest first: %s after %s", c.Domain, from, prev)
			}
			prev = from
		}

		s := e.do(t, "GET", "/v1/score?domain="+form, k, "")
		if s.status != 200 || s.body["domain"] != c.Domain {
			t.Fatalf("score %q = %d %s", form, s.status, s.raw)
		}
		checkScoreRecomputes(t, c.Domain, s.body)
		// The profile shows the same score, except that its range is 1-800 (spec):
		// a computed 0 shows as 1 there.
		if got := s.body["score"].(float64); max(got, 1) != p.body["score"].(float64) {
			t.Fatalf("%s: score %v, profile score %v", c.Domain, got, p.body["score"])
		}
	}
}

// checkFieldOrder checks that the profile's fields come in the API reference's order, with
// latitude and longitude right after address.
func checkFieldOrder(t *testing.T, raw string) {
	t.Helper()
	order := []string{"domain", "name", "status", "score", "start_date", "end_date", "address", "latitude", "longitude",
		"geo_precision", "phones", "public_emails", "social_urls", "description", "keywords", "industry_groups",
		"sub_industry", "employees", "revenue_range", "business_model", "mx_provider", "redirect_domain", "update_date"}
	last := -1
	for _, f := range order {
		i := strings.Index(raw, `"`+f+`":`)
		if i < 0 || i < last {
			t.Fatalf("field %s missing or out of order in %s", f, raw)
		}
		last = i
	}
	// The address object closes right before latitude.
	if !strings.Contains(raw, `},"latitude":`) {
		t.Fatalf("latitude does not follow address: %s", raw)
	}
}

// checkScoreRecomputes recomputes a score from its parameters and the documented
// constants: the base from the year counts, then the API reference's formula.
func checkScoreRecomputes(t *testing.T, dom string, body map[string]any) {
	t.Helper()
	p := body["parameters"].(map[string]any)
	num := func(k string) float64 { return p[k].(float64) }
	consts := p["constants"].(map[string]any)
	c, pts, m := consts["baseline_certificates"].(float64), consts["baseline_points"].(float64), consts["market_coefficient"].(float64)
	if c != 4 || pts != 100 || m != 0.85 {
		t.Fatalf("%s: constants %v differ from the documented 4, 100, 0.85", dom, consts)
	}
	var base float64
	for x, n := range p["year_counts"].([]any) {
		base += math.Min(n.(float64)/c, 1) * pts * m * score.YearWeight(x+1)
	}
	if math.Abs(base-num("base_score")) > 1e-9 {
		t.Fatalf("%s: base_score %v, recomputed %v", dom, num("base_score"), base)
	}
	growth := 0.0
	if l360, l720 := num("lookback_360"), num("lookback_720"); l720 > 0 {
		growth = math.Max((l360-l720)/(l360+l720)*50, -base/2)
	}
	if math.Abs(growth-num("growth_boost")) > 1e-9 {
		t.Fatalf("%s: growth_boost %v, recomputed %v", dom, num("growth_boost"), growth)
	}
	want := math.Ceil(math.Min(math.Max((base*num("recency_multiplier")+growth)*num("expiration_penalty"), 0), 800))
	if got := body["score"].(float64); got != want {
		t.Fatalf("%s: score %v, recomputed from parameters %v", dom, got, want)
	}
}

func TestCompanyEndpointErrors(t *testing.T) {
	e := newEnv(t, nil)
	if _, err := e.app.SeedWorld(context.Background(), world.Options{Seed: 9, Companies: 3, AsOf: time.Now()}, company.LoadOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	k := key(e.demoKey)
	tests := []struct {
		path   string
		status int
		code   string
		field  string
	}{
		{"/v1/bizdata?domain=not%20a%20domain", 422, "validation_error", "domain"},
		{"/v1/bizdata?domain=127.0.0.1", 422, "validation_error", "domain"},
		{"/v1/bizdata", 422, "validation_error", "domain"},
		{"/v1/bizdata?domain=example.com&foo=1", 422, "validation_error", "foo"},
		{"/v1/bizdata?domain=no-such-company.example.com", 404, "not_found", ""},
		{"/v1/history?domain=no-such-company.de", 404, "not_found", ""},
		{"/v1/score?domain=no-such-company.fr", 404, "not_found", ""},
		{"/v1/history?domain=example.com&max_records=99", 422, "validation_error", "max_records"},
		{"/v1/history?domain=example.com&max_records=10001", 422, "validation_error", "max_records"},
		{"/v1/history?domain=example.com&max_records=many", 422, "validation_error", "max_records"},
		{"/v1/score?domain=", 422, "validation_error", "domain"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			got := e.do(t, "GET", tt.path, k, "")
			checkError(t, got, tt.status, tt.code)
			if f, _ := got.body["error"].(map[string]any)["field"].(string); f != tt.field {
				t.Fatalf("field = %q, want %q (%s)", f, tt.field, got.raw)
			}
		})
	}
	for _, p := range []string{"/v1/bizdata?domain=a.com", "/v1/history?domain=a.com", "/v1/score?domain=a.com"} {
		checkError(t, e.do(t, "GET", p, nil, ""), 401, "unauthorized")
	}
	// max_records bounds the answer.
	w := world.New(world.Options{Seed: 9, Companies: 3, AsOf: time.Now()})
	for i := 0; i < w.Len(); i++ {
		c := w.Company(i)
		got := e.do(t, "GET", fmt.Sprintf("/v1/history?domain=%s&max_records=100", c.Domain), k, "")
		certs, _ := got.body["certificates"].([]any)
		if got.status != 200 || len(certs) != min(100, len(c.Certs)) {
			t.Fatalf("%s max_records=100: %d, %d certificates", c.Domain, got.status, len(certs))
		}
	}
}

// TestReprocessOnceKeepsAMarginBeforeTheDeadline runs the scheduler Lambda's job: with
// less time left than the margin it stops at once (saving nothing half-done), with
// enough it completes the day's pass, and a second call the same day is idle.
func TestReprocessOnceKeepsAMarginBeforeTheDeadline(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	opts := world.Options{Seed: 2, Companies: 30, AsOf: time.Now()}.Normalized()
	if _, err := e.app.SeedWorld(ctx, opts, company.LoadOptions{DeferText: true}, nil); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 5*time.Second) // under the 20 s margin
	defer cancel()
	rep, err := e.app.ReprocessOnce(short)
	if err != nil || rep.Complete || rep.Visited != 0 {
		t.Fatalf("with 5 s left: %+v, %v", rep, err)
	}
	long, cancel2 := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel2()
	rep, err = e.app.ReprocessOnce(long)
	if err != nil || !rep.Complete || rep.Refreshed != 30 {
		t.Fatalf("with 5 min left: %+v, %v; want the 30 deferred companies refreshed", rep, err)
	}
	if rep, _ := e.app.ReprocessOnce(long); !rep.Idle {
		t.Fatalf("second run the same day: %+v, want idle", rep)
	}
	p, err := e.app.Companies.Profile(ctx, w0(opts))
	if err != nil || p.Language == nil {
		t.Fatalf("after the pass the text-derived fields are filled: %+v, %v", p, err)
	}
}

// w0 is the first company of a world that has a readable homepage.
func w0(opts world.Options) string {
	w := world.New(opts)
	for i := 0; i < w.Len(); i++ {
		if c := w.Company(i); c.Truth.Language != "" {
			return c.Domain
		}
	}
	return w.Domain(0)
}
