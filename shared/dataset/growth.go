package dataset

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/firmoapi/firmo/shared/company"
)

// Quarter is a calendar quarter (UTC).
type Quarter struct {
	Year int
	Q    int // 1-4
}

// Label is the quarter as growth's field names write it: "2026q3".
func (q Quarter) Label() string { return fmt.Sprintf("%dq%d", q.Year, q.Q) }

// Start is the quarter's first instant.
func (q Quarter) Start() time.Time {
	return time.Date(q.Year, time.Month(3*(q.Q-1)+1), 1, 0, 0, 0, 0, time.UTC)
}

// End is the instant growth evaluates a quarter at: the last second of its last day
// (23:59:59 UTC).
func (q Quarter) End() time.Time { return q.Start().AddDate(0, 3, 0).Add(-time.Second) }

// QuarterOf is the quarter holding t.
func QuarterOf(t time.Time) Quarter {
	t = t.UTC()
	return Quarter{Year: t.Year(), Q: (int(t.Month())-1)/3 + 1}
}

// prev is the quarter before q.
func (q Quarter) prev() Quarter {
	if q.Q == 1 {
		return Quarter{Year: q.Year - 1, Q: 4}
	}
	return Quarter{Year: q.Year, Q: q.Q - 1}
}

// LastQuarters returns the n quarters completed before now, oldest first.
func LastQuarters(now time.Time, n int) []Quarter {
	out := make([]Quarter, n)
	q := QuarterOf(now)
	for i := n - 1; i >= 0; i-- {
		q = q.prev()
		out[i] = q
	}
	return out
}

// growthFields are growth's field names: score_<quarter> for each quarter oldest
// first, subdomains_<quarter> likewise, then the two growth rates.
func growthFields(qs []Quarter) []string {
	var out []string
	for _, q := range qs {
		out = append(out, "score_"+q.Label())
	}
	for _, q := range qs {
		out = append(out, "subdomains_"+q.Label())
	}
	return append(out, "score_growth_3m", "subdomain_growth_3m")
}

// GrowthAt is growth's raw figures for one quarter end: the score on that date and the
// number of distinct subdomains named by certificates valid then.
func GrowthAt(dom string, certs []company.Certificate, s Scorer, at time.Time) (score uint, subdomains int) {
	names := map[string]bool{}
	for _, c := range certs {
		if c.DateFrom.After(at) || !c.DateTo.After(at) {
			continue
		}
		for _, n := range append([]string{c.FQDN}, c.AlternativeFQDN...) {
			if n, ok := company.SubdomainName(dom, n); ok {
				names[n] = true
			}
		}
	}
	return s.Score(certs, at).Score, len(names)
}

// Rate is the relative change from prev to last, rounded to four decimals; nil when
// prev is 0 (no base to grow from).
func Rate(prev, last float64) *float64 {
	if prev == 0 {
		return nil
	}
	r := math.Round((last-prev)/prev*1e4) / 1e4
	return &r
}

// growthValues computes growth for one domain: the figures of GrowthAt at the end of
// each quarter, and the growth rates between the last two quarters (3 months).
func (s *Service) growthValues(ctx context.Context, dom string, qs []Quarter) ([]json.RawMessage, bool, error) {
	certs, err := s.store.Certificates(ctx, dom, 0)
	if err != nil {
		return nil, false, err
	}
	scores := make([]json.RawMessage, len(qs))
	subs := make([]json.RawMessage, len(qs))
	var sc, sd []float64
	for i, q := range qs {
		a, b := GrowthAt(dom, certs, s.scorer, q.End())
		scores[i], subs[i] = marshal(a), marshal(b)
		sc, sd = append(sc, float64(a)), append(sd, float64(b))
	}
	out := append(scores, subs...)
	n := len(qs)
	if n >= 2 {
		out = append(out, marshal(Rate(sc[n-2], sc[n-1])), marshal(Rate(sd[n-2], sd[n-1])))
	} else {
		out = append(out, null, null)
	}
	return out, len(certs) > 0, nil
}
