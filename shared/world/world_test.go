package world

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/company"
)

var asOf = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)

func TestLexicons(t *testing.T) {
	keys := []string{"nav", "team.path", "team.title", "team.intro", "about.title", "about", "services.title", "contact.title",
		"contact.phone", "contact.email", "cookie", "legal", "privacy", "rights", "parked", "street.format", "street",
		"first.m", "first.f", "last", "title", "name.root"}
	for _, m := range []string{"B2B", "B2C", "B2G", "D2C"} {
		keys = append(keys, "model."+m)
	}
	for _, ind := range Industries {
		keys = append(keys, "name.word."+ind, ind+".tagline", ind+".sentence", ind+".service")
	}
	for _, lang := range Languages {
		lx := lexicons()[lang]
		for _, k := range keys {
			if len(lx[k]) == 0 {
				t.Errorf("%s: missing %s", lang, k)
			}
		}
		for _, ind := range Industries {
			if n := len(lx[ind+".sentence"]); n < 5 {
				t.Errorf("%s %s: %d sentences, want 5", lang, ind, n)
			}
		}
		if len(lx) != len(lexicons()["en"]) {
			t.Errorf("%s has %d keys, en has %d", lang, len(lx), len(lexicons()["en"]))
		}
	}
}

func TestSameOptionsGiveByteIdenticalFiles(t *testing.T) {
	opts := Options{Seed: 42, Companies: 120, AsOf: asOf.Add(13 * time.Hour)} // the time of day does not count
	a, b := t.TempDir(), t.TempDir()
	if err := New(opts).Export(a, nil); err != nil {
		t.Fatal(err)
	}
	opts.AsOf = asOf
	if err := New(opts).Export(b, nil); err != nil {
		t.Fatal(err)
	}
	for _, name := range Files {
		x, err := os.ReadFile(filepath.Join(a, name))
		if err != nil {
			t.Fatal(err)
		}
		y, _ := os.ReadFile(filepath.Join(b, name))
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between two exports of the same world", name)
		}
		if len(x) == 0 {
			t.Errorf("%s is empty", name)
		}
	}
	other := t.TempDir()
	opts.Seed = 43
	if err := New(opts).Export(other, nil); err != nil {
		t.Fatal(err)
	}
	x, _ := os.ReadFile(filepath.Join(a, "certs.jsonl"))
	y, _ := os.ReadFile(filepath.Join(other, "certs.jsonl"))
	if bytes.Equal(x, y) {
		t.Error("another seed gave the same certificates")
	}
}

func TestCompanyDoesNotDependOnWorldSize(t *testing.T) {
	small := New(Options{Seed: 7, Companies: 30, AsOf: asOf})
	large := New(Options{Seed: 7, Companies: 300, AsOf: asOf})
	for i := 0; i < 30; i++ {
		x, _ := json.Marshal(small.Company(i))
		y, _ := json.Marshal(large.Company(i))
		if !bytes.Equal(x, y) {
			t.Fatalf("company %d differs between a 30- and a 300-company world", i)
		}
	}
}

func TestVariety(t *testing.T) {
	w := New(Options{Seed: 1, Companies: 2000, AsOf: asOf})
	langs, countries, shapes, providers := map[string]int{}, map[string]int{}, map[Shape]int{}, map[string]int{}
	closed, redirects, idn, urlRows, subRows, teams, longLived, tenYears := 0, 0, 0, 0, 0, 0, 0, 0
	for i := 0; i < w.Len(); i++ {
		c := w.Company(i)
		langs[c.Truth.Language]++
		countries[c.Truth.Country]++
		shapes[c.Truth.Shape]++
		providers[c.Truth.MXProvider]++
		if c.Truth.Status == company.StatusClosed {
			closed++
		}
		if c.Truth.RedirectTo != "" {
			redirects++
		}
		if strings.HasPrefix(c.Domain, "xn--") {
			idn++
		}
		if strings.HasPrefix(c.Row.Domain, "https://") {
			urlRows++
		}
		if d, _, err := c.Row.Parse(); err != nil {
			t.Fatalf("company %d: the world wrote a row Firmo rejects: %v", i, err)
		} else if d != c.Domain {
			t.Fatalf("company %d: row domain %q normalizes to %s, not %s", i, c.Row.Domain, d, c.Domain)
		} else if !strings.HasPrefix(c.Row.Domain, "www.") && !strings.HasPrefix(c.Row.Domain, "https://") && strings.Count(c.Row.Domain, ".") > strings.Count(c.Domain, ".") && !strings.HasPrefix(c.Domain, "xn--") {
			subRows++
		}
		if len(c.Truth.Team) > 0 {
			teams++
		}
		for _, ct := range c.Certs {
			if ct.DateTo.Sub(ct.DateFrom) > 3*365*24*time.Hour {
				longLived++
				break
			}
		}
		if len(c.Certs) > 0 && asOf.Sub(c.Certs[0].DateFrom) > 9*365*24*time.Hour {
			tenYears++
		}
	}
	for _, l := range []string{"eng", "deu", "fra", "spa", "por", "ita", "nld"} {
		if langs[l] < 40 {
			t.Errorf("language %s: %d companies", l, langs[l])
		}
	}
	for _, p := range []string{"google.com", "outlook.com", "pphosted.com", "mimecast.com", "ovh.net", "ionos.de", company.NoMX, ""} {
		if providers[p] == 0 {
			t.Errorf("no company with mail provider %q", p)
		}
	}
	for _, sh := range shapes {
		_ = sh
	}
	if len(shapes) != 7 {
		t.Errorf("shapes = %v", shapes)
	}
	checks := []struct {
		what     string
		got, min int
	}{
		{"countries", len(countries), 16}, {"closed", closed, 200}, {"redirects", redirects, 30}, {"IDN domains", idn, 5},
		{"rows given as URLs", urlRows, 50}, {"rows given as subdomains", subRows, 10}, {"team pages", teams, 1000},
		{"histories with a certificate over three years", longLived, 50}, {"histories reaching back nine years", tenYears, 300},
	}
	for _, c := range checks {
		if c.got < c.min {
			t.Errorf("%s: %d, want at least %d", c.what, c.got, c.min)
		}
	}
	if closed > 500 {
		t.Errorf("closed: %d of 2000", closed)
	}
}

func TestZoneMatchesCompanies(t *testing.T) {
	w := New(Options{Seed: 3, Companies: 100, AsOf: asOf})
	z := w.Zone()
	for i := 0; i < w.Len(); i++ {
		c := w.Company(i)
		if !reflect.DeepEqual(z[c.Domain], c.DNS) {
			t.Fatalf("%s: zone %+v, company %+v", c.Domain, z[c.Domain], c.DNS)
		}
	}
}

func TestDomainsDoNotDependOnTheDate(t *testing.T) {
	a := New(Options{Seed: 1, Companies: 500, AsOf: asOf})
	b := New(Options{Seed: 1, Companies: 500, AsOf: asOf.AddDate(1, 3, 17)})
	for i := 0; i < a.Len(); i++ {
		if a.Domain(i) != b.Domain(i) {
			t.Fatalf("company %d: %s on one date, %s on another", i, a.Domain(i), b.Domain(i))
		}
	}
}
