package ossearch

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/osclient"
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

// TestEnsureIndexAddsNewFields: an index created before the signal fields existed gets
// them from EnsureIndex (put mapping), so its documents are not refused by the strict
// mapping; a field whose mapping would change is refused, as a cluster refuses it.
func TestEnsureIndexAddsNewFields(t *testing.T) {
	ctx := context.Background()
	fake := osfake.New()
	defer fake.Close()
	old := Config{Index: "old", Dims: 4, Shards: 1}.WithDefaults().Mapping()
	props := old["mappings"].(map[string]any)["properties"].(map[string]any)
	for _, f := range []string{"company_tech", "company_keywords", "company_industries", "company_description"} {
		delete(props, f)
	}
	c := client(t, fake.URL)
	if err := (osclient.Index{Client: c, Name: "old"}).Create(ctx, old); err != nil {
		t.Fatal(err)
	}
	x, err := New(c, Config{Index: "old", Dims: 4, Shards: 1})
	if err != nil {
		t.Fatal(err)
	}
	mark := fake.Mark()
	if err := x.EnsureIndex(ctx); err != nil {
		t.Fatal(err)
	}
	put := false
	for _, r := range fake.Requests(mark) {
		if r.Method == "PUT" && r.Path == "/old/_mapping" && strings.Contains(string(r.Body), `"company_tech":{"analyzer":"whitespace","type":"text"}`) {
			put = true
		}
	}
	if !put {
		t.Fatalf("EnsureIndex sent no mapping with the signal fields: %v", fake.Requests(mark))
	}
	// The fake now scores signals on the added text fields.
	rec := company.Record{Domain: "a.test", Derived: company.Derived{Vendors: []string{"stripe.com"}}, Profile: company.Profile{Description: "payments"}}
	raw := contact.Raw{PersonaID: 1, Name: "Ann", Title: "CTO", Domain: "a.test"}
	if err := x.PutContacts(ctx, []contactsearch.Indexed{contactsearch.Prepare(raw, contactsearch.CompanyFieldsOf(rec))}, [][]float32{{1, 0, 0, 0}}); err != nil {
		t.Fatal(err)
	}
	if got, err := x.SignalDomains(ctx, []string{"stripe"}); err != nil || !slices.Equal(got, []string{"a.test"}) {
		t.Fatalf("signals on the updated index: %v %v", got, err)
	}
	_, err = c.Indices.Mapping.Put(ctx, opensearchapi.MappingPutReq{Indices: []string{"old"}, Body: strings.NewReader(`{"properties":{"company_tech":{"type":"keyword"}}}`)})
	if err == nil {
		t.Fatal("the fake accepted a changed field mapping")
	}
}
