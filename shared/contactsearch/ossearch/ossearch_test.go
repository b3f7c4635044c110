package ossearch

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/opensearch-project/opensearch-go/v4"
	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/company/oscontactfields"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/contactsearch/contactsearchtest"
	"github.com/firmoapi/firmo/shared/patternbook"
	"github.com/firmoapi/firmo/shared/patternstore"
	"github.com/firmoapi/firmo/shared/testkit"
	"github.com/firmoapi/firmo/shared/testkit/osfake"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// client connects to url; on a live cluster (OPENSEARCH_URL) with the user and password
// OPENSEARCH_USER and OPENSEARCH_PASSWORD give, as the other live suites do.
func client(t *testing.T, url string) *opensearchapi.Client {
	t.Helper()
	cfg := opensearch.Config{Addresses: []string{url}}
	if url == os.Getenv("OPENSEARCH_URL") {
		cfg.Username, cfg.Password = os.Getenv("OPENSEARCH_USER"), os.Getenv("OPENSEARCH_PASSWORD")
	}
	c, err := opensearchapi.NewClient(opensearchapi.Config{Client: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// open indexes the contract world's contacts in a fresh index on the cluster at url
// and returns the service running every search on it.
func open(t *testing.T, w *contactsearchtest.World, url string, cfg Config) (*contactsearch.Service, *Index) {
	t.Helper()
	ctx := context.Background()
	x, err := New(client(t, url), cfg)
	if err != nil {
		t.Fatal(err)
	}
	_ = x.DeleteIndex(ctx) // a live cluster may hold a previous run's index
	var raws []contact.Raw
	if err := w.Contacts.List(ctx, func(r contact.Raw) error { raws = append(raws, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if err := contactsearch.IndexContacts(ctx, x, w.Companies, w.Embedder, raws); err != nil {
		t.Fatal(err)
	}
	// The email patterns as a deployment publishes them (firmo reindex-contacts): learned
	// once from every address, then read one domain at a time.
	if _, err := patternbook.New(patternbook.Deps{Contacts: w.Contacts, Store: w.KV}).Publish(ctx); err != nil {
		t.Fatal(err)
	}
	svc := contactsearch.New(contactsearch.Deps{Contacts: w.Contacts, Companies: w.Companies, Embedder: w.Embedder,
		Scopes: w.Queries, Saver: w.Queries, Engine: x, Patterns: patternstore.Reader{Store: w.KV}})
	return svc, x
}

// recorder records, per contract case, the requests the service sent to the fake.
type recorder struct {
	svc  *contactsearch.Service
	fake *osfake.Server
	mu   sync.Mutex
	sent map[string][]osfake.Request
}

func (r *recorder) record(ctx context.Context, fn func()) {
	r.mu.Lock() // one case at a time: the fake's request log is shared
	defer r.mu.Unlock()
	mark := r.fake.Mark()
	fn()
	name := contactsearchtest.CaseName(ctx)
	r.sent[name] = append(r.sent[name], r.fake.Requests(mark)...)
}

func (r *recorder) Search(ctx context.Context, org string, req contactsearch.Request) (resp contactsearch.Response, err error) {
	r.record(ctx, func() { resp, err = r.svc.Search(ctx, org, req) })
	return
}

func (r *recorder) Count(ctx context.Context, p contactsearch.Params) (n int, err error) {
	r.record(ctx, func() { n, err = r.svc.Count(ctx, p) })
	return
}

func (r *recorder) Lookup(ctx context.Context, id int64, li, email string) (v contactsearch.LookupView, err error) {
	r.record(ctx, func() { v, err = r.svc.Lookup(ctx, id, li, email) })
	return
}

// TestContractOnFake runs the contract suite on the adapter over osfake, with a terms
// limit of 2 so saved-query lists run as terms lookups, and compares every request body
// each case sent with testdata/requests/<case>.json (vectors shortened to their length).
// The fake evaluates the bodies' query DSL over the documents; it is not a cluster
// (TestContractOnCluster is).
func TestContractOnFake(t *testing.T) {
	fake := osfake.New()
	defer fake.Close()
	rec := &recorder{fake: fake, sent: map[string][]osfake.Request{}}
	contactsearchtest.Run(t, func(t *testing.T, w *contactsearchtest.World) (contactsearchtest.Searcher, bool) {
		rec.svc, _ = open(t, w, fake.URL, Config{Index: "contacts-test", MaxTerms: 2, Shards: 1})
		return rec, true
	})
	checkGoldens(t, rec, "")
}

// TestDeepPagesOnFake runs the contract suite's deep-page cases on an index whose
// index.max_result_window is 200 (below contactsearchtest.DeepOffset), so each page is
// read with search_after past the window (Find's deep path: the offset's sort values
// first, then the page), and compares the bodies with
// testdata/requests/window200_<case>.json. On the default window the same cases are
// single searches (TestContractOnFake).
func TestDeepPagesOnFake(t *testing.T) {
	fake := osfake.New()
	defer fake.Close()
	rec := &recorder{fake: fake, sent: map[string][]osfake.Request{}}
	contactsearchtest.RunDeepPages(t, func(t *testing.T, w *contactsearchtest.World) (contactsearchtest.Searcher, bool) {
		rec.svc, _ = open(t, w, fake.URL, Config{Index: "contacts-deep", MaxTerms: 2, Shards: 1, MaxResultWindow: 200})
		return rec, true
	})
	searches := 0
	for _, reqs := range rec.sent {
		for _, r := range reqs {
			if strings.HasSuffix(r.Path, "/_search") && strings.Contains(string(r.Body), `"search_after"`) {
				searches++
			}
		}
	}
	if searches == 0 {
		t.Fatal("no deep page was read with search_after")
	}
	checkGoldens(t, rec, "window200_")
}

// checkGoldens compares the bodies each case sent with testdata/requests/<prefix><case>.json.
func checkGoldens(t *testing.T, rec *recorder, prefix string) {
	t.Helper()
	if t.Failed() {
		return
	}
	names := make([]string, 0, len(rec.sent))
	for n := range rec.sent {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		var out []any
		for _, r := range rec.sent[n] {
			var body any
			_ = json.Unmarshal(r.Body, &body)
			out = append(out, map[string]any{"request": r.Method + " " + r.Path, "body": shorten(body)})
		}
		testkit.Golden(t, *update, "requests/"+prefix+fileName(n)+".json", out)
	}
}

// TestContractOnCluster runs the contract suite against the live cluster OPENSEARCH_URL
// names (README: "Contact search on OpenSearch"), in an index of its own.
func TestContractOnCluster(t *testing.T) {
	url := os.Getenv("OPENSEARCH_URL")
	if url == "" {
		t.Skip("OPENSEARCH_URL is not set: no live cluster to run the contract suite against")
	}
	zero := 0
	contactsearchtest.Run(t, func(t *testing.T, w *contactsearchtest.World) (contactsearchtest.Searcher, bool) {
		svc, x := open(t, w, url, Config{Index: "firmo-contract-test", Replicas: &zero, Shards: 1, MaxTerms: 2, Refresh: "wait_for"})
		t.Cleanup(func() { _ = x.DeleteIndex(context.Background()) })
		return svc, true
	})
}

// TestDeepPagesOnCluster runs the deep-page cases against the live cluster OPENSEARCH_URL
// names, on an index whose index.max_result_window is 200: search_after past the window,
// and the exact script_score ranking of deep similarity pages.
func TestDeepPagesOnCluster(t *testing.T) {
	url := os.Getenv("OPENSEARCH_URL")
	if url == "" {
		t.Skip("OPENSEARCH_URL is not set: no live cluster to run the deep-page cases against")
	}
	zero := 0
	contactsearchtest.RunDeepPages(t, func(t *testing.T, w *contactsearchtest.World) (contactsearchtest.Searcher, bool) {
		svc, x := open(t, w, url, Config{Index: "firmo-contract-deep-test", Replicas: &zero, Shards: 1, MaxTerms: 2, Refresh: "wait_for", MaxResultWindow: 200})
		t.Cleanup(func() { _ = x.DeleteIndex(context.Background()) })
		return svc, true
	})
}

var unsafe = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

func fileName(test string) string {
	_, rest, _ := strings.Cut(test, "/")
	return unsafe.ReplaceAllString(rest, "_")
}

// shorten replaces every vector (an array of more than 16 numbers) by its length.
func shorten(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = shorten(e)
		}
	case []any:
		if len(x) > 16 {
			if _, ok := x[0].(float64); ok {
				if _, isInt := x[0].(float64); isInt && isVector(x) {
					return fmt.Sprintf("<%d floats>", len(x))
				}
			}
		}
		for i, e := range x {
			x[i] = shorten(e)
		}
	}
	return v
}

func isVector(x []any) bool {
	for _, e := range x {
		f, ok := e.(float64)
		if !ok || f != float64(int64(f)) {
			return true
		}
	}
	return false
}

// TestMapping pins the index body: settings from the capacity model's defaults and the
// strict mapping.
func TestMapping(t *testing.T) {
	cfg := Config{}.WithDefaults()
	if *cfg.Replicas < 1 {
		t.Fatalf("default replicas %d, want at least 1", *cfg.Replicas)
	}
	testkit.Golden(t, *update, "mapping.json", cfg.Mapping())
	lucene := Config{Engine: "lucene", Dims: 8}.WithDefaults()
	m := lucene.Mapping()
	idx := m["settings"].(map[string]any)["index"].(map[string]any)
	if _, ok := idx["knn.algo_param.ef_search"]; ok {
		t.Fatal("lucene mapping sets the native engines' ef_search")
	}
	if _, err := New(nil, Config{Engine: "annoy"}); err == nil {
		t.Fatal("unknown engine accepted")
	}
}

// TestCompanyUpdate: deriving a company again rewrites its fields in its contacts'
// documents (and only theirs), so filters and entries follow; unchanged fields rewrite
// nothing.
// TestDomainAddresses: the company pipeline's read of a domain's contact addresses
// (oscontactfields.Addresses, for its email pattern) pages with search_after through the
// domain's documents with an address, and lists them in the contact store's order (shard
// by shard, persona id order within one): ids 1 and 17 share shard 1, 2 is in shard 2.
func TestDomainAddresses(t *testing.T) {
	ctx := context.Background()
	fake := osfake.New()
	defer fake.Close()
	x, err := New(client(t, fake.URL), Config{Index: "addr", Dims: 4, Shards: 1})
	if err != nil {
		t.Fatal(err)
	}
	co := contactsearch.CompanyFields{Domain: "acme.test"}
	var docs []contactsearch.Indexed
	var vecs [][]float32
	for _, r := range []contact.Raw{
		{PersonaID: 17, Domain: "acme.test", Name: "Cem Cetin", Email: "cem.cetin@acme.test"},
		{PersonaID: 2, Domain: "acme.test", Name: "Bea Berg", Email: "bea.berg@acme.test"},
		{PersonaID: 1, Domain: "acme.test", Name: "Ann Alt", Email: "ann.alt@acme.test"},
		{PersonaID: 3, Domain: "acme.test", Name: "Dan Dorn"},
		{PersonaID: 4, Domain: "other.test", Name: "Eve Eck", Email: "eve.eck@other.test"},
	} {
		docs = append(docs, contactsearch.Prepare(r, co))
		vecs = append(vecs, []float32{1, 0, 0, 0})
	}
	if err := x.PutContacts(ctx, docs, vecs); err != nil {
		t.Fatal(err)
	}
	testkit.Golden(t, *update, "domain_addresses.json", oscontactfields.AddressesBody("acme.test", 17, 2))
	mark := fake.Mark()
	got, err := oscontactfields.Addresses{Client: client(t, fake.URL), Index: "addr", Page: 2}.DomainAddresses(ctx, "acme.test")
	if err != nil {
		t.Fatal(err)
	}
	var emails []string
	for _, o := range got {
		emails = append(emails, o.Email+" "+o.Source)
	}
	want := []string{"ann.alt@acme.test contact:1", "cem.cetin@acme.test contact:17", "bea.berg@acme.test contact:2"}
	if !slices.Equal(emails, want) {
		t.Fatalf("addresses %v, want %v", emails, want)
	}
	if n := len(fake.Requests(mark)); n != 2 {
		t.Fatalf("%d searches for 3 addresses in pages of 2, want 2", n)
	}
	none, err := oscontactfields.Addresses{Client: client(t, fake.URL), Index: "missing"}.DomainAddresses(ctx, "acme.test")
	if err != nil || len(none) != 0 {
		t.Fatalf("without an index: %v, %v", none, err)
	}
}

func TestCompanyUpdate(t *testing.T) {
	ctx := context.Background()
	fake := osfake.New()
	defer fake.Close()
	x, err := New(client(t, fake.URL), Config{Index: "upd", Dims: 4, Shards: 1})
	if err != nil {
		t.Fatal(err)
	}
	emp := "11-50"
	rec := company.Record{Domain: "acme.test", Profile: company.Profile{Name: "Acme", Employees: &emp, IndustryGroups: map[string]float64{"SAAS": 0.9}}}
	rec.Profile.Address.Country = "DE"
	docs := []contactsearch.Indexed{
		contactsearch.Prepare(contact.Raw{PersonaID: 1, Domain: "acme.test", Name: "Ann A", Title: "CTO"}, contactsearch.CompanyFieldsOf(rec)),
		contactsearch.Prepare(contact.Raw{PersonaID: 2, Domain: "other.test", Name: "Bob B", Title: "CEO"}, contactsearch.CompanyFields{Domain: "other.test"}),
	}
	if err := x.PutContacts(ctx, docs, [][]float32{{1, 0, 0, 0}, {0, 1, 0, 0}}); err != nil {
		t.Fatal(err)
	}
	count := func(p contactsearch.Params) int {
		t.Helper()
		req, err := contactsearch.Validate(p)
		if err != nil {
			t.Fatal(err)
		}
		n, err := x.Count(ctx, contactsearch.EngineQuery{Filters: &req.Filters})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(contactsearch.Params{FilterIndustry: contactsearch.Strings{"SAAS"}}); n != 1 {
		t.Fatalf("SAAS before: %d", n)
	}
	emp2 := "51-200"
	rec.Profile.Employees = &emp2
	rec.Profile.IndustryGroups = map[string]float64{"FINANCIAL_SERVICES": 0.8}
	testkit.Golden(t, *update, "company_update.json", CompanyUpdateBody(contactsearch.CompanyFieldsOf(rec)))
	if err := x.UpdateCompany(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if n := count(contactsearch.Params{FilterIndustry: contactsearch.Strings{"SAAS"}}); n != 0 {
		t.Fatalf("SAAS after: %d", n)
	}
	if n := count(contactsearch.Params{FilterIndustry: contactsearch.Strings{"FINANCIAL_SERVICES"}, EmployeeRange: "51,200"}); n != 1 {
		t.Fatalf("FINTECH 51-200 after: %d", n)
	}
	req, _ := contactsearch.Validate(contactsearch.Params{})
	got, err := x.Find(ctx, contactsearch.EngineQuery{Filters: &req.Filters, Limits: req.Limits})
	if err != nil || len(got) != 2 {
		t.Fatalf("Find = %v, %v", got, err)
	}
	if c := got[0].Contacts[0]; got[0].Name != "Acme" || c.Employees != "51-200" || len(c.Industry) != 1 || c.Industry[0] != "FINANCIAL_SERVICES" {
		t.Fatalf("entry %+v contact %+v", got[0], c)
	}
	// A second identical update touches no document (company_fp matches).
	mark := fake.Mark()
	if err := x.UpdateCompany(ctx, rec); err != nil {
		t.Fatal(err)
	}
	for _, r := range fake.Requests(mark) {
		if strings.HasSuffix(r.Path, "_update_by_query") && !strings.Contains(string(r.Body), "company_fp") {
			t.Fatal("update without the fingerprint guard")
		}
	}
}
