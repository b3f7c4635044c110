package namematch_test

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/namematch"
)

// recorder wraps an index and records the filters of every search.
type recorder struct {
	namematch.Index
	mu       sync.Mutex
	requests []namematch.Request
}

func (r *recorder) Search(ctx context.Context, req namematch.Request) ([]namematch.Entry, error) {
	r.mu.Lock()
	r.requests = append(r.requests, req)
	r.mu.Unlock()
	return r.Index.Search(ctx, req)
}

// filters are the filters of each pass (a pass may search twice, exact words first).
func (r *recorder) filters() []namematch.Filters {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []namematch.Filters
	for _, q := range r.requests {
		if len(out) == 0 || out[len(out)-1] != q.Filters {
			out = append(out, q.Filters)
		}
	}
	return out
}

// matcherOver builds a matcher over companies with a recording index.
func matcherOver(t *testing.T, cs ...co) (*namematch.Matcher, *recorder) {
	t.Helper()
	f := newFixture(t, records(cs...), namematch.Options{})
	rec := &recorder{Index: f.index}
	return namematch.New(rec, f.recs, namematch.Options{}), rec
}

func domains(a namematch.Answer) []string {
	var out []string
	for _, m := range a.Matches {
		out = append(out, m.Profile.Domain)
	}
	return out
}

func match(t *testing.T, m *namematch.Matcher, q namematch.Query) namematch.Answer {
	t.Helper()
	a, err := m.Match(context.Background(), q)
	if err != nil {
		t.Fatalf("Match(%+v): %v", q, err)
	}
	return a
}

// Filters for the relaxation tests, in comparison form.
var (
	us   = namematch.Filters{Country: "US"}
	full = namematch.Filters{Country: "US", State: "US-CA", City: namematch.CityKey("US", "San Francisco"), Zip: "94105", Phone: "+14155550100"}
)

func without(f namematch.Filters, fields ...string) namematch.Filters {
	for _, name := range fields {
		switch name {
		case "country":
			f.Country = ""
		case "state":
			f.State = ""
		case "city":
			f.City = ""
		case "zip":
			f.Zip = ""
		case "phone":
			f.Phone = ""
		}
	}
	return f
}

// A query with every location filter, against an index with no company of that name:
// every pass runs, each clearing one more filter in the documented order.
func TestRelaxationOrder(t *testing.T) {
	full := namematch.Query{Name: "Nonexistent Widgets", Country: "US", State: "California", City: "San Francisco", ZipCode: "94105", Phone: "+1 415 555 0100"}
	cases := []struct {
		name   string
		strict bool
		local  bool
		want   []namematch.Filters
	}{
		{"normal: zip, city, phone, state, country", false, false, []namematch.Filters{
			fullF(), without(fullF(), "zip"), without(fullF(), "zip", "city"), without(fullF(), "zip", "city", "phone"),
			without(fullF(), "zip", "city", "phone", "state"), {},
		}},
		{"strict: only state and country filter, cleared state then country", true, false, []namematch.Filters{
			{Country: "US", State: "US-CA"}, {Country: "US"}, {},
		}},
		{"local_mode: state and country kept", false, true, []namematch.Filters{
			fullF(), without(fullF(), "zip"), without(fullF(), "zip", "city"), without(fullF(), "zip", "city", "phone"),
		}},
		{"strict and local_mode: one pass", true, true, []namematch.Filters{{Country: "US", State: "US-CA"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, rec := matcherOver(t, co{domain: "acme.com", name: "Acme Inc", country: "US"})
			q := full
			q.Strict, q.LocalMode = c.strict, c.local
			a := match(t, m, q)
			if len(a.Matches) != 0 {
				t.Fatalf("unexpected matches %v", domains(a))
			}
			if got := rec.filters(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("passes:\n got %+v\nwant %+v", got, c.want)
			}
		})
	}
	t.Run("absent filters are skipped, not repeated", func(t *testing.T) {
		m, rec := matcherOver(t, co{domain: "acme.com", name: "Acme Inc", country: "US"})
		match(t, m, namematch.Query{Name: "Nonexistent Widgets", Country: "US", ZipCode: "94105"})
		want := []namematch.Filters{{Country: "US", Zip: "94105"}, us, {}}
		if got := rec.filters(); !reflect.DeepEqual(got, want) {
			t.Errorf("passes:\n got %+v\nwant %+v", got, want)
		}
	})
}

func fullF() namematch.Filters { return full }

// Relaxation stops at the first pass with a match: the company's zip differs, so the
// second pass (without zip) finds it, and the zip disagreement lowers its confidence.
func TestRelaxationStopsAtFirstMatch(t *testing.T) {
	m, rec := matcherOver(t,
		co{domain: "acme.com", name: "Acme Widgets Inc", country: "US", state: "CA", city: "San Francisco", zip: "94110"},
		co{domain: "other.com", name: "Acme Widgets Inc", country: "US", state: "NY", city: "New York", zip: "10001"})
	q := namematch.Query{Name: "Acme Widgets", Country: "US", State: "CA", City: "San Francisco", ZipCode: "94105"}
	a := match(t, m, q)
	if got := domains(a); !reflect.DeepEqual(got, []string{"acme.com"}) {
		t.Fatalf("matches = %v, want [acme.com] (other.com is outside the state filter of pass 2)", got)
	}
	if a.Passes != 2 || len(rec.filters()) != 2 {
		t.Errorf("passes = %d (filter sets searched %d), want 2", a.Passes, len(rec.filters()))
	}
	q.ZipCode = "94110"
	exact := match(t, m, q)
	if exact.Passes != 1 || exact.Matches[0].Confidence <= a.Matches[0].Confidence {
		t.Errorf("with the right zip: passes %d, confidence %d; want 1 pass and more than %d", exact.Passes, exact.Matches[0].Confidence, a.Matches[0].Confidence)
	}
}

func TestStrict(t *testing.T) {
	companies := []co{
		{domain: "acme-intl.com", name: "Acme Intl Inc."},
		{domain: "acme-international.com", name: "Acme International Ltd"},
		{domain: "acme-holdings.com", name: "Acme Intl Holdings"},
		{domain: "alias.com", name: "Zenith Corp", alt: []string{"ACME INTL"}},
		{domain: "typo.com", name: "Acme Intll"},
	}
	cases := []struct {
		name   string
		q      namematch.Query
		want   []string
		anyOrd bool
	}{
		{"strict: equal after normalization without expansion, name or alternate name",
			namematch.Query{Name: "Acme Intl Corp", Strict: true}, []string{"acme-intl.com", "alias.com"}, true},
		{"strict: expansion does not apply",
			namematch.Query{Name: "Acme International", Strict: true}, []string{"acme-international.com"}, false},
		{"normal: abbreviations expanded, a longer name with a generic word too",
			namematch.Query{Name: "Acme Intl Corp"}, []string{"acme-intl.com", "acme-international.com", "alias.com", "acme-holdings.com"}, true},
	}
	m, _ := matcherOver(t, companies...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := domains(match(t, m, c.q))
			if c.anyOrd {
				got, c.want = sortedCopy(got), sortedCopy(c.want)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("matches = %v, want %v", got, c.want)
			}
		})
	}
	t.Run("strict searches a quoted phrase", func(t *testing.T) {
		m, rec := matcherOver(t, companies...)
		match(t, m, namematch.Query{Name: "Acme Intl Corp", Strict: true})
		r := rec.requests[0]
		if r.Phrase != "acme intl" || len(r.Terms) != 0 || len(rec.requests) != 1 {
			t.Errorf("strict requests = %+v, want one, with phrase \"acme intl\" and no terms", rec.requests)
		}
	})
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func TestLocalMode(t *testing.T) {
	companies := []co{
		{domain: "acme-ca.com", name: "Acme Robotics Inc", country: "US", state: "California", city: "San Jose"},
		{domain: "acme-nowhere.com", name: "Acme Robotics Inc"},
		{domain: "acme-de.de", name: "Acme Robotics GmbH", country: "DE", state: "Bayern", city: "München"},
	}
	cases := []struct {
		name string
		q    namematch.Query
		want []string
	}{
		{"normal: relaxation clears the state and finds the company elsewhere in the country",
			namematch.Query{Name: "Acme Robotics", Country: "US", State: "NY"}, []string{"acme-ca.com"}},
		{"normal: relaxation reaches companies in other countries and without location",
			namematch.Query{Name: "Acme Robotics", Country: "FR"}, []string{"acme-nowhere.com", "acme-ca.com", "acme-de.de"}},
		{"local: another state and a missing location are excluded",
			namematch.Query{Name: "Acme Robotics", Country: "US", State: "NY", LocalMode: true}, nil},
		{"local: another country and a missing location are excluded",
			namematch.Query{Name: "Acme Robotics", Country: "FR", LocalMode: true}, nil},
		{"local: the right state, other filters still relaxed",
			namematch.Query{Name: "Acme Robotics", Country: "US", State: "CA", City: "Los Angeles", ZipCode: "90001", LocalMode: true}, []string{"acme-ca.com"}},
		{"local: country only",
			namematch.Query{Name: "Acme Robotics", Country: "DE", City: "Berlin", LocalMode: true}, []string{"acme-de.de"}},
		{"local: a state name without a country is resolved per candidate",
			namematch.Query{Name: "Acme Robotics", State: "Bavaria", LocalMode: true}, []string{"acme-de.de"}},
		{"local without a location: nothing to keep",
			namematch.Query{Name: "Acme Robotics", LocalMode: true}, []string{"acme-ca.com", "acme-de.de", "acme-nowhere.com"}},
	}
	m, _ := matcherOver(t, companies...)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := domains(match(t, m, c.q))
			if !reflect.DeepEqual(sortedCopy(got), sortedCopy(c.want)) {
				t.Errorf("matches = %v, want %v", got, c.want)
			}
		})
	}
}

// Names made of initials match the company of those initials, not every company whose
// words start with those letters.
func TestInitials(t *testing.T) {
	m, _ := matcherOver(t,
		co{domain: "abc.com", name: "A.B.C. Inc.", country: "US"},
		co{domain: "alpha.com", name: "Alpha Beta Corp", country: "US"},
		co{domain: "apex.com", name: "Apex Building Contractors", country: "US", city: "Denver"},
		co{domain: "acme-bakery.com", name: "Acme Bakery Company", country: "US"},
		co{domain: "abacus.com", name: "Abacus Ltd", country: "US"},
		co{domain: "abd.com", name: "ABD Ltd", country: "US"},
		co{domain: "ibm.com", name: "International Business Machines", alt: []string{"IBM"}, country: "US"})
	cases := []struct {
		q    namematch.Query
		want []string
	}{
		{namematch.Query{Name: "A B C"}, []string{"abc.com"}},
		{namematch.Query{Name: "ABC"}, []string{"abc.com"}},
		{namematch.Query{Name: "a.b.c."}, []string{"abc.com"}},
		{namematch.Query{Name: "A B C", Country: "US"}, []string{"abc.com"}},
		{namematch.Query{Name: "IBM"}, []string{"ibm.com"}},
		{namematch.Query{Name: "I B M Corp"}, []string{"ibm.com"}},
		// An acronym alone is weak evidence; with country and city it is enough, and
		// the first pass (with the city filter) finds it before A.B.C. (no city).
		{namematch.Query{Name: "ABC", Country: "US", City: "Denver"}, []string{"apex.com"}},
		{namematch.Query{Name: "ABC", Country: "US"}, []string{"abc.com"}},
		{namematch.Query{Name: "X Y Z"}, nil},
	}
	for _, c := range cases {
		t.Run(c.q.Name+"/"+c.q.City, func(t *testing.T) {
			if got := domains(match(t, m, c.q)); !reflect.DeepEqual(got, c.want) {
				t.Errorf("matches = %v, want %v", got, c.want)
			}
		})
	}
}

// Location evidence: state as ISO 3166-2 code or full name (unresolvable ignored),
// city aliases, zip, phone in E.164 or local form.
func TestLocationEvidence(t *testing.T) {
	companies := []co{
		{domain: "sf.com", name: "Harbor Freight Partners", country: "US", state: "California", city: "San Francisco", zip: "94105", phone: "+14155550100", score: 100},
		{domain: "ny.com", name: "Harbor Freight Partners", country: "US", state: "New York", city: "New York", zip: "10001", phone: "+12125550100", score: 700},
		{domain: "muc.de", name: "Harbor Freight Partners GmbH", country: "DE", state: "Bayern", city: "München", zip: "80331", score: 400},
	}
	m, _ := matcherOver(t, companies...)
	cases := []struct {
		name  string
		q     namematch.Query
		first string
	}{
		{"no location: the score prior breaks the tie", namematch.Query{Name: "Harbor Freight Partners"}, "ny.com"},
		{"state code", namematch.Query{Name: "Harbor Freight Partners", Country: "US", State: "CA"}, "sf.com"},
		{"state full code", namematch.Query{Name: "Harbor Freight Partners", State: "US-CA"}, "sf.com"},
		{"state name", namematch.Query{Name: "Harbor Freight Partners", Country: "US", State: "California"}, "sf.com"},
		{"unresolvable state is ignored", namematch.Query{Name: "Harbor Freight Partners", Country: "US", State: "Atlantis"}, "ny.com"},
		{"city alias", namematch.Query{Name: "Harbor Freight Partners", City: "Munich"}, "muc.de"},
		{"zip", namematch.Query{Name: "Harbor Freight Partners", ZipCode: "94105"}, "sf.com"},
		{"phone E.164", namematch.Query{Name: "Harbor Freight Partners", Phone: "+1 415-555-0100"}, "sf.com"},
		{"phone local with country", namematch.Query{Name: "Harbor Freight Partners", Country: "US", Phone: "(415) 555-0100"}, "sf.com"},
		{"phone local without country", namematch.Query{Name: "Harbor Freight Partners", Phone: "415 555 0100"}, "sf.com"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := match(t, m, c.q)
			if len(a.Matches) == 0 || a.Matches[0].Profile.Domain != c.first {
				t.Fatalf("first match = %v, want %s", domains(a), c.first)
			}
			for i := 1; i < len(a.Matches); i++ {
				if a.Matches[i].Confidence > a.Matches[i-1].Confidence {
					t.Errorf("matches not ranked: %d after %d", a.Matches[i].Confidence, a.Matches[i-1].Confidence)
				}
			}
		})
	}
	t.Run("a phone lifts a weak name over the threshold", func(t *testing.T) {
		weak := namematch.Query{Name: "Harbour Frt"}
		if a := match(t, m, weak); len(a.Matches) != 0 {
			t.Fatalf("weak name alone matched %v", domains(a))
		}
		weak.Phone = "+14155550100"
		if got := domains(match(t, m, weak)); len(got) == 0 || got[0] != "sf.com" {
			t.Errorf("weak name with the phone = %v, want sf.com first", got)
		}
	})
}

// min_match_confidence is inclusive; nothing below 50 is ever returned.
func TestMinConfidence(t *testing.T) {
	m, _ := matcherOver(t, co{domain: "keystone.com", name: "Keystone Laboratories LLC"})
	a := match(t, m, namematch.Query{Name: "Keystone"})
	if len(a.Matches) != 1 {
		t.Fatalf("matches = %v", domains(a))
	}
	c := a.Matches[0].Confidence
	if c < namematch.MinConfidence || c > 80 {
		t.Fatalf("a partial name should land between 50 and 80, got %d", c)
	}
	if got := match(t, m, namematch.Query{Name: "Keystone", MinMatchConfidence: c}); len(got.Matches) != 1 {
		t.Errorf("min_match_confidence = %d (its confidence) should keep it", c)
	}
	if got := match(t, m, namematch.Query{Name: "Keystone", MinMatchConfidence: c + 1}); len(got.Matches) != 0 {
		t.Errorf("min_match_confidence = %d should drop it", c+1)
	}
	if got := match(t, m, namematch.Query{Name: "Kestrel"}); len(got.Matches) != 0 {
		t.Errorf("an unrelated name matched %v", domains(got))
	}
}

func TestValidation(t *testing.T) {
	m, _ := matcherOver(t, co{domain: "acme.com", name: "Acme"})
	cases := []struct {
		q     namematch.Query
		field string
	}{
		{namematch.Query{Name: " .. - "}, "name"},
		{namematch.Query{Name: strings.Repeat("a", namematch.MaxNameRunes+1)}, "name"},
		{namematch.Query{Name: "Acme", Country: "USA"}, "country"},
		{namematch.Query{Name: "Acme", Country: "XX"}, "country"},
		{namematch.Query{Name: "Acme", MinMatchConfidence: 49}, "min_match_confidence"},
		{namematch.Query{Name: "Acme", MinMatchConfidence: 101}, "min_match_confidence"},
		{namematch.Query{Name: "Acme", Phone: "call us"}, "phone"},
		{namematch.Query{Name: "Acme", Phone: "123"}, "phone"},
		{namematch.Query{Name: "Acme", City: strings.Repeat("x", 101)}, "city"},
		{namematch.Query{Name: "Acme", ZipCode: strings.Repeat("9", 21)}, "zip_code"},
	}
	for _, c := range cases {
		t.Run(c.field, func(t *testing.T) {
			_, err := m.Match(context.Background(), c.q)
			var ae *apperr.Error
			if !errors.As(err, &ae) || apperr.Status(err) != http.StatusUnprocessableEntity || ae.Field != c.field {
				t.Fatalf("error = %v, want a 422 naming %s", err, c.field)
			}
		})
	}
}

// failing is an index whose searches fail the first n times.
type failing struct {
	namematch.Index
	n     int64
	calls atomic.Int64
}

func (f *failing) Search(ctx context.Context, r namematch.Request) ([]namematch.Entry, error) {
	if f.calls.Add(1) <= f.n {
		return nil, errors.New("connection refused")
	}
	return f.Index.Search(ctx, r)
}

func TestBackendUnreachable(t *testing.T) {
	fx := newFixture(t, records(co{domain: "acme.com", name: "Acme Inc"}), namematch.Options{})
	opts := namematch.Options{Attempts: 3, Backoff: time.Millisecond, RetryAfter: 7 * time.Second}
	t.Run("down after retries: 503 with Retry-After", func(t *testing.T) {
		down := &failing{Index: fx.index, n: 1 << 30}
		_, err := namematch.New(down, fx.recs, opts).Match(context.Background(), namematch.Query{Name: "Acme"})
		d := apperr.Describe(err)
		if d.Status != http.StatusServiceUnavailable || d.RetryAfter != 7*time.Second || d.Internal {
			t.Fatalf("error = %v (%+v), want 503 with Retry-After 7s", err, d)
		}
		if got := down.calls.Load(); got != 3 {
			t.Errorf("searches = %d, want 3 attempts", got)
		}
	})
	t.Run("recovers within the retries", func(t *testing.T) {
		flaky := &failing{Index: fx.index, n: 2}
		a, err := namematch.New(flaky, fx.recs, opts).Match(context.Background(), namematch.Query{Name: "Acme"})
		if err != nil || len(a.Matches) != 1 {
			t.Fatalf("after two failures: %v, %v; want the match", domains(a), err)
		}
	})
	t.Run("bulk rows report search failure", func(t *testing.T) {
		down := &failing{Index: fx.index, n: 1 << 30}
		_, err := namematch.New(down, fx.recs, opts).MatchRow(context.Background(), namematch.Query{Name: "Acme"})
		if !errors.Is(err, namematch.ErrSearchFailed) {
			t.Fatalf("error = %v, want ErrSearchFailed", err)
		}
	})
}

// The index may lag behind the store: a company deleted since it was indexed is not
// returned, and a renamed one is scored on its current name.
func TestIndexLagsStore(t *testing.T) {
	fx := newFixture(t, records(co{domain: "gone.com", name: "Acme Gone Inc"}, co{domain: "renamed.com", name: "Acme Old Name"}), namematch.Options{})
	fx.recs.remove("gone.com")
	fx.recs.put(co{domain: "renamed.com", name: "Zenith Partners"}.record())
	for _, name := range []string{"Acme Gone", "Acme Old Name"} {
		if a := match(t, fx.matcher, namematch.Query{Name: name}); len(a.Matches) != 0 {
			t.Errorf("%q matched %v from a stale index", name, domains(a))
		}
	}
	rep, err := fx.syncer.Sync(context.Background())
	if err != nil || rep.Deleted != 1 || rep.Indexed != 1 {
		t.Fatalf("sync = %+v, %v; want 1 deleted, 1 indexed", rep, err)
	}
	if got := domains(match(t, fx.matcher, namematch.Query{Name: "Zenith Partners"})); !reflect.DeepEqual(got, []string{"renamed.com"}) {
		t.Errorf("after sync: %v", got)
	}
	if rep, _ := fx.syncer.Sync(context.Background()); rep.Indexed != 0 || rep.Deleted != 0 {
		t.Errorf("a second sync wrote %+v, want nothing", rep)
	}
}

func TestMatchJSON(t *testing.T) {
	m, _ := matcherOver(t, co{domain: "acme.com", name: "Acme Inc", country: "US"})
	a := match(t, m, namematch.Query{Name: "Acme", Country: "US"})
	b, err := a.Matches[0].MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if !strings.HasPrefix(s, `{"domain":"acme.com","name":"Acme Inc",`) || !strings.HasSuffix(s, `,"match_confidence":`+itoa(a.Matches[0].Confidence)+`}`) {
		t.Errorf("match JSON = %s; want the profile's fields in order, then match_confidence", s)
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// The fuzzy search runs only when the exact words found nothing close to the name.
func TestFuzzySearchOnlyWhenNeeded(t *testing.T) {
	cases := []struct {
		name  string
		fuzzy bool
	}{
		{"Keystone Laboratories", false},
		{"Keystone Labs Inc", false},
		// The typo is found through the other, exact word.
		{"Keystome Laboratories", false},
		// No exact word: the fuzzy search finds it.
		{"Keystome", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, rec := matcherOver(t, co{domain: "keystone.com", name: "Keystone Laboratories LLC"})
			a := match(t, m, namematch.Query{Name: c.name})
			if len(a.Matches) != 1 {
				t.Fatalf("matches = %v", domains(a))
			}
			fuzzy := false
			for _, r := range rec.requests {
				for _, term := range r.Terms {
					fuzzy = fuzzy || term.Fuzziness > 0
				}
			}
			if fuzzy != c.fuzzy {
				t.Errorf("fuzzy search ran: %v, want %v (%d searches)", fuzzy, c.fuzzy, len(rec.requests))
			}
		})
	}
}
