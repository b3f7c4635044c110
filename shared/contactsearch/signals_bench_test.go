package contactsearch

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// syntheticCompanies are n companies with 40 description words and 8 keywords drawn
// from a 5,000-word vocabulary (Zipf-like) and one to three of 30 technologies.
func syntheticCompanies(n int) map[string]*companyInfo {
	r := rand.New(rand.NewPCG(1, 2))
	z := rand.NewZipf(r, 1.1, 1, 4999)
	word := func() string { return fmt.Sprintf("w%d", z.Uint64()) }
	cos := make(map[string]*companyInfo, n)
	for i := range n {
		var d signalDoc
		for range 1 + r.IntN(3) {
			d[0] += fmt.Sprintf(" tech%d", r.IntN(30))
		}
		for range 8 {
			d[1] += " " + word()
		}
		d[2] = "software saas"
		for range 40 {
			d[3] += " " + word()
		}
		dom := fmt.Sprintf("c%d.test", i)
		cos[dom] = &companyInfo{Domain: dom, signal: d}
	}
	return cos
}

// BenchmarkCompanyIndex: building the company search over 100k companies (once per
// snapshot, on the first signal search) and one search of two signals.
func BenchmarkCompanyIndex(b *testing.B) {
	cos := syntheticCompanies(100_000)
	b.Run("build-100k", func(b *testing.B) {
		for b.Loop() {
			newCompanyIndex(cos)
		}
	})
	ix := newCompanyIndex(cos)
	b.Run("search-100k", func(b *testing.B) {
		hits := 0
		for b.Loop() {
			hits = len(ix.search([]string{"tech7", "w120"}))
		}
		b.ReportMetric(float64(hits), "companies")
	})
}
