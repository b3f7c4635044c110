package world

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/company"
)

// TestSiteMaterial checks the site material is deterministic, leaves the companies as
// they were, and holds every kind of raw material the vendors dataset reads, with the
// vendors it names in the truth.
func TestSiteMaterial(t *testing.T) {
	opts := Options{Seed: 3, Companies: 200, AsOf: time.Date(2026, 5, 14, 0, 0, 0, 0, time.UTC)}
	w, again := New(opts), New(opts)
	kinds := map[string]int{}
	var spf, verify, cname, withVendors int
	for i := range w.Len() {
		c := w.Company(i)
		before, _ := json.Marshal(c)
		s := w.Site(i, c)
		after, _ := json.Marshal(c)
		if string(before) != string(after) {
			t.Fatalf("%s: Site changed the company", c.Domain)
		}
		x, _ := json.Marshal(s)
		y, _ := json.Marshal(again.Site(i, again.Company(i)))
		if string(x) != string(y) {
			t.Fatalf("%s: site material differs between two worlds of the same options", c.Domain)
		}
		for _, r := range s.Material.Resources {
			kinds[r.Kind]++
		}
		for _, txt := range s.Material.TXT {
			if strings.HasPrefix(txt, "v=spf1") {
				spf++
			} else {
				verify++
			}
		}
		cname += len(s.Material.CNAME)
		if !slices.IsSorted(s.Vendors) {
			t.Errorf("%s: vendors not sorted: %v", c.Domain, s.Vendors)
		}
		if len(s.Vendors) > 0 {
			withVendors++
		}
		if c.DNS.NXDomain && (len(s.Material.TXT) > 0 || len(s.Material.CNAME) > 0) {
			t.Errorf("%s: an expired domain has DNS records", c.Domain)
		}
	}
	for _, k := range []string{company.ResourceScript, company.ResourceStylesheet, company.ResourceIframe, company.ResourceForm} {
		if kinds[k] < 10 {
			t.Errorf("%d %s resources in %d companies", kinds[k], k, w.Len())
		}
	}
	if spf < w.Len()/2 || verify < 20 || cname < 20 || withVendors < w.Len()/2 {
		t.Errorf("spf %d, verification %d, cname %d, companies with site vendors %d", spf, verify, cname, withVendors)
	}
}
