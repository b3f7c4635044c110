package score

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

var asOf = time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)

// daysAgo returns the instant d days before asOf (fractional days allowed).
func daysAgo(d float64) time.Time {
	return asOf.Add(-time.Duration(d * float64(24*time.Hour)))
}

// cert returns a certificate issued `issued` days before asOf and valid for `valid` days.
func cert(issued, valid float64) Certificate {
	from := daysAgo(issued)
	return Certificate{DateFrom: from, DateTo: from.Add(time.Duration(valid * float64(24*time.Hour)))}
}

// steady returns a certificate every `every` days over `years` years, each valid `valid` days.
func steady(years int, every, valid float64) []Certificate {
	var certs []Certificate
	for d := every / 2; d < float64(years*365); d += every {
		certs = append(certs, cert(d, valid))
	}
	return certs
}

func TestYearWeight(t *testing.T) {
	tests := []struct {
		x    int
		want float64
	}{
		{1, 0.4 + 0.5*math.Exp(-25.0/8)},
		{6, 1.15},
		{10, 0.4 + 0.5*math.Exp(-2) + 0.45},
	}
	for _, tt := range tests {
		if got := YearWeight(tt.x); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("YearWeight(%d) = %v, want %v", tt.x, got, tt.want)
		}
	}
	var sum float64
	for x := 1; x <= Years; x++ {
		sum += YearWeight(x)
	}
	if math.Abs(sum-8.720983779703895) > 1e-9 {
		t.Errorf("sum of weights = %v, want 8.721 as documented", sum)
	}
}

func TestDefaultConstantsFullHistory(t *testing.T) {
	c := DefaultConstants()
	if !c.Valid() {
		t.Fatalf("DefaultConstants() = %+v is not valid", c)
	}
	var full [Years]int
	for i := range full {
		full[i] = 4
	}
	if got, want := base(full, c), 741.283621274831; math.Abs(got-want) > 1e-9 {
		t.Errorf("full ten-year base = %v, want %v as documented", got, want)
	}
}

// The constants were chosen so that healthy, steady issuance over ten years lands in
// 600-750; weaker histories land lower.
func TestDefaultConstantsCalibration(t *testing.T) {
	tests := []struct {
		name     string
		certs    []Certificate
		min, max uint
	}{
		{"quarterly renewals for ten years", steady(10, 90, 90), 600, 750},
		{"several hosts, 60-day renewals for ten years", steady(10, 60, 90), 600, 750},
		{"yearly renewals of three hosts for ten years", append(append(steady(10, 365, 366), steady(10, 365, 366)...), steady(10, 365, 366)...), 500, 600},
		{"quarterly renewals for three years", steady(3, 90, 90), 100, 200},
		{"one yearly certificate for ten years", steady(10, 365, 366), 150, 250},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compute(tt.certs, asOf, DefaultConstants())
			if got.Score < tt.min || got.Score > tt.max {
				t.Errorf("score = %d, want %d..%d (parameters %+v)", got.Score, tt.min, tt.max, got.Parameters)
			}
		})
	}
}

func TestComputeEdgeCases(t *testing.T) {
	c := DefaultConstants()
	tests := []struct {
		name  string
		certs []Certificate
		c     Constants
		check func(t *testing.T, got Result)
	}{
		{
			name:  "empty list",
			certs: nil,
			c:     c,
			check: func(t *testing.T, got Result) {
				want := Result{Parameters: Parameters{Constants: c}}
				if got != want {
					t.Errorf("got %+v, want %+v", got, want)
				}
			},
		},
		{
			name:  "no certificate valid on the scoring date scores 0",
			certs: steady(10, 90, 80)[3:], // the latest certificate expired 90 days ago
			c:     c,
			check: func(t *testing.T, got Result) {
				if got.Parameters.ExpirationPenalty != 0 || got.Score != 0 {
					t.Errorf("expiration = %v, score = %d; want 0, 0", got.Parameters.ExpirationPenalty, got.Score)
				}
				if got.Parameters.BaseScore < 500 {
					t.Errorf("base = %v; the history should still have a high base", got.Parameters.BaseScore)
				}
			},
		},
		{
			name:  "certificate expiring exactly now is not valid",
			certs: []Certificate{{DateFrom: daysAgo(30), DateTo: asOf}},
			c:     c,
			check: func(t *testing.T, got Result) {
				if got.Parameters.ExpirationPenalty != 0 || got.Score != 0 {
					t.Errorf("expiration = %v, score = %d; want 0, 0", got.Parameters.ExpirationPenalty, got.Score)
				}
			},
		},
		{
			name:  "expiration ramps down over the last 14 days",
			certs: append(steady(10, 90, 90), cert(400, 407)), // the extra one expires in 7 days
			c:     c,
			check: func(t *testing.T, got Result) {
				// steady's latest certificate, issued 45 days ago for 90 days, expires later.
				if got.Parameters.ExpirationPenalty != 1 {
					t.Errorf("expiration = %v, want 1", got.Parameters.ExpirationPenalty)
				}
			},
		},
		{
			name:  "half expired",
			certs: []Certificate{cert(400, 407), cert(800, 30)},
			c:     c,
			check: func(t *testing.T, got Result) {
				if math.Abs(got.Parameters.ExpirationPenalty-0.5) > 1e-12 {
					t.Errorf("expiration = %v, want 0.5", got.Parameters.ExpirationPenalty)
				}
			},
		},
		{
			name:  "lookback_720 = 0 gives no growth",
			certs: []Certificate{cert(10, 90), cert(100, 90), cert(200, 90), cert(2000, 90)},
			c:     c,
			check: func(t *testing.T, got Result) {
				p := got.Parameters
				if p.Lookback360 != 3 || p.Lookback720 != 0 || p.GrowthBoost != 0 {
					t.Errorf("lookbacks %d/%d growth %v, want 3/0 and 0", p.Lookback360, p.Lookback720, p.GrowthBoost)
				}
			},
		},
		{
			name:  "growth",
			certs: []Certificate{cert(10, 90), cert(100, 90), cert(200, 90), cert(400, 90)},
			c:     c,
			check: func(t *testing.T, got Result) {
				if want := (3.0 - 1) / 4 * 50; got.Parameters.GrowthBoost != want {
					t.Errorf("growth = %v, want %v", got.Parameters.GrowthBoost, want)
				}
			},
		},
		{
			name: "growth floor at minus half of base",
			// One certificate now and ten a year ago: raw growth is -9/11*50 = -40.9,
			// while base is small (two years of 10 points x weight).
			certs: append([]Certificate{cert(10, 90)}, repeat(cert(500, 90), 10)...),
			c:     Constants{BaselineCertificates: 1, BaselinePoints: 10, MarketCoefficient: 1},
			check: func(t *testing.T, got Result) {
				p := got.Parameters
				wantBase := 10*YearWeight(1) + 10*YearWeight(2)
				if math.Abs(p.BaseScore-wantBase) > 1e-9 {
					t.Fatalf("base = %v, want %v", p.BaseScore, wantBase)
				}
				if p.GrowthBoost != -p.BaseScore/2 {
					t.Errorf("growth = %v, want the floor %v", p.GrowthBoost, -p.BaseScore/2)
				}
			},
		},
		{
			name:  "capped at 800",
			certs: steady(10, 30, 90),
			c:     Constants{BaselineCertificates: 4, BaselinePoints: 1000, MarketCoefficient: 1},
			check: func(t *testing.T, got Result) {
				if got.Score != MaxScore {
					t.Errorf("score = %d, want %d", got.Score, MaxScore)
				}
			},
		},
		{
			name: "certificates valid over three years are ignored for recency",
			// The five-year certificate issued two years ago would make recency 1.
			certs: []Certificate{cert(730, 5*365), cert(100, 365)},
			c:     c,
			check: func(t *testing.T, got Result) {
				p := got.Parameters
				if want := 100.0 / 365; math.Abs(p.RecencyMultiplier-want) > 1e-12 {
					t.Errorf("recency = %v, want %v", p.RecencyMultiplier, want)
				}
				// It still counts for expiration and the base.
				if p.ExpirationPenalty != 1 || p.YearCounts[2] != 1 {
					t.Errorf("expiration %v, year 3 count %d; want 1 and 1", p.ExpirationPenalty, p.YearCounts[2])
				}
			},
		},
		{
			name:  "certificate valid exactly three years counts for recency",
			certs: []Certificate{cert(730, 3*365), cert(100, 365)},
			c:     c,
			check: func(t *testing.T, got Result) {
				if got.Parameters.RecencyMultiplier != 1 {
					t.Errorf("recency = %v, want 1", got.Parameters.RecencyMultiplier)
				}
			},
		},
		{
			name:  "only certificates older than three years give recency 0",
			certs: []Certificate{cert(1200, 5*365)},
			c:     c,
			check: func(t *testing.T, got Result) {
				p := got.Parameters
				if p.RecencyMultiplier != 0 || p.ExpirationPenalty != 1 || got.Score != 0 {
					t.Errorf("recency %v expiration %v score %d; want 0, 1, 0", p.RecencyMultiplier, p.ExpirationPenalty, got.Score)
				}
			},
		},
		{
			name:  "recency is days since the first recent certificate over 365",
			certs: []Certificate{cert(73, 90), cert(10, 90)},
			c:     c,
			check: func(t *testing.T, got Result) {
				if want := 0.2; math.Abs(got.Parameters.RecencyMultiplier-want) > 1e-12 {
					t.Errorf("recency = %v, want %v", got.Parameters.RecencyMultiplier, want)
				}
			},
		},
		{
			name:  "certificates issued after the scoring date are ignored",
			certs: []Certificate{cert(-5, 90), cert(-400, 90)},
			c:     c,
			check: func(t *testing.T, got Result) {
				want := Result{Parameters: Parameters{Constants: c}}
				if got != want {
					t.Errorf("got %+v, want %+v", got, want)
				}
			},
		},
		{
			name:  "year boundaries",
			certs: []Certificate{cert(0, 1), cert(364.99, 400), cert(365, 400), cert(3649.99, 1), cert(3650, 1)},
			c:     c,
			check: func(t *testing.T, got Result) {
				want := [Years]int{2, 1, 0, 0, 0, 0, 0, 0, 0, 1}
				if got.Parameters.YearCounts != want {
					t.Errorf("year counts = %v, want %v", got.Parameters.YearCounts, want)
				}
			},
		},
		{
			name:  "lookback boundaries",
			certs: []Certificate{cert(359.99, 1), cert(360, 1), cert(719.99, 1), cert(720, 1)},
			c:     c,
			check: func(t *testing.T, got Result) {
				p := got.Parameters
				if p.Lookback360 != 1 || p.Lookback720 != 2 {
					t.Errorf("lookbacks = %d/%d, want 1/2", p.Lookback360, p.Lookback720)
				}
			},
		},
		{
			name:  "first event is the earliest issue date",
			certs: []Certificate{cert(100, 90), cert(4000, 365), cert(-3, 90), cert(50, 90)},
			c:     c,
			check: func(t *testing.T, got Result) {
				if want := daysAgo(4000); !got.FirstEvent.Equal(want) {
					t.Errorf("first event = %v, want %v", got.FirstEvent, want)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.check(t, Compute(tt.certs, asOf, tt.c))
		})
	}
}

func repeat(c Certificate, n int) []Certificate {
	out := make([]Certificate, n)
	for i := range out {
		out[i] = c
	}
	return out
}

func TestConstantsValid(t *testing.T) {
	tests := []struct {
		c    Constants
		want bool
	}{
		{DefaultConstants(), true},
		{Constants{0, 100, 1}, false},
		{Constants{4, -1, 1}, false},
		{Constants{4, 100, 0}, false},
	}
	for _, tt := range tests {
		if got := tt.c.Valid(); got != tt.want {
			t.Errorf("%+v.Valid() = %v, want %v", tt.c, got, tt.want)
		}
	}
}

// TestComputeMatchesReference checks Compute against a straightforward re-implementation
// of the API reference over many random histories.
func TestComputeMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	constants := []Constants{
		DefaultConstants(),
		{BaselineCertificates: 1, BaselinePoints: 10, MarketCoefficient: 1}, // growth floor often binds
		{BaselineCertificates: 2.5, BaselinePoints: 150, MarketCoefficient: 0.9},
		{BaselineCertificates: 3, BaselinePoints: 400, MarketCoefficient: 1}, // the cap often binds
	}
	for i := range 5000 {
		certs := randomHistory(rng)
		c := constants[i%len(constants)]
		got := Compute(certs, asOf, c)
		want, raw := reference(certs, asOf, c)
		if !sameParameters(got.Parameters, want.Parameters) || !got.FirstEvent.Equal(want.FirstEvent) {
			t.Fatalf("history %d: got %+v\nwant %+v\ncerts %v", i, got, want, certs)
		}
		// At an exact integer, rounding noise may move ceil by one.
		if got.Score != want.Score && math.Abs(raw-math.Round(raw)) > 1e-6 {
			t.Fatalf("history %d: score %d, want %d (raw %v)", i, got.Score, want.Score, raw)
		}
	}
}

func sameParameters(a, b Parameters) bool {
	close := func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(y)) }
	return close(a.BaseScore, b.BaseScore) && close(a.RecencyMultiplier, b.RecencyMultiplier) &&
		close(a.GrowthBoost, b.GrowthBoost) && close(a.ExpirationPenalty, b.ExpirationPenalty) &&
		a.Lookback360 == b.Lookback360 && a.Lookback720 == b.Lookback720 &&
		a.YearCounts == b.YearCounts && a.Constants == b.Constants
}

// randomHistory draws a company: a start up to 12 years ago, bursts and gaps of issuance,
// validity periods from 30 days to 10 years, and now and then certificates from the future.
func randomHistory(rng *rand.Rand) []Certificate {
	validities := []float64{30, 90, 90, 90, 365, 397, 730, 1095, 1096, 1825, 3650}
	var certs []Certificate
	n := rng.IntN(60)
	start := rng.Float64() * 12 * 365
	for range n {
		issued := rng.Float64() * start
		if rng.IntN(20) == 0 {
			issued = -rng.Float64() * 100
		}
		if rng.IntN(10) == 0 {
			issued = math.Round(issued) // land on day and window boundaries too
		}
		certs = append(certs, cert(issued, validities[rng.IntN(len(validities))]))
	}
	return certs
}

// reference follows the API reference's wording literally, with windows as explicit date ranges.
func reference(certs []Certificate, at time.Time, c Constants) (Result, float64) {
	const dayDur = 24 * time.Hour
	var issued []Certificate
	for _, ce := range certs {
		if !ce.DateFrom.After(at) {
			issued = append(issued, ce)
		}
	}
	var r Result
	r.Parameters.Constants = c
	for _, ce := range issued {
		if r.FirstEvent.IsZero() || ce.DateFrom.Before(r.FirstEvent) {
			r.FirstEvent = ce.DateFrom
		}
	}
	inWindow := func(ce Certificate, fromDays, toDays int) bool { // issued in (at-toDays, at-fromDays]
		lo := at.Add(-time.Duration(toDays) * dayDur)
		hi := at.Add(-time.Duration(fromDays) * dayDur)
		return ce.DateFrom.After(lo) && !ce.DateFrom.After(hi)
	}

	p := &r.Parameters
	for x := 1; x <= 10; x++ {
		for _, ce := range issued {
			if inWindow(ce, 365*(x-1), 365*x) {
				p.YearCounts[x-1]++
			}
		}
		weight := 0.4 + 0.5*math.Exp(-math.Pow(float64(x)-6, 2)/8) + 0.05*(float64(x)-1)
		p.BaseScore += math.Min(float64(p.YearCounts[x-1])/c.BaselineCertificates, 1) * c.BaselinePoints * c.MarketCoefficient * weight
	}

	var firstRecent *Certificate
	for i, ce := range issued {
		if !inWindow(ce, 0, 3*365) || ce.DateTo.Sub(ce.DateFrom) > 3*365*dayDur {
			continue
		}
		if firstRecent == nil || ce.DateFrom.Before(firstRecent.DateFrom) {
			firstRecent = &issued[i]
		}
	}
	if firstRecent != nil {
		p.RecencyMultiplier = math.Min(at.Sub(firstRecent.DateFrom).Seconds()/86400/365, 1)
	}

	for _, ce := range issued {
		if inWindow(ce, 0, 360) {
			p.Lookback360++
		}
		if inWindow(ce, 360, 720) {
			p.Lookback720++
		}
	}
	if p.Lookback720 > 0 {
		p.GrowthBoost = float64(p.Lookback360-p.Lookback720) / float64(p.Lookback360+p.Lookback720) * 50
		if p.GrowthBoost < -p.BaseScore/2 {
			p.GrowthBoost = -p.BaseScore / 2
		}
	}

	var latest *Certificate
	for i, ce := range issued {
		valid := !ce.DateFrom.After(at) && ce.DateTo.After(at)
		if valid && (latest == nil || ce.DateTo.After(latest.DateTo)) {
			latest = &issued[i]
		}
	}
	if latest != nil {
		p.ExpirationPenalty = math.Min(latest.DateTo.Sub(at).Seconds()/86400/14, 1)
	}

	raw := (p.BaseScore*p.RecencyMultiplier + p.GrowthBoost) * p.ExpirationPenalty
	raw = math.Min(math.Max(raw, 0), 800)
	r.Score = uint(math.Ceil(raw))
	return r, raw
}
