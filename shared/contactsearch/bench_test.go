package contactsearch

import (
	"context"
	"testing"
)

// BenchmarkSearch measures a search on the 60-company test world (about 890 contacts):
// filter-only, similarity and filtered similarity. The 100k and 1M benchmark is
// BenchmarkScale (bench_scale_test.go); its results are in BENCHMARKS.md.
func BenchmarkSearch(b *testing.B) {
	fixOnce.Do(func() { fix, fixErr = newFixture() })
	if fixErr != nil {
		b.Fatal(fixErr)
	}
	ctx := context.Background()
	for _, c := range []struct {
		name string
		p    Params
	}{
		{"filter", Params{Department: Strings{"Technology"}, HasEmail: ptr(true)}},
		{"similarity", Params{IcpText: "head of software development, kubernetes"}},
		{"filtered_similarity", Params{IcpText: "head of software development", PersonCountry: Strings{"DACH"}}},
	} {
		b.Run(c.name, func(b *testing.B) {
			req, err := Validate(c.p)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if _, err := fix.svc.Search(ctx, testOrg, req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
