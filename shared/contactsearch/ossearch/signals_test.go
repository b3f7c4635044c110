package ossearch

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/testkit/osfake"
)

// TestSignalDomainsMatchEmbedded: on companies built so that the words' rarity (idf
// over companies, not contacts: d.test and i.test have several), the field weights
// (description 0.7) and the threshold decide, the OpenSearch company search returns the
// embedded company search's domains in its order. (Checked to fail with the idf
// dropped, the field weights dropped, or companies counted by contacts.)
func TestSignalDomainsMatchEmbedded(t *testing.T) {
	ctx := context.Background()
	fake := osfake.New()
	defer fake.Close()
	x, err := New(client(t, fake.URL), Config{Index: "sig", Dims: 4, Shards: 1})
	if err != nil {
		t.Fatal(err)
	}
	kw := func(ws ...string) map[string]float64 {
		m := map[string]float64{}
		for _, w := range ws {
			m[w] = 1
		}
		return m
	}
	recs := []company.Record{
		{Domain: "a.test", Derived: company.Derived{Vendors: []string{"js.stripe.com"}}, Profile: company.Profile{Description: "We build payroll tools"}},
		{Domain: "b.test", Profile: company.Profile{Keywords: kw("payroll software")}},
		{Domain: "c.test", Profile: company.Profile{Description: "Managed payroll for small shops"}},
		{Domain: "d.test", Profile: company.Profile{Description: "Software for everyone"}},
		{Domain: "e.test", Profile: company.Profile{Keywords: kw("software")}},
		{Domain: "f.test", Profile: company.Profile{Keywords: kw("software", "managed")}},
		{Domain: "g.test", Profile: company.Profile{Description: "A retail shop"}},
		{Domain: "h.test", Derived: company.Derived{Vendors: []string{"js.hs-scripts.com"}}},
		// "managed" is rarer than "software" among companies (not among contacts: i.test
		// has six), so i.test holds most of "managed software"'s weight.
		{Domain: "i.test", Profile: company.Profile{Keywords: kw("managed services")}},
		{Domain: "j.test", Profile: company.Profile{Keywords: kw("software")}},
		{Domain: "k.test", Profile: company.Profile{Keywords: kw("software")}},
		{Domain: "l.test", Profile: company.Profile{Keywords: kw("software")}},
		{Domain: "m.test", Profile: company.Profile{Keywords: kw("software")}},
	}
	var docs []contactsearch.Indexed
	var vecs [][]float32
	id := int64(1)
	for _, r := range recs {
		n := map[string]int{"d.test": 5, "i.test": 6}[r.Domain]
		n = max(n, 1)
		for range n {
			raw := contact.Raw{PersonaID: id, Name: fmt.Sprintf("Person %d", id), Title: "Engineer", Domain: r.Domain}
			docs = append(docs, contactsearch.Prepare(raw, contactsearch.CompanyFieldsOf(r)))
			vecs = append(vecs, []float32{1, 0, 0, 0})
			id++
		}
	}
	if err := x.PutContacts(ctx, docs, vecs); err != nil {
		t.Fatal(err)
	}
	nonEmpty := 0
	for _, sigs := range [][]string{
		{"stripe"}, {"payroll software"}, {"managed software"}, {"stripe", "shop"}, {"payroll", "hubspot"},
		{"softw"}, {"pay"}, {"shop"}, {"xyzzy"}, {"in"}, {"software", "payroll tools"},
	} {
		want := contactsearch.SignalCompanies(recs, sigs)
		got, err := x.SignalDomains(ctx, sigs)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) || (got == nil) != (want == nil) {
			t.Errorf("signals %q: OpenSearch %v, embedded %v", sigs, got, want)
		}
		if len(want) > 0 {
			nonEmpty++
		}
	}
	if nonEmpty < 5 {
		t.Fatalf("only %d signal sets match any company: the test tests little", nonEmpty)
	}
}
