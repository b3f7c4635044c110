package query_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/query"
)

// TestReplaceKeepsTheIDAndSwapsTheContents: a second CRM snapshot replaces the list's
// contents under the same id; readers (Resolve, Lists, a cached earlier read) see the
// new contents alone, and the old generation's chunks are gone from storage.
func TestReplaceKeepsTheIDAndSwapsTheContents(t *testing.T) {
	ctx := context.Background()
	store := boltStore(t)
	clk := newClock(t0)
	svc := query.New(store, query.WithClock(clk.now))
	q, err := svc.CreateList(ctx, "org1", alice, query.NewList{Name: "HubSpot companies", Action: query.ActionExclusionList, Domains: domains(300)})
	if err != nil {
		t.Fatal(err)
	}
	before, _, err := svc.Lists(ctx, "org1", q.ID) // fills the cache with generation 0
	if err != nil || len(before) != 300 {
		t.Fatalf("lists before = %d, %v", len(before), err)
	}
	clk.advance(time.Hour)
	next := []string{"https://www.new-one.com/x", "new-two.org", "not a domain", "new-one.com"}
	r, err := svc.Replace(ctx, "org1", q.ID, query.NewList{PersonaIDs: []int64{7, 9, 7}})
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != q.ID || r.PersonaCount != 2 || r.DomainCount != 0 {
		t.Fatalf("replaced = %+v, want the same id with 2 persona ids and no domain", r)
	}
	r, err = svc.Replace(ctx, "org1", q.ID, query.NewList{Domains: next})
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != q.ID || r.Name != q.Name || r.DomainCount != 2 || !r.MTime.Equal(t0.Add(time.Hour)) {
		t.Fatalf("replaced = %+v, want id %s, name kept, 2 domains, mtime an hour later", r, q.ID)
	}
	got, personas, err := svc.Lists(ctx, "org1", q.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []string{"new-one.com", "new-two.org"}) || len(personas) != 0 {
		t.Fatalf("lists after = %v %v, want the new domains only", got, personas)
	}
	ds, _, err := svc.Resolve(ctx, "org1", []string{q.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, old := ds["company1.com"]; old || len(ds) != 2 {
		t.Fatalf("resolve = %v, want the 2 new domains", ds)
	}
	// Only the current generation's chunks remain.
	page, err := store.Query(ctx, "querydata#org1#"+q.ID, kv.QueryOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != 1 {
		var keys []string
		for _, it := range page.Items {
			keys = append(keys, it.Key.SK)
		}
		t.Fatalf("chunks stored = %v, want the one chunk of the last generation", keys)
	}
	// Another organisation cannot replace it; a deleted query is not found.
	if _, err := svc.Replace(ctx, "org2", q.ID, query.NewList{Domains: next}); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("replace from another org: %v, want not found", err)
	}
	if err := svc.Delete(ctx, "org1", q.ID, alice); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Replace(ctx, "org1", q.ID, query.NewList{Domains: next}); !errors.Is(err, apperr.ErrNotFound) {
		t.Fatalf("replace after delete: %v, want not found", err)
	}
}
