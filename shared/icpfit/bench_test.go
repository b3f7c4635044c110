package icpfit_test

import (
	"context"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/icpfit"
	"github.com/firmoapi/firmo/shared/icpfit/icptrain"
	"github.com/firmoapi/firmo/shared/world"
)

// BenchmarkScore10k scores 10,000 companies (400 derived demo-world companies, cycled)
// against one ICP per op, as a native-icp run of 10,000 domains does after reading
// the profiles: "structured" has only lines the profile answers, "with-text" adds a
// line only the description and homepage text can answer (the costliest kind).
func BenchmarkScore10k(b *testing.B) {
	w := world.New(world.Options{Seed: 13, Companies: 400, AsOf: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	subs, err := icptrain.NewPipeline(w).Subjects(context.Background(), w, 0, 400, nil)
	if err != nil {
		b.Fatal(err)
	}
	m, err := icpfit.DefaultModel()
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct{ name, icp string }{
		{"structured", "Mandatory:\n- B2B SaaS\n- 50-500 employees\n- based in Germany, Austria or Switzerland\nReject if:\n- agency\n- fewer than 10 employees\nNice-to-have:\n- uses HubSpot\n- revenue over $10M\n"},
		{"with-text", "Mandatory:\n- B2B SaaS\n- offers an API and integrations\n- based in Germany or the US\nReject if:\n- agency\nNice-to-have:\n- uses HubSpot\n"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			c, _ := icpfit.ParseCriteria(bc.icp)
			fits := 0
			b.ReportAllocs()
			for b.Loop() {
				for i := range 10000 {
					if m.Score(c, subs[i%len(subs)].Company).Fit {
						fits++
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/10000, "µs/company")
		})
	}
}
