// Package companytest is the contract test suite of the company.Store port. Every
// store (the kv-backed store on each kv adapter) runs it.
package companytest

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
)

// Run runs the contract against stores made by newStore. Each subtest uses its own
// domains, so one store may be shared; List is checked on a fresh store.
func Run(t *testing.T, newStore func(t *testing.T) company.Store) {
	t.Helper()
	ctx := context.Background()
	s := newStore(t)
	n := 0
	dom := func(name string) string { n++; return fmt.Sprintf("%s-%d.example", name, n) }

	t.Run("GetMissing", func(t *testing.T) {
		_, err := s.Get(ctx, dom("missing"))
		if !errors.Is(err, apperr.ErrNotFound) {
			t.Fatalf("err = %v, want ErrNotFound", err)
		}
	})

	t.Run("PutGetRoundTrip", func(t *testing.T) {
		d := dom("rt")
		lat := 52.52
		rec := company.Record{Domain: d, Raw: company.Raw{Name: "Acme GmbH", AlternateNames: []string{"Acme"}, City: "Berlin", Country: "DE"}}
		rec.Profile.Domain, rec.Profile.Name, rec.Profile.Latitude = d, "Acme GmbH", &lat
		rec.Profile.SubIndustry = map[string]float64{}
		rec.Score.Score = 512
		if err := s.Put(ctx, &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Version == 0 {
			t.Fatal("Put did not set the version")
		}
		got, err := s.Get(ctx, d)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Raw.Equal(rec.Raw) || got.Profile.Name != "Acme GmbH" || got.Score.Score != 512 || got.Version != rec.Version {
			t.Fatalf("got %+v, want %+v", got, rec)
		}
		if got.Profile.Latitude == nil || *got.Profile.Latitude != lat {
			t.Fatalf("latitude = %v", got.Profile.Latitude)
		}
		if got.Profile.SubIndustry == nil {
			t.Fatal("an empty sub_industry came back as nil: scored-with-no-match must survive storage")
		}
	})

	t.Run("OptimisticConcurrency", func(t *testing.T) {
		d := dom("occ")
		rec := company.Record{Domain: d}
		if err := s.Put(ctx, &rec); err != nil {
			t.Fatal(err)
		}
		again := company.Record{Domain: d}
		if err := s.Put(ctx, &again); !errors.Is(err, apperr.ErrConflict) {
			t.Fatalf("second create: err = %v, want ErrConflict", err)
		}
		a, _ := s.Get(ctx, d)
		b, _ := s.Get(ctx, d)
		a.Raw.Name = "first"
		if err := s.Put(ctx, &a); err != nil {
			t.Fatal(err)
		}
		b.Raw.Name = "second"
		if err := s.Put(ctx, &b); !errors.Is(err, apperr.ErrConflict) {
			t.Fatalf("stale update: err = %v, want ErrConflict", err)
		}
		got, _ := s.Get(ctx, d)
		if got.Raw.Name != "first" {
			t.Fatalf("name = %q, want first (a lost race must change nothing)", got.Raw.Name)
		}
	})

	t.Run("CertificatesNewestFirstAndIdempotent", func(t *testing.T) {
		d, other := dom("certs"), dom("other")
		base := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
		var batch []company.Certificate
		var want []string
		for i := 0; i < 25; i++ { // spread over three years
			c := cert(i, base.AddDate(0, i, 0))
			batch = append(batch, c)
			want = append(want, c.SHA1Fingerprint)
		}
		added, err := s.AddCertificates(ctx, d, batch[:10])
		if err != nil || len(added) != 10 {
			t.Fatalf("first batch: %d added, %v", len(added), err)
		}
		// An overlapping batch adds only what is new.
		added, err = s.AddCertificates(ctx, d, batch[5:])
		if err != nil || len(added) != 15 || added[company.CertKey(batch[4])] || !added[company.CertKey(batch[24])] {
			t.Fatalf("overlapping batch: %d added, %v", len(added), err)
		}
		if _, err := s.AddCertificates(ctx, other, []company.Certificate{cert(99, base)}); err != nil {
			t.Fatal(err)
		}
		added, err = s.AddCertificates(ctx, d, []company.Certificate{cert(3, base.AddDate(0, 3, 0))})
		if err != nil || len(added) != 0 {
			t.Fatalf("re-adding a certificate: added = %v, err = %v; want none", added, err)
		}
		got, err := s.Certificates(ctx, d, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 25 {
			t.Fatalf("%d certificates, want 25", len(got))
		}
		if !sort.SliceIsSorted(got, func(i, j int) bool { return got[i].DateFrom.After(got[j].DateFrom) }) {
			t.Fatal("certificates are not newest first")
		}
		if got[0].SHA1Fingerprint != want[24] || got[24].SHA1Fingerprint != want[0] {
			t.Fatalf("order: first %s last %s", got[0].SHA1Fingerprint, got[24].SHA1Fingerprint)
		}
		c := got[0]
		if c.FQDN != "www.example.com" || len(c.AlternativeFQDN) != 2 || !c.DateTo.Equal(c.DateFrom.AddDate(0, 3, 0)) || c.Organization != "Acme" {
			t.Fatalf("round trip lost fields: %+v", c)
		}
		top, err := s.Certificates(ctx, d, 10)
		if err != nil || len(top) != 10 || top[9].SHA1Fingerprint != want[15] {
			t.Fatalf("limit 10: %d certificates, err %v", len(top), err)
		}
		none, err := s.Certificates(ctx, dom("nocerts"), 0)
		if err != nil || len(none) != 0 {
			t.Fatalf("no certificates: %v, %v", none, err)
		}
	})

	t.Run("BusyYearSpansChunks", func(t *testing.T) {
		// 1,500 certificates in one year, some naming many hosts: more than one item's
		// worth, added in two batches in reverse time order.
		d := dom("busy")
		base := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
		var all []company.Certificate
		for i := 0; i < 1500; i++ {
			c := cert(1000+i, base.Add(time.Duration(i)*5*time.Hour))
			if i%10 == 0 {
				for h := 0; h < 200; h++ {
					c.AlternativeFQDN = append(c.AlternativeFQDN, fmt.Sprintf("host-%03d.example.com", h))
				}
			}
			all = append(all, c)
		}
		if added, err := s.AddCertificates(ctx, d, all[700:]); err != nil || len(added) != 800 {
			t.Fatalf("later half: %d added, %v", len(added), err)
		}
		if added, err := s.AddCertificates(ctx, d, all[:800]); err != nil || len(added) != 700 {
			t.Fatalf("earlier half: %d added, %v", len(added), err)
		}
		got, err := s.Certificates(ctx, d, 0)
		if err != nil || len(got) != 1500 {
			t.Fatalf("%d certificates, %v; want 1500", len(got), err)
		}
		for i, c := range got {
			if want := all[1499-i].SHA1Fingerprint; c.SHA1Fingerprint != want {
				t.Fatalf("position %d: %s, want %s (newest first)", i, c.SHA1Fingerprint, want)
			}
		}
		if len(got[1499].AlternativeFQDN) != 202 {
			t.Fatalf("a certificate lost names: %d", len(got[1499].AlternativeFQDN))
		}
		page, err := s.Certificates(ctx, d, 1000)
		if err != nil || len(page) != 1000 || page[999].SHA1Fingerprint != all[500].SHA1Fingerprint {
			t.Fatalf("limit 1000: %d, %v", len(page), err)
		}
	})

	t.Run("Pages", func(t *testing.T) {
		d := dom("pages")
		at := time.Date(2025, 5, 1, 12, 0, 0, 0, time.UTC)
		home := company.Page{URL: "https://" + d + "/", FetchedAt: at, StatusCode: 200, HTML: "<html>v1</html>", Text: "v1", Language: "eng"}
		team := company.Page{URL: "https://" + d + "/team", FetchedAt: at, StatusCode: 200, HTML: "<html>team</html>"}
		for _, p := range []company.Page{home, team} {
			if err := s.PutPage(ctx, d, p); err != nil {
				t.Fatal(err)
			}
		}
		home.HTML, home.Text = "<html>v2</html>", "v2"
		if err := s.PutPage(ctx, d, home); err != nil {
			t.Fatal(err)
		}
		got, err := s.Page(ctx, d, home.URL)
		if err != nil || got.HTML != "<html>v2</html>" || got.Language != "eng" || !got.FetchedAt.Equal(at) {
			t.Fatalf("Page = %+v, %v", got, err)
		}
		all, err := s.Pages(ctx, d)
		if err != nil || len(all) != 2 {
			t.Fatalf("Pages = %d pages, %v; want 2 (a page replaced, not added)", len(all), err)
		}
		if _, err := s.Page(ctx, d, "https://"+d+"/missing"); !errors.Is(err, apperr.ErrNotFound) {
			t.Fatalf("missing page: %v", err)
		}
	})

	t.Run("State", func(t *testing.T) {
		name := fmt.Sprintf("job-%d", time.Now().UnixNano())
		if _, err := s.GetState(ctx, name); !errors.Is(err, apperr.ErrNotFound) {
			t.Fatalf("missing state: %v", err)
		}
		if err := s.PutState(ctx, name, []byte(`{"cursor":"3"}`)); err != nil {
			t.Fatal(err)
		}
		got, err := s.GetState(ctx, name)
		if err != nil || string(got) != `{"cursor":"3"}` {
			t.Fatalf("state = %s, %v", got, err)
		}
	})

	t.Run("Site", func(t *testing.T) {
		d := dom("site")
		if _, err := s.Site(ctx, d); !errors.Is(err, apperr.ErrNotFound) {
			t.Fatalf("site of a domain without one: %v, want ErrNotFound", err)
		}
		site := company.Site{
			Resources: []company.Resource{{Kind: company.ResourceForm, URL: "https://formspree.io/f/x"}},
			TXT:       []string{"v=spf1 include:_spf.google.com ~all"},
			CNAME:     []company.CNAME{{Host: "help." + d, Target: "acme.zendesk.com"}},
		}
		if err := s.PutSite(ctx, d, site); err != nil {
			t.Fatal(err)
		}
		site.TXT = append(site.TXT, "google-site-verification=abc")
		if err := s.PutSite(ctx, d, site); err != nil {
			t.Fatal(err)
		}
		got, err := s.Site(ctx, d)
		if err != nil || len(got.Resources) != 1 || len(got.TXT) != 2 || len(got.CNAME) != 1 || got.CNAME[0].Target != "acme.zendesk.com" {
			t.Fatalf("site = %+v, %v; want the second write", got, err)
		}
	})

	t.Run("RedirectIndex", func(t *testing.T) {
		a, b, c := dom("target"), dom("other"), dom("source")
		if err := s.SetRedirect(ctx, c, "", a); err != nil {
			t.Fatal(err)
		}
		if err := s.SetRedirect(ctx, c, a, a); err != nil { // unchanged: idempotent
			t.Fatal(err)
		}
		if got, err := s.RedirectSources(ctx, a); err != nil || len(got) != 1 || got[0] != c {
			t.Fatalf("sources of %s = %v, %v; want [%s]", a, got, err, c)
		}
		if err := s.SetRedirect(ctx, c, a, b); err != nil { // moved
			t.Fatal(err)
		}
		if got, _ := s.RedirectSources(ctx, a); len(got) != 0 {
			t.Errorf("sources of the old target = %v, want none", got)
		}
		if got, _ := s.RedirectSources(ctx, b); len(got) != 1 || got[0] != c {
			t.Errorf("sources of the new target = %v, want [%s]", got, c)
		}
		if err := s.SetRedirect(ctx, c, b, ""); err != nil { // stopped redirecting
			t.Fatal(err)
		}
		if got, _ := s.RedirectSources(ctx, b); len(got) != 0 {
			t.Errorf("sources after the redirect ended = %v", got)
		}
	})

	t.Run("ListVisitsEveryRecordOnce", func(t *testing.T) {
		fresh := newStore(t)
		want := map[string]bool{}
		for i := 0; i < 53; i++ {
			d := fmt.Sprintf("list-%02d.example", i)
			want[d] = true
			if err := fresh.Put(ctx, &company.Record{Domain: d}); err != nil {
				t.Fatal(err)
			}
		}
		seen := map[string]int{}
		cursor, pages := "", 0
		for {
			recs, next, err := fresh.List(ctx, cursor, 7)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) > 7 {
				t.Fatalf("page of %d records, limit 7", len(recs))
			}
			for _, r := range recs {
				seen[r.Domain]++
				if r.Version == 0 {
					t.Fatalf("listed record %s has no version", r.Domain)
				}
			}
			pages++
			if next == "" {
				break
			}
			if pages > 100 {
				t.Fatal("List does not terminate")
			}
			cursor = next
		}
		if len(seen) != len(want) {
			t.Fatalf("listed %d domains, want %d", len(seen), len(want))
		}
		for d, c := range seen {
			if !want[d] || c != 1 {
				t.Fatalf("%s listed %d times", d, c)
			}
		}
		if _, _, err := fresh.List(ctx, "not-a-cursor", 5); !errors.Is(err, apperr.ErrInvalid) {
			t.Fatalf("bad cursor: %v", err)
		}
	})
}

func cert(i int, from time.Time) company.Certificate {
	return company.Certificate{
		SHA1Fingerprint: fmt.Sprintf("%040x", i+1),
		FQDN:            "www.example.com",
		AlternativeFQDN: []string{"example.com", "www.example.com"},
		Organization:    "Acme",
		Country:         "DE",
		DateFrom:        from,
		DateTo:          from.AddDate(0, 3, 0),
	}
}
