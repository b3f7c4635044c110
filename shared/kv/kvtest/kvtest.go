// Package kvtest is the contract test suite of the kv.Store port. Every adapter runs it.
package kvtest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
)

// Run runs the contract against stores made by newStore. Each subtest gets its own
// partition names, so one store may be shared.
func Run(t *testing.T, newStore func(t *testing.T) kv.Store) {
	t.Helper()
	s := newStore(t)
	ctx := context.Background()
	n := 0
	pk := func(name string) string { n++; return fmt.Sprintf("%s#%s#%d", t.Name(), name, n) }

	t.Run("GetMissing", func(t *testing.T) {
		_, err := s.Get(ctx, kv.Key{PK: pk("missing"), SK: "x"})
		if !errors.Is(err, apperr.ErrNotFound) {
			t.Fatalf("Get missing: err = %v, want ErrNotFound", err)
		}
	})

	t.Run("JSONHelpers", func(t *testing.T) {
		k := kv.Key{PK: pk("json"), SK: "doc"}
		var v struct{ ID string }
		if found, err := kv.Lookup(ctx, s, k, &v); found || err != nil {
			t.Fatalf("Lookup of a missing item = %v, %v; want false, nil", found, err)
		}
		if _, err := kv.PutJSON(ctx, s, k, map[string]string{"ID": "a1"}, kv.Cond{IfAbsent: true}); err != nil {
			t.Fatal(err)
		}
		if found, err := kv.Lookup(ctx, s, k, &v); !found || err != nil || v.ID != "a1" {
			t.Fatalf("Lookup = %v, %v, %+v; want true, nil, a1", found, err, v)
		}
		if _, err := s.Put(ctx, k, []byte("not json"), kv.Cond{}); err != nil {
			t.Fatal(err)
		}
		if found, err := kv.Lookup(ctx, s, k, &v); found || err == nil {
			t.Fatalf("Lookup of a bad document = %v, %v; want an error", found, err)
		}
	})

	t.Run("Pointer", func(t *testing.T) {
		p := kv.Pointer{Store: s, Key: kv.Key{PK: pk("ptr"), SK: "default"}}
		unset := errors.New("no default")
		if id, via, err := p.Or(ctx, "", unset); id != "" || !via || !errors.Is(err, unset) {
			t.Fatalf("Or on an unset pointer = %q, %v, %v; want the caller's error", id, via, err)
		}
		if err := p.Set(ctx, "a1", kv.Cond{IfAbsent: true}); err != nil {
			t.Fatal(err)
		}
		if err := p.Set(ctx, "b2", kv.Cond{IfAbsent: true}); !errors.Is(err, apperr.ErrConflict) {
			t.Fatalf("second IfAbsent Set = %v, want ErrConflict", err)
		}
		if id, via, err := p.Or(ctx, "", unset); id != "a1" || !via || err != nil {
			t.Fatalf("Or = %q, %v, %v; want a1 through the pointer", id, via, err)
		}
		if id, via, err := p.Or(ctx, "c3", unset); id != "c3" || via || err != nil {
			t.Fatalf("Or with an id = %q, %v, %v; want c3 as given", id, via, err)
		}
		if err := p.Clear(ctx); err != nil {
			t.Fatal(err)
		}
		if id, err := p.Get(ctx); id != "" || err != nil {
			t.Fatalf("Get after Clear = %q, %v", id, err)
		}
	})

	t.Run("PutGetRoundTrip", func(t *testing.T) {
		k := kv.Key{PK: pk("rt"), SK: "doc"}
		data := []byte(`{"name":"Acme","bytes":"\u0000\u00ff"}`)
		v, err := s.Put(ctx, k, data, kv.Cond{})
		if err != nil || v != 1 {
			t.Fatalf("Put = %d, %v; want 1, nil", v, err)
		}
		got, err := s.Get(ctx, k)
		if err != nil {
			t.Fatal(err)
		}
		if string(got.Data) != string(data) || got.Version != 1 || got.Key != k {
			t.Fatalf("Get = %+v", got)
		}
		v, err = s.Put(ctx, k, []byte(`{}`), kv.Cond{})
		if err != nil || v != 2 {
			t.Fatalf("second Put = %d, %v; want 2", v, err)
		}
	})

	t.Run("BinaryData", func(t *testing.T) {
		k := kv.Key{PK: pk("bin"), SK: "b"}
		data := []byte{0, 1, 2, 255, 254, 0}
		if _, err := s.Put(ctx, k, data, kv.Cond{}); err != nil {
			t.Fatal(err)
		}
		got, err := s.Get(ctx, k)
		if err != nil || string(got.Data) != string(data) {
			t.Fatalf("Get = %v, %v", got.Data, err)
		}
	})

	t.Run("IfAbsent", func(t *testing.T) {
		k := kv.Key{PK: pk("absent"), SK: "a"}
		if _, err := s.Put(ctx, k, []byte("1"), kv.Cond{IfAbsent: true}); err != nil {
			t.Fatal(err)
		}
		_, err := s.Put(ctx, k, []byte("2"), kv.Cond{IfAbsent: true})
		if !errors.Is(err, apperr.ErrConflict) {
			t.Fatalf("second IfAbsent put: err = %v, want ErrConflict", err)
		}
		got, _ := s.Get(ctx, k)
		if string(got.Data) != "1" {
			t.Fatalf("data = %q, want 1 (failed write must change nothing)", got.Data)
		}
	})

	t.Run("IfAbsentWithOnlyCounters", func(t *testing.T) {
		k := kv.Key{PK: pk("ctronly"), SK: "a"}
		if _, err := s.Add(ctx, k, "hits", 3, kv.AddCond{}); err != nil {
			t.Fatal(err)
		}
		v, err := s.Put(ctx, k, []byte("doc"), kv.Cond{IfAbsent: true})
		if err != nil || v != 1 {
			t.Fatalf("IfAbsent put on counter-only item = %d, %v", v, err)
		}
		got, _ := s.Get(ctx, k)
		if got.Counters["hits"] != 3 {
			t.Fatalf("counters lost by Put: %v", got.Counters)
		}
	})

	t.Run("IfVersion", func(t *testing.T) {
		k := kv.Key{PK: pk("ver"), SK: "a"}
		v1, _ := s.Put(ctx, k, []byte("1"), kv.Cond{})
		v2, err := s.Put(ctx, k, []byte("2"), kv.Cond{IfVersion: v1})
		if err != nil || v2 != v1+1 {
			t.Fatalf("IfVersion put = %d, %v", v2, err)
		}
		if _, err := s.Put(ctx, k, []byte("3"), kv.Cond{IfVersion: v1}); !errors.Is(err, apperr.ErrConflict) {
			t.Fatalf("stale IfVersion: err = %v, want ErrConflict", err)
		}
		if _, err := s.Put(ctx, kv.Key{PK: pk("ver"), SK: "none"}, []byte("x"), kv.Cond{IfVersion: 1}); !errors.Is(err, apperr.ErrConflict) {
			t.Fatalf("IfVersion on missing item: err = %v, want ErrConflict", err)
		}
	})

	t.Run("GetMany", func(t *testing.T) {
		// 250 keys over two partitions (more than one DynamoDB batch of 100), every
		// third never written, one holding only a counter, and keys given twice.
		a, b := pk("many"), pk("many")
		var keys []kv.Key
		want := map[kv.Key]string{}
		for i := range 250 {
			k := kv.Key{PK: a, SK: fmt.Sprintf("k%03d", i)}
			if i%2 == 1 {
				k.PK = b
			}
			keys = append(keys, k)
			if i%3 == 0 {
				continue
			}
			doc := fmt.Sprintf("doc-%d", i)
			if _, err := s.Put(ctx, k, []byte(doc), kv.Cond{}); err != nil {
				t.Fatal(err)
			}
			want[k] = doc
		}
		onlyCounter := keys[0] // i = 0: never put
		if _, err := s.Add(ctx, onlyCounter, "n", 4, kv.AddCond{}); err != nil {
			t.Fatal(err)
		}
		got, err := s.GetMany(ctx, append(keys, keys[:10]...))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want)+1 {
			t.Fatalf("GetMany found %d items, want %d", len(got), len(want)+1)
		}
		for k, doc := range want {
			it, ok := got[k]
			if !ok || string(it.Data) != doc || it.Key != k || it.Version != 1 {
				t.Fatalf("GetMany[%s] = %+v, %v; want %q version 1", k, it, ok, doc)
			}
		}
		if it := got[onlyCounter]; it.Counters["n"] != 4 || it.Data != nil {
			t.Fatalf("GetMany of a counter-only item = %+v", it)
		}
		if got, err := s.GetMany(ctx, nil); err != nil || len(got) != 0 {
			t.Fatalf("GetMany(nil) = %v, %v", got, err)
		}
		if _, err := s.GetMany(ctx, []kv.Key{keys[1], {PK: a}}); !errors.Is(err, apperr.ErrInvalid) {
			t.Fatalf("GetMany with an empty sort key: err = %v, want ErrInvalid", err)
		}
	})

	t.Run("CountersAndPut", func(t *testing.T) {
		k := kv.Key{PK: pk("ctr"), SK: "a"}
		s.Put(ctx, k, []byte("doc"), kv.Cond{})
		for i, want := range []int64{5, 3, 10} {
			delta := []int64{5, -2, 7}[i]
			got, err := s.Add(ctx, k, "credits", delta, kv.AddCond{})
			if err != nil || got != want {
				t.Fatalf("Add(%d) = %d, %v; want %d", delta, got, err, want)
			}
		}
		if _, err := s.Put(ctx, k, []byte("doc2"), kv.Cond{}); err != nil {
			t.Fatal(err)
		}
		got, _ := s.Get(ctx, k)
		if got.Counters["credits"] != 10 || string(got.Data) != "doc2" {
			t.Fatalf("after Put: %+v", got)
		}
		if _, err := s.Add(ctx, k, "other", 1, kv.AddCond{}); err != nil {
			t.Fatal(err)
		}
		got, _ = s.Get(ctx, k)
		if got.Counters["credits"] != 10 || got.Counters["other"] != 1 {
			t.Fatalf("counters = %v", got.Counters)
		}
	})

	t.Run("AddMin", func(t *testing.T) {
		k := kv.Key{PK: pk("min"), SK: "a"}
		zero := int64(0)
		if _, err := s.Add(ctx, k, "bal", -1, kv.AddCond{Min: &zero}); !errors.Is(err, apperr.ErrConflict) {
			t.Fatalf("overdraw of missing counter: err = %v, want ErrConflict", err)
		}
		if _, err := s.Get(ctx, k); !errors.Is(err, apperr.ErrNotFound) {
			t.Fatalf("failed Add created the item: %v", err)
		}
		s.Add(ctx, k, "bal", 10, kv.AddCond{})
		if got, err := s.Add(ctx, k, "bal", -10, kv.AddCond{Min: &zero}); err != nil || got != 0 {
			t.Fatalf("Add to exactly min = %d, %v", got, err)
		}
		if _, err := s.Add(ctx, k, "bal", -1, kv.AddCond{Min: &zero}); !errors.Is(err, apperr.ErrConflict) {
			t.Fatalf("overdraw: err = %v, want ErrConflict", err)
		}
		got, _ := s.Get(ctx, k)
		if got.Counters["bal"] != 0 {
			t.Fatalf("bal = %d after refused add", got.Counters["bal"])
		}
	})

	t.Run("ConcurrentAddNeverOverdraws", func(t *testing.T) {
		k := kv.Key{PK: pk("conc"), SK: "a"}
		s.Add(ctx, k, "bal", 50, kv.AddCond{})
		zero := int64(0)
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok := 0
		for i := 0; i < 20; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := 0; j < 5; j++ {
					if _, err := s.Add(ctx, k, "bal", -1, kv.AddCond{Min: &zero}); err == nil {
						mu.Lock()
						ok++
						mu.Unlock()
					} else if !errors.Is(err, apperr.ErrConflict) {
						t.Error(err)
					}
				}
			}()
		}
		wg.Wait()
		got, _ := s.Get(ctx, k)
		if ok != 50 || got.Counters["bal"] != 0 {
			t.Fatalf("successful debits = %d, balance = %d; want 50 and 0", ok, got.Counters["bal"])
		}
	})

	t.Run("ConcurrentIfAbsentOneWinner", func(t *testing.T) {
		k := kv.Key{PK: pk("race"), SK: "a"}
		var wg sync.WaitGroup
		var mu sync.Mutex
		wins := 0
		for i := 0; i < 10; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				if _, err := s.Put(ctx, k, []byte(fmt.Sprint(i)), kv.Cond{IfAbsent: true}); err == nil {
					mu.Lock()
					wins++
					mu.Unlock()
				}
			}(i)
		}
		wg.Wait()
		if wins != 1 {
			t.Fatalf("IfAbsent winners = %d, want 1", wins)
		}
	})

	t.Run("QueryPrefixOrderAndPaging", func(t *testing.T) {
		p := pk("q")
		for _, sk := range []string{"key#03", "key#01", "user#01", "key#02", "key#10", "ke", "kez"} {
			if _, err := s.Put(ctx, kv.Key{PK: p, SK: sk}, []byte(sk), kv.Cond{}); err != nil {
				t.Fatal(err)
			}
		}
		// another partition sharing a textual prefix must not leak in
		s.Put(ctx, kv.Key{PK: p + "x", SK: "key#00"}, []byte("other"), kv.Cond{})
		s.Add(ctx, kv.Key{PK: p, SK: "key#04"}, "n", 1, kv.AddCond{})

		var got []string
		cursor := ""
		pages := 0
		for {
			page, err := s.Query(ctx, p, kv.QueryOptions{Prefix: "key#", Limit: 2, Cursor: cursor})
			if err != nil {
				t.Fatal(err)
			}
			pages++
			for _, it := range page.Items {
				got = append(got, it.SK)
			}
			if page.Next == "" {
				break
			}
			cursor = page.Next
			if pages > 10 {
				t.Fatal("paging does not end")
			}
		}
		want := []string{"key#01", "key#02", "key#03", "key#04", "key#10"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("query = %v, want %v", got, want)
		}

		page, err := s.Query(ctx, p, kv.QueryOptions{Prefix: "key#", Reverse: true, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		var rev []string
		for _, it := range page.Items {
			rev = append(rev, it.SK)
		}
		if fmt.Sprint(rev) != "[key#10 key#04 key#03]" || page.Next == "" {
			t.Fatalf("reverse page = %v next %q", rev, page.Next)
		}
		page, _ = s.Query(ctx, p, kv.QueryOptions{Prefix: "key#", Reverse: true, Limit: 3, Cursor: page.Next})
		rev = nil
		for _, it := range page.Items {
			rev = append(rev, it.SK)
		}
		if fmt.Sprint(rev) != "[key#02 key#01]" {
			t.Fatalf("reverse page 2 = %v", rev)
		}

		all, _ := s.Query(ctx, p, kv.QueryOptions{Limit: 100})
		if len(all.Items) != 8 || all.Next != "" {
			t.Fatalf("whole partition: %d items, next %q", len(all.Items), all.Next)
		}
		if all.Items[0].SK != "ke" || string(all.Items[0].Data) != "ke" || all.Items[0].Version != 1 {
			t.Fatalf("first item = %+v", all.Items[0])
		}
	})

	t.Run("QueryEmpty", func(t *testing.T) {
		page, err := s.Query(ctx, pk("empty"), kv.QueryOptions{})
		if err != nil || len(page.Items) != 0 || page.Next != "" {
			t.Fatalf("empty query = %+v, %v", page, err)
		}
	})

	t.Run("Delete", func(t *testing.T) {
		k := kv.Key{PK: pk("del"), SK: "a"}
		v, _ := s.Put(ctx, k, []byte("x"), kv.Cond{})
		s.Add(ctx, k, "c", 1, kv.AddCond{})
		if err := s.Delete(ctx, k, kv.Cond{IfVersion: v + 1}); !errors.Is(err, apperr.ErrConflict) {
			t.Fatalf("stale delete: %v", err)
		}
		if err := s.Delete(ctx, k, kv.Cond{IfVersion: v}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get(ctx, k); !errors.Is(err, apperr.ErrNotFound) {
			t.Fatalf("after delete: %v", err)
		}
		if err := s.Delete(ctx, k, kv.Cond{}); err != nil {
			t.Fatalf("delete missing: %v", err)
		}
		// counters start again from zero
		if got, _ := s.Add(ctx, k, "c", 1, kv.AddCond{}); got != 1 {
			t.Fatalf("counter after delete = %d", got)
		}
	})

	t.Run("InvalidKeys", func(t *testing.T) {
		for _, k := range []kv.Key{{PK: "", SK: "a"}, {PK: "a", SK: ""}, {PK: "a\x00b", SK: "c"}} {
			if _, err := s.Put(ctx, k, []byte("x"), kv.Cond{}); !errors.Is(err, apperr.ErrInvalid) {
				t.Errorf("Put(%q) err = %v, want ErrInvalid", k, err)
			}
			if _, err := s.Get(ctx, k); !errors.Is(err, apperr.ErrInvalid) {
				t.Errorf("Get(%q) err = %v, want ErrInvalid", k, err)
			}
		}
		if _, err := s.Add(ctx, kv.Key{PK: pk("bad"), SK: "a"}, "no spaces", 1, kv.AddCond{}); !errors.Is(err, apperr.ErrInvalid) {
			t.Errorf("bad counter name err = %v", err)
		}
	})
}
