package score

import (
	"math"
	"time"
)

// Fixed by the API reference; only the three Constants are Firmo's choice.
const (
	// Years is the number of one-year windows the base score looks back over.
	Years = 10
	// MaxScore caps the score.
	MaxScore = 800

	day              = 24 * time.Hour
	year             = 365 * day
	lookbackWindow   = 360 * day
	recencyHorizon   = 3 * year // recency looks at certificates issued this recently
	maxRecencyValid  = 3 * year // certificates valid longer than this are ignored for recency
	expirationRamp   = 14       // days before expiry at which the expiration factor starts to fall
	growthScale      = 50.0
	growthFloorRatio = 0.5 // growth never takes more than half of base away
)

// Certificate is the part of a certificate record the score reads: its validity period
// (the API reference's date_from and date_to, X.509 notBefore and notAfter). DateFrom is taken as
// the issue date.
type Certificate struct {
	DateFrom time.Time
	DateTo   time.Time
}

// Constants are the tunable inputs of the formula that the API reference leaves to Firmo. They are
// returned with every score so it can be recomputed by hand.
type Constants struct {
	// BaselineCertificates is the number of certificates issued in one year that earns
	// the year its full points.
	BaselineCertificates float64 `json:"baseline_certificates"`
	// BaselinePoints is what a full year is worth before the year weight.
	BaselinePoints float64 `json:"baseline_points"`
	// MarketCoefficient scales every year's points.
	MarketCoefficient float64 `json:"market_coefficient"`
}

// DefaultConstants returns the constants Firmo scores with; doc.go explains the choice.
func DefaultConstants() Constants {
	return Constants{BaselineCertificates: 4, BaselinePoints: 100, MarketCoefficient: 0.85}
}

// Parameters are the intermediate values of one score, named as in the API's
// `parameters` object, plus what is needed to recompute the base by hand.
type Parameters struct {
	BaseScore         float64 `json:"base_score"`
	RecencyMultiplier float64 `json:"recency_multiplier"`
	GrowthBoost       float64 `json:"growth_boost"`
	ExpirationPenalty float64 `json:"expiration_penalty"`
	Lookback360       int     `json:"lookback_360"`
	Lookback720       int     `json:"lookback_720"`
	// YearCounts[x-1] is the number of certificates issued in year x (see doc.go).
	YearCounts [Years]int `json:"year_counts"`
	Constants  Constants  `json:"constants"`
}

// Result is one company's score on one scoring date.
type Result struct {
	Score uint
	// FirstEvent is the DateFrom of the earliest certificate issued on or before the
	// scoring date; zero when there is none.
	FirstEvent time.Time
	Parameters Parameters
}

// YearWeight is the weight of year x (1 = the most recent year) in the base score.
func YearWeight(x int) float64 {
	d := float64(x - 6)
	return 0.4 + 0.5*math.Exp(-d*d/8) + 0.05*float64(x-1)
}

// Compute scores the certificates of one company as of asOf. Certificates issued after
// asOf are ignored, so a past date gives the score the company had then. Constants must
// be positive (see Constants.Valid).
func Compute(certs []Certificate, asOf time.Time, c Constants) Result {
	p := Parameters{Constants: c}
	var first time.Time
	var oldestRecent time.Duration = -1 // age of the first certificate that counts for recency
	var latestExpiry time.Time
	for _, cert := range certs {
		age := asOf.Sub(cert.DateFrom)
		if age < 0 {
			continue
		}
		if first.IsZero() || cert.DateFrom.Before(first) {
			first = cert.DateFrom
		}
		if x := int(age / year); x < Years {
			p.YearCounts[x]++
		}
		switch {
		case age < lookbackWindow:
			p.Lookback360++
		case age < 2*lookbackWindow:
			p.Lookback720++
		}
		if age < recencyHorizon && cert.DateTo.Sub(cert.DateFrom) <= maxRecencyValid && age > oldestRecent {
			oldestRecent = age
		}
		if asOf.Before(cert.DateTo) && cert.DateTo.After(latestExpiry) {
			latestExpiry = cert.DateTo
		}
	}

	p.BaseScore = base(p.YearCounts, c)
	if oldestRecent >= 0 {
		p.RecencyMultiplier = math.Min(days(oldestRecent)/365, 1)
	}
	p.GrowthBoost = growth(p.Lookback360, p.Lookback720, p.BaseScore)
	if !latestExpiry.IsZero() {
		p.ExpirationPenalty = math.Min(days(latestExpiry.Sub(asOf))/expirationRamp, 1)
	}

	raw := (p.BaseScore*p.RecencyMultiplier + p.GrowthBoost) * p.ExpirationPenalty
	return Result{Score: uint(math.Ceil(math.Min(math.Max(raw, 0), MaxScore))), FirstEvent: first, Parameters: p}
}

// Valid reports whether the constants can score: all must be positive.
func (c Constants) Valid() bool {
	return c.BaselineCertificates > 0 && c.BaselinePoints > 0 && c.MarketCoefficient > 0
}

func base(counts [Years]int, c Constants) float64 {
	var sum float64
	for i, n := range counts {
		fill := 0.0
		if n > 0 {
			// A non-positive baseline would divide by zero; any certificate then fills the year.
			fill = 1
			if c.BaselineCertificates > 0 {
				fill = math.Min(float64(n)/c.BaselineCertificates, 1)
			}
		}
		sum += fill * c.BaselinePoints * c.MarketCoefficient * YearWeight(i+1)
	}
	return sum
}

func growth(l360, l720 int, base float64) float64 {
	if l720 == 0 {
		return 0
	}
	g := float64(l360-l720) / float64(l360+l720) * growthScale
	return math.Max(g, -growthFloorRatio*base)
}

// days converts a duration to fractional days, the unit of every rule of the formula.
func days(d time.Duration) float64 { return d.Hours() / 24 }
