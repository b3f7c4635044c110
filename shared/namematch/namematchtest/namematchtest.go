// Package namematchtest is the contract suite of the namematch.Index port. Every
// adapter runs it (like testing/fstest):
//
//	namematchtest.Run(t, func(t *testing.T) namematch.Index { return newIndex(t) })
package namematchtest

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"testing"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/namematch"
)

// Run runs the suite; open returns a new, empty index for each subtest.
func Run(t *testing.T, open func(t *testing.T) namematch.Index) {
	ctx := context.Background()
	t.Run("PutSearchRoundTrip", func(t *testing.T) {
		ix := open(t)
		want := entry("acme.com", "Acme International Corp.", "US", "CA", "San Francisco", "94105", "+14155550100", "ACME")
		put(t, ix, want)
		got := search(t, ix, terms("acme"))
		if len(got) != 1 || !reflect.DeepEqual(got[0], want) {
			t.Fatalf("search acme = %+v, want exactly %+v", got, want)
		}
	})
	t.Run("ExactAndFuzzyTerms", func(t *testing.T) {
		ix := open(t)
		put(t, ix, entry("keystone.com", "Keystone Labs", "US", "", "", "", ""))
		cases := []struct {
			name string
			req  namematch.Request
			want []string
		}{
			{"exact term", terms("keystone"), []string{"keystone.com"}},
			{"one edit without fuzziness", terms("keystome"), nil},
			{"one edit with fuzziness 1", fuzzy("keystome", 1), []string{"keystone.com"}},
			{"two edits with fuzziness 1", fuzzy("keysotme", 1), nil},
			{"two edits with fuzziness 2", fuzzy("kyestome", 2), []string{"keystone.com"}},
			{"expanded word", terms("laboratories"), []string{"keystone.com"}},
			{"other word", terms("harbor"), nil},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) { sameDomains(t, search(t, ix, c.req), c.want) })
		}
	})
	t.Run("JoinedAndAcronyms", func(t *testing.T) {
		ix := open(t)
		put(t, ix,
			entry("coca-cola.com", "Coca-Cola Company", "US", "", "", "", ""),
			entry("ibm.com", "International Business Machines Corporation", "US", "", "", "", ""),
			entry("abc.com", "ABC Plumbing", "US", "", "", "", ""))
		cases := []struct {
			name string
			req  namematch.Request
			want []string
		}{
			{"joined", namematch.Request{Joined: "cocacola", Limit: 10}, []string{"coca-cola.com"}},
			{"one-token query on acronyms", terms("ibm"), []string{"ibm.com"}},
			{"query acronym on text", namematch.Request{Acronym: "abc", Limit: 10}, []string{"abc.com"}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) { sameDomains(t, search(t, ix, c.req), c.want) })
		}
	})
	t.Run("StrictPhrase", func(t *testing.T) {
		ix := open(t)
		put(t, ix,
			entry("acme-intl.com", "Acme Intl", "US", "", "", "", ""),
			entry("acme-international.com", "Acme International", "US", "", "", "", ""),
			entry("intl-acme.com", "Intl Acme Partners", "US", "", "", "", ""),
			entry("big-acme.com", "Big Acme Intl Holdings", "US", "", "", "", ""))
		cases := []struct {
			phrase string
			want   []string
		}{
			// The phrase is in order and unexpanded: "Acme International" is not "acme intl".
			{"acme intl", []string{"acme-intl.com", "big-acme.com"}},
			{"acme", []string{"acme-intl.com", "acme-international.com", "intl-acme.com", "big-acme.com"}},
			{"intl acme", []string{"intl-acme.com"}},
		}
		for _, c := range cases {
			t.Run(c.phrase, func(t *testing.T) {
				sameDomains(t, search(t, ix, namematch.Request{Phrase: c.phrase, Limit: 10}), c.want)
			})
		}
	})
	t.Run("Filters", func(t *testing.T) {
		ix := open(t)
		put(t, ix,
			entry("a.com", "Acme", "US", "California", "San Francisco", "94105", "+14155550100"),
			entry("b.com", "Acme", "US", "New York", "New York", "10001", "+12125550100"),
			entry("c.de", "Acme", "DE", "Bayern", "München", "80331", "+49891234567"),
			entry("d.com", "Acme", "", "", "", "", ""))
		cases := []struct {
			name string
			f    namematch.Filters
			want []string
		}{
			{"none", namematch.Filters{}, []string{"a.com", "b.com", "c.de", "d.com"}},
			{"country", namematch.Filters{Country: "US"}, []string{"a.com", "b.com"}},
			{"state", namematch.Filters{Country: "US", State: "US-NY"}, []string{"b.com"}},
			{"city", namematch.Filters{City: namematch.CityKey("DE", "Munich")}, []string{"c.de"}},
			{"zip", namematch.Filters{Zip: "94105"}, []string{"a.com"}},
			{"phone", namematch.Filters{Phone: "+12125550100"}, []string{"b.com"}},
			{"contradiction", namematch.Filters{Country: "DE", Zip: "94105"}, nil},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				r := terms("acme")
				r.Filters = c.f
				sameDomains(t, search(t, ix, r), c.want)
				r = namematch.Request{Phrase: "acme", Filters: c.f, Limit: 10}
				sameDomains(t, search(t, ix, r), c.want)
			})
		}
	})
	t.Run("RankingAndLimit", func(t *testing.T) {
		ix := open(t)
		var es []namematch.Entry
		for i := range 20 {
			es = append(es, entry(fmt.Sprintf("smith%02d.com", i), fmt.Sprintf("Smith %s", word(i)), "US", "", "", "", ""))
		}
		es = append(es, entry("smith-software.com", "Smith Software", "US", "", "", "", ""))
		put(t, ix, es...)
		r := namematch.Request{Terms: []namematch.Term{{Text: "smith", Boost: 1}, {Text: "software", Boost: 0.5}}, Limit: 5}
		got := search(t, ix, r)
		if len(got) != 5 {
			t.Fatalf("limit 5: got %d entries", len(got))
		}
		if got[0].Domain != "smith-software.com" {
			t.Errorf("the entry matching both terms should rank first; got %s", got[0].Domain)
		}
	})
	t.Run("ReplaceAndDelete", func(t *testing.T) {
		ix := open(t)
		put(t, ix, entry("x.com", "Old Name", "US", "", "", "", ""), entry("y.com", "Other", "US", "", "", "", ""))
		put(t, ix, entry("x.com", "New Name", "GB", "", "", "", ""))
		sameDomains(t, search(t, ix, terms("old")), nil)
		got := search(t, ix, terms("new"))
		if len(got) != 1 || got[0].Country != "GB" {
			t.Fatalf("after replacing x.com: %+v", got)
		}
		if err := ix.Delete(ctx, []string{"x.com", "unknown.com"}); err != nil {
			t.Fatal(err)
		}
		sameDomains(t, search(t, ix, terms("new")), nil)
		fps, err := ix.Fingerprints(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(fps) != 1 || fps["y.com"] == "" {
			t.Fatalf("fingerprints after delete = %v, want only y.com", fps)
		}
	})
	t.Run("FingerprintsOfManyEntries", func(t *testing.T) {
		ix := open(t)
		want := map[string]string{}
		var es []namematch.Entry
		for i := range 4500 {
			e := entry(fmt.Sprintf("c%05d.com", i), fmt.Sprintf("Company %d", i), "US", "", "", "", "")
			es = append(es, e)
			want[e.Domain] = e.Fingerprint
		}
		put(t, ix, es...)
		got, err := ix.Fingerprints(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("fingerprints: got %d entries, want %d (or values differ)", len(got), len(want))
		}
	})
	t.Run("EmptyRequest", func(t *testing.T) {
		ix := open(t)
		put(t, ix, entry("x.com", "X Corp", "US", "", "", "", ""))
		got, err := ix.Search(ctx, namematch.Request{Limit: 10})
		if err != nil || len(got) != 0 {
			t.Fatalf("empty request = %v, %v; want no entries, no error", got, err)
		}
	})
}

func word(i int) string {
	return []string{"Logistics", "Capital", "Health", "Media", "Homes", "Freight", "Clinic", "Legal", "Labs", "Store",
		"Goods", "Market", "Works", "Cargo", "Realty", "School", "Hotel", "Builders", "Agency", "Wealth"}[i%20]
}

// entry builds an entry the way the matcher indexes a company.
func entry(domain, name, country, state, city, zip, phone string, alt ...string) namematch.Entry {
	rec := company.Record{Domain: domain, Raw: company.Raw{Name: name, AlternateNames: alt}}
	rec.Profile = company.Profile{Domain: domain, Name: name,
		Address: company.Address{Country: country, State: state, City: city, Zip: zip}}
	if phone != "" {
		rec.Profile.Phones = []string{phone}
	}
	return namematch.EntryOf(rec)
}

func terms(words ...string) namematch.Request {
	r := namematch.Request{Limit: 10}
	for _, w := range words {
		r.Terms = append(r.Terms, namematch.Term{Text: w, Boost: 1})
	}
	return r
}

func fuzzy(word string, edits int) namematch.Request {
	return namematch.Request{Terms: []namematch.Term{{Text: word, Boost: 1, Fuzziness: edits}}, Limit: 10}
}

func put(t *testing.T, ix namematch.Index, es ...namematch.Entry) {
	t.Helper()
	if err := ix.Put(context.Background(), es); err != nil {
		t.Fatal(err)
	}
}

func search(t *testing.T, ix namematch.Index, r namematch.Request) []namematch.Entry {
	t.Helper()
	got, err := ix.Search(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func sameDomains(t *testing.T, got []namematch.Entry, want []string) {
	t.Helper()
	var g []string
	for _, e := range got {
		g = append(g, e.Domain)
	}
	sort.Strings(g)
	w := append([]string(nil), want...)
	sort.Strings(w)
	if !reflect.DeepEqual(g, w) && !(len(g) == 0 && len(w) == 0) {
		t.Errorf("domains = %v, want %v", g, w)
	}
}
