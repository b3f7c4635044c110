package memlimit_test

import (
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/ratelimit"
	"github.com/firmoapi/firmo/shared/ratelimit/memlimit"
	"github.com/firmoapi/firmo/shared/ratelimit/ratelimittest"
)

func TestContract(t *testing.T) {
	ratelimittest.Run(t, func(t *testing.T, now func() time.Time) ratelimit.Limiter { return memlimit.New(now) })
}

func BenchmarkAllow(b *testing.B) {
	l := memlimit.New(time.Now)
	keys := []string{"org-a GET /v1/score", "org-b GET /v1/score", "org-a GET /v1/bizdata"}
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			l.Allow(b.Context(), keys[i%len(keys)], 1<<30)
			i++
		}
	})
}
