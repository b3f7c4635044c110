package query_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/query"
)

func boltStore(t *testing.T) kv.Store {
	t.Helper()
	s, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

type clock struct{ ns atomic.Int64 }

func newClock(t time.Time) *clock        { c := &clock{}; c.ns.Store(t.UnixNano()); return c }
func (c *clock) now() time.Time          { return time.Unix(0, c.ns.Load()).UTC() }
func (c *clock) advance(d time.Duration) { c.ns.Add(int64(d)) }

var (
	t0    = time.Date(2030, 5, 1, 8, 0, 0, 0, time.UTC)
	alice = query.Actor{UserID: "u-alice", UserName: "alice@acme.test"}
	bob   = query.Actor{UserID: "u-bob", UserName: "bob@acme.test"}
	admin = query.Actor{UserID: "u-admin", UserName: "admin@acme.test", Admin: true}
)

func domains(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("company%d.com", i)
	}
	return out
}

// wantErr checks an error's kind and, when given, the field it names.
func wantErr(t *testing.T, err error, kind *apperr.Kind, field string) {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("err = %v, want %v", err, kind)
	}
	if field == "" {
		return
	}
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Field != field {
		t.Fatalf("err = %v, want field %q", err, field)
	}
}

func TestCreateExclusionListRules(t *testing.T) {
	svc := query.New(boltStore(t), query.WithClock(newClock(t0).now))
	ctx := context.Background()
	dup := append(domains(19), "COMPANY0.com", "https://www.company1.com/about", "shop.company2.com")
	withBad := append(domains(20), "not a domain")
	for _, c := range []struct {
		name         string
		queryName    string
		domains      []string
		personas     []int64
		wantKind     *apperr.Kind
		wantField    string
		wantDomains  int
		wantPersonas int
	}{
		{"twenty domains", "ok", domains(20), nil, nil, "", 20, 0},
		{"persona only is exempt from the minimum", "ok", nil, []int64{7}, nil, "", 0, 1},
		{"both lists", "ok", domains(25), []int64{1, 2, 2, 3}, nil, "", 25, 3},
		{"name of 255 characters", strings.Repeat("é", 255), domains(20), nil, nil, "", 20, 0},
		{"blank name", "  ", domains(20), nil, apperr.ErrInvalid, "query_name", 0, 0},
		{"name of 256 characters", strings.Repeat("x", 256), domains(20), nil, apperr.ErrInvalid, "query_name", 0, 0},
		{"no lists", "x", nil, nil, apperr.ErrBadRequest, "domains", 0, 0},
		{"empty lists", "x", []string{}, []int64{}, apperr.ErrBadRequest, "domains", 0, 0},
		{"nineteen domains", "x", domains(19), nil, apperr.ErrBadRequest, "domains", 0, 0},
		{"nineteen after normalization and duplicates", "x", dup, nil, apperr.ErrBadRequest, "domains", 0, 0},
		{"nineteen domains with personas", "x", domains(19), []int64{1}, apperr.ErrBadRequest, "domains", 0, 0},
		{"invalid domain", "x", withBad, nil, apperr.ErrInvalid, "domains[20]", 0, 0},
		{"zero persona id", "x", nil, []int64{4, 0}, apperr.ErrInvalid, "persona_ids[1]", 0, 0},
		{"negative persona id", "x", nil, []int64{-3}, apperr.ErrInvalid, "persona_ids[0]", 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			q, err := svc.CreateExclusionList(ctx, "org1", alice, c.queryName, c.domains, c.personas)
			if c.wantKind != nil {
				wantErr(t, err, c.wantKind, c.wantField)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if q.DomainCount != c.wantDomains || q.PersonaCount != c.wantPersonas || q.Action != query.ActionExclusionList || q.Truncated {
				t.Fatalf("got %+v, want %d domains, %d personas", q, c.wantDomains, c.wantPersonas)
			}
		})
	}
}

func TestDuplicatesRemovedAfterNormalization(t *testing.T) {
	svc := query.New(boltStore(t))
	ctx := context.Background()
	in := append(domains(20), "Company3.COM", "https://www.company4.com/x?y", "mail.company5.com", "company21.com")
	q, err := svc.CreateExclusionList(ctx, "org1", alice, "dups", in, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := svc.Lists(ctx, "org1", q.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := append(domains(20), "company21.com")
	if q.DomainCount != 21 || strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("domain_count %d, domains %v; want %v", q.DomainCount, got, want)
	}
}

func TestTruncatedAt240000(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 240,000-entry list")
	}
	store := boltStore(t)
	svc := query.New(store)
	ctx := context.Background()
	big := domains(query.MaxEntries + 7)
	people := make([]int64, query.MaxEntries+3)
	for i := range people {
		people[i] = int64(i + 1)
	}
	q, err := svc.CreateExclusionList(ctx, "org1", alice, "big", big, people)
	if err != nil {
		t.Fatal(err)
	}
	if !q.Truncated || q.DomainCount != query.MaxEntries || q.PersonaCount != query.MaxEntries {
		t.Fatalf("got truncated=%v domains=%d personas=%d", q.Truncated, q.DomainCount, q.PersonaCount)
	}
	// A fresh service (no cache) reads the chunks back in order.
	ds, ps, err := query.New(store).Lists(ctx, "org1", q.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != query.MaxEntries || ds[0] != "company0.com" || ds[len(ds)-1] != big[query.MaxEntries-1] {
		t.Fatalf("domains read back: %d, first %s, last %s", len(ds), ds[0], ds[len(ds)-1])
	}
	if len(ps) != query.MaxEntries || ps[len(ps)-1] != int64(query.MaxEntries) {
		t.Fatalf("personas read back: %d", len(ps))
	}
	small, err := svc.CreateExclusionList(ctx, "org1", alice, "small", domains(20), nil)
	if err != nil || small.Truncated {
		t.Fatalf("small list: %+v, %v", small, err)
	}
}

func TestListOnlyQueriesWithDomains(t *testing.T) {
	clk := newClock(t0)
	svc := query.New(boltStore(t), query.WithClock(clk.now))
	ctx := context.Background()
	var ids []string
	for i := 0; i < 5; i++ {
		q, err := svc.CreateExclusionList(ctx, "org1", alice, fmt.Sprint("list ", i), domains(20+i), nil)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, q.ID)
		clk.advance(time.Minute)
	}
	if _, err := svc.CreateExclusionList(ctx, "org1", alice, "people", nil, []int64{1, 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.SaveSearch(ctx, "org1", alice, query.ActionDiscover, map[string]any{"icp_text": "cto"}, nil); err != nil {
		t.Fatal(err) // a search that found no companies: saved, not listed
	}
	if _, err := svc.CreateExclusionList(ctx, "org2", alice, "other org", domains(30), nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		limit, offset int
		want          []string // newest first
	}{
		{100, 0, []string{ids[4], ids[3], ids[2], ids[1], ids[0]}},
		{2, 0, []string{ids[4], ids[3]}},
		{2, 2, []string{ids[2], ids[1]}},
		{2, 4, []string{ids[0]}},
		{2, 5, nil},
		{1000, 50, nil},
	} {
		t.Run(fmt.Sprintf("limit %d offset %d", c.limit, c.offset), func(t *testing.T) {
			got, total, err := svc.List(ctx, "org1", c.limit, c.offset)
			if err != nil {
				t.Fatal(err)
			}
			var gotIDs []string
			for _, q := range got {
				gotIDs = append(gotIDs, q.ID)
			}
			if total != 5 || fmt.Sprint(gotIDs) != fmt.Sprint(c.want) {
				t.Fatalf("got %v (total %d), want %v (total 5)", gotIDs, total, c.want)
			}
		})
	}
	// Renaming the oldest makes it the most recently modified.
	name := "renamed"
	if _, err := svc.Patch(ctx, "org1", ids[0], alice, &name, nil); err != nil {
		t.Fatal(err)
	}
	got, _, _ := svc.List(ctx, "org1", 1, 0)
	if got[0].ID != ids[0] || got[0].Name != "renamed" {
		t.Fatalf("after rename, first = %+v", got[0])
	}
}

func TestPatch(t *testing.T) {
	clk := newClock(t0)
	svc := query.New(boltStore(t), query.WithClock(clk.now))
	ctx := context.Background()
	q, err := svc.CreateExclusionList(ctx, "org1", alice, "original", domains(20), nil)
	if err != nil {
		t.Fatal(err)
	}
	str := func(s string) *string { return &s }
	tags := func(t ...string) *[]string { return &t }
	for _, c := range []struct {
		name      string
		org       string
		id        string
		by        query.Actor
		newName   *string
		newTags   *[]string
		wantKind  *apperr.Kind
		wantField string
		wantName  string
		wantTags  []string
	}{
		{"rename", "org1", q.ID, alice, str("  renamed "), nil, nil, "", "renamed", []string{}},
		{"tags", "org1", q.ID, alice, nil, tags("crm", "q3", "crm", " q4 "), nil, "", "renamed", []string{"crm", "q3", "q4"}},
		{"tags replace the old ones", "org1", q.ID, alice, nil, tags("new"), nil, "", "renamed", []string{"new"}},
		{"both", "org1", q.ID, alice, str("both"), tags(), nil, "", "both", []string{}},
		{"admin may change anyone's", "org1", q.ID, admin, str("by admin"), nil, nil, "", "by admin", []string{}},
		{"neither field", "org1", q.ID, alice, nil, nil, apperr.ErrInvalid, "body", "", nil},
		{"blank name", "org1", q.ID, alice, str(""), nil, apperr.ErrInvalid, "query_name", "", nil},
		{"long name", "org1", q.ID, alice, str(strings.Repeat("n", 256)), nil, apperr.ErrInvalid, "query_name", "", nil},
		{"blank tag", "org1", q.ID, alice, nil, tags("a", " "), apperr.ErrInvalid, "tags[1]", "", nil},
		{"long tag", "org1", q.ID, alice, nil, tags(strings.Repeat("t", 65)), apperr.ErrInvalid, "tags[0]", "", nil},
		{"another member's query", "org1", q.ID, bob, str("mine now"), nil, apperr.ErrForbidden, "", "", nil},
		{"another organisation's query", "org2", q.ID, admin, str("x"), nil, apperr.ErrNotFound, "", "", nil},
		{"unknown id", "org1", "3f1e8a0c-0000-4000-8000-000000000000", alice, str("x"), nil, apperr.ErrNotFound, "", "", nil},
		{"not a uuid", "org1", "../etc", alice, str("x"), nil, apperr.ErrNotFound, "", "", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			clk.advance(time.Second)
			got, err := svc.Patch(ctx, c.org, c.id, c.by, c.newName, c.newTags)
			if c.wantKind != nil {
				wantErr(t, err, c.wantKind, c.wantField)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			stored, _ := svc.Get(ctx, "org1", q.ID)
			if got.Name != c.wantName || fmt.Sprint(got.Tags) != fmt.Sprint(c.wantTags) || stored.Name != c.wantName || !stored.MTime.Equal(clk.now()) {
				t.Fatalf("got %q %v, stored %q mtime %v", got.Name, got.Tags, stored.Name, stored.MTime)
			}
			if stored.DomainCount != 20 || stored.UserID != alice.UserID {
				t.Fatalf("patch changed more than name and tags: %+v", stored)
			}
		})
	}
}

func TestDelete(t *testing.T) {
	store := boltStore(t)
	svc := query.New(store)
	ctx := context.Background()
	q, err := svc.CreateExclusionList(ctx, "org1", alice, "to delete", domains(30), []int64{5, 6})
	if err != nil {
		t.Fatal(err)
	}
	wantErr(t, svc.Delete(ctx, "org2", q.ID, admin), apperr.ErrNotFound, "")
	wantErr(t, svc.Delete(ctx, "org1", q.ID, bob), apperr.ErrForbidden, "")
	if _, _, err := svc.Resolve(ctx, "org1", []string{q.ID}); err != nil {
		t.Fatal(err) // still there after refused deletions, and now cached
	}
	if err := svc.Delete(ctx, "org1", q.ID, alice); err != nil {
		t.Fatal(err)
	}
	wantErr(t, svc.Delete(ctx, "org1", q.ID, alice), apperr.ErrNotFound, "")
	if _, err := svc.Get(ctx, "org1", q.ID); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("Get after delete: %v", err)
	}
	if _, _, err := svc.Resolve(ctx, "org1", []string{q.ID}); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("Resolve after delete: %v (the cache must not outlive the query)", err)
	}
	page, err := store.Query(ctx, "querydata#org1#"+q.ID, kv.QueryOptions{})
	if err != nil || len(page.Items) != 0 {
		t.Fatalf("chunks left after delete: %d, %v", len(page.Items), err)
	}
	// An admin may delete a member's query.
	q2, _ := svc.CreateExclusionList(ctx, "org1", bob, "bob's", domains(20), nil)
	if err := svc.Delete(ctx, "org1", q2.ID, admin); err != nil {
		t.Fatal(err)
	}
}

func TestResolve(t *testing.T) {
	svc := query.New(boltStore(t))
	ctx := context.Background()
	a, _ := svc.CreateExclusionList(ctx, "org1", alice, "a", domains(20), []int64{1, 2})
	b, _ := svc.CreateExclusionList(ctx, "org1", alice, "b", append(domains(25)[5:], "extra.com"), []int64{2, 3})
	other, _ := svc.CreateExclusionList(ctx, "org2", alice, "other", domains(20), nil)
	ds, ps, err := svc.Resolve(ctx, "org1", []string{a.ID, b.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 26 || len(ps) != 3 {
		t.Fatalf("union: %d domains, %d personas; want 26 and 3", len(ds), len(ps))
	}
	for _, d := range []string{"company0.com", "company24.com", "extra.com"} {
		if _, ok := ds[d]; !ok {
			t.Errorf("union lacks %s", d)
		}
	}
	_, _, err = svc.Resolve(ctx, "org1", []string{a.ID, other.ID})
	wantErr(t, err, apperr.ErrNotFound, "")
	if !strings.Contains(err.Error(), other.ID) {
		t.Errorf("not-found error %q does not name the id", err)
	}
	if ds, ps, err := svc.Resolve(ctx, "org1", nil); err != nil || len(ds) != 0 || len(ps) != 0 {
		t.Fatalf("Resolve(nil) = %v %v %v", ds, ps, err)
	}
}

func TestSaveSearch(t *testing.T) {
	svc := query.New(boltStore(t), query.WithClock(newClock(t0).now))
	ctx := context.Background()
	params := map[string]any{"icp_text": "heads of security", "max_records": 50}
	q, err := svc.SaveSearch(ctx, "org1", alice, query.ActionDiscover, params, []string{"Acme.com", "www.acme.com", "globex.com", "not a domain"})
	if err != nil {
		t.Fatal(err)
	}
	var gotParams map[string]any
	json.Unmarshal(q.Params, &gotParams)
	if q.Action != "discover" || q.DomainCount != 2 || q.Name != "Contact search 2030-05-01 08:00:00 UTC" || gotParams["icp_text"] != "heads of security" || q.UserName != alice.UserName {
		t.Fatalf("saved search = %+v", q)
	}
	if _, err := svc.SaveSearch(ctx, "org1", alice, "", nil, nil); !errors.Is(err, apperr.ErrInvalid) {
		t.Fatalf("search without an action: %v", err)
	}
	list, total, _ := svc.List(ctx, "org1", 10, 0)
	if total != 1 || list[0].ID != q.ID || fmt.Sprint(list[0].Preview) != "[acme.com globex.com]" {
		t.Fatalf("listing = %+v", list)
	}
}

// failingStore fails writes of chunks after the first few.
type failingStore struct {
	kv.Store
	chunkPuts atomic.Int64
	failAfter int64
	written   string // the chunk partition written to
}

func (f *failingStore) Put(ctx context.Context, k kv.Key, d []byte, c kv.Cond) (int64, error) {
	if strings.HasPrefix(k.PK, "querydata#") {
		if f.chunkPuts.Add(1) > f.failAfter {
			return 0, fmt.Errorf("injected: %w", apperr.ErrUnavailable)
		}
		f.written = k.PK
	}
	return f.Store.Put(ctx, k, d, c)
}

// TestFailedCreateLeavesNothing: a write failing midway leaves no metadata and no chunks.
func TestFailedCreateLeavesNothing(t *testing.T) {
	base := boltStore(t)
	fs := &failingStore{Store: base, failAfter: 2}
	svc := query.New(fs)
	ctx := context.Background()
	_, err := svc.CreateExclusionList(ctx, "org1", alice, "big", domains(30_000), nil) // several chunks
	if !errors.Is(err, apperr.ErrUnavailable) {
		t.Fatalf("err = %v, want the injected failure", err)
	}
	for _, pk := range []string{"queries#org1"} {
		if page, _ := base.Query(ctx, pk, kv.QueryOptions{}); len(page.Items) != 0 {
			t.Fatalf("%s holds %d items after a failed create", pk, len(page.Items))
		}
	}
	if fs.written == "" {
		t.Fatal("no chunk was written before the failure")
	}
	if page, _ := base.Query(ctx, fs.written, kv.QueryOptions{}); len(page.Items) != 0 {
		t.Fatalf("%d chunk items left in %s", len(page.Items), fs.written)
	}
}

// TestStaleCreatingQueryIsPurged: a crash after the metadata write leaves a "creating"
// query, invisible, which a listing ten minutes later removes with its chunks.
func TestStaleCreatingQueryIsPurged(t *testing.T) {
	base := boltStore(t)
	clk := newClock(t0)
	failing := &failingStore{Store: base, failAfter: 1}
	crashing := &crashStore{Store: failing}
	svc := query.New(crashing, query.WithClock(clk.now))
	ctx := context.Background()
	if _, err := svc.CreateExclusionList(ctx, "org1", alice, "crash", domains(30_000), nil); err == nil {
		t.Fatal("create succeeded through a crash")
	}
	if page, _ := base.Query(ctx, "queries#org1", kv.QueryOptions{}); len(page.Items) != 1 {
		t.Fatalf("want the creating metadata left by the crash, got %d items", len(page.Items))
	}
	clean := query.New(base, query.WithClock(clk.now))
	if list, total, _ := clean.List(ctx, "org1", 10, 0); total != 0 || len(list) != 0 {
		t.Fatalf("a creating query is listed: %+v", list)
	}
	clk.advance(11 * time.Minute)
	clean.List(ctx, "org1", 10, 0)
	if page, _ := base.Query(ctx, "queries#org1", kv.QueryOptions{}); len(page.Items) != 0 {
		t.Fatalf("stale creating query not purged: %d items", len(page.Items))
	}
	if page, _ := base.Query(ctx, failing.written, kv.QueryOptions{}); len(page.Items) != 0 {
		t.Fatalf("stale creating query's chunks not purged: %d items", len(page.Items))
	}
}

// crashStore drops deletes, as a process that died would never send them.
type crashStore struct{ kv.Store }

func (c *crashStore) Delete(ctx context.Context, k kv.Key, cond kv.Cond) error { return nil }

// TestScopeMatchesBruteForce builds a world of companies and contacts, saves inclusion
// and exclusion lists of both kinds, and checks that the contacts Scope admits are
// exactly the ones a direct reading of the rules admits.
func TestScopeMatchesBruteForce(t *testing.T) {
	svc := query.New(boltStore(t))
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 11))
	type contact struct {
		domain string
		id     int64
	}
	var world []contact
	companies := domains(300)
	next := int64(1)
	for _, d := range companies {
		for n := rng.IntN(8); n >= 0; n-- {
			world = append(world, contact{d, next})
			next++
		}
	}
	pickDomains := func(n int) []string {
		var out []string
		for _, i := range rng.Perm(len(companies))[:n] {
			out = append(out, companies[i])
		}
		return out
	}
	pickPeople := func(n int) []int64 {
		var out []int64
		for _, i := range rng.Perm(len(world))[:n] {
			out = append(out, world[i].id)
		}
		return out
	}
	type list struct {
		domains []string
		people  []int64
	}
	lists := map[string]list{
		"exDomains": {pickDomains(60), nil},
		"exPeople":  {nil, pickPeople(150)},
		"exBoth":    {pickDomains(25), pickPeople(40)},
		"inDomains": {pickDomains(90), nil},
		"inPeople":  {nil, pickPeople(200)},
	}
	ids := map[string]string{}
	for name, l := range lists {
		q, err := svc.CreateExclusionList(ctx, "org1", alice, name, l.domains, l.people)
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = q.ID
	}
	// allowedByRules reads the rules straight off the raw lists.
	allowedByRules := func(c contact, include, exclude []string) bool {
		in := func(names []string) bool {
			for _, n := range names {
				for _, d := range lists[n].domains {
					if d == c.domain {
						return true
					}
				}
				for _, p := range lists[n].people {
					if p == c.id {
						return true
					}
				}
			}
			return false
		}
		if in(exclude) {
			return false
		}
		return len(include) == 0 || in(include)
	}
	for _, c := range []struct{ include, exclude []string }{
		{nil, nil},
		{nil, []string{"exDomains"}},
		{nil, []string{"exPeople"}},
		{nil, []string{"exDomains", "exPeople", "exBoth"}},
		{[]string{"inDomains"}, nil},
		{[]string{"inPeople"}, nil},
		{[]string{"inDomains", "inPeople"}, nil},
		{[]string{"inDomains"}, []string{"exDomains", "exPeople"}},
		{[]string{"inDomains", "inPeople"}, []string{"exBoth"}},
	} {
		t.Run(fmt.Sprintf("include %v exclude %v", c.include, c.exclude), func(t *testing.T) {
			var inc, exc []string
			for _, n := range c.include {
				inc = append(inc, ids[n])
			}
			for _, n := range c.exclude {
				exc = append(exc, ids[n])
			}
			sc, err := svc.Scope(ctx, "org1", inc, exc)
			if err != nil {
				t.Fatal(err)
			}
			kept := 0
			for _, ct := range world {
				got, want := sc.Allows(ct.domain, ct.id), allowedByRules(ct, c.include, c.exclude)
				if got != want {
					t.Fatalf("contact %d at %s: Allows = %v, rules say %v", ct.id, ct.domain, got, want)
				}
				if got && !sc.AllowsCompany(ct.domain) {
					t.Fatalf("AllowsCompany(%s) = false for an allowed contact", ct.domain)
				}
				if got {
					kept++
				}
			}
			if len(c.include)+len(c.exclude) > 0 && (kept == 0 || kept == len(world)) {
				t.Fatalf("degenerate case: %d of %d kept", kept, len(world))
			}
		})
	}
	if _, err := svc.Scope(ctx, "org2", []string{ids["inDomains"]}, nil); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("another organisation's list: %v", err)
	}
}
