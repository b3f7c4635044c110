package world

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/geo"
)

// historyYears is how far back certificate histories reach.
const historyYears = 10

// maxCerts bounds one company's history.
const maxCerts = 4000

// certificates writes a company's certificate history from its founding (or ten years
// back) to its closing (or the world's date), with the issuance rate its size and shape
// give: small firms renew a couple of hosts, large ones hundreds of names a year.
//
// Validity follows the eras of the web PKI: before 2016 one to three years (a few
// four- and five-year certificates, which the score's recency ignores); 2016-2019 a mix
// of 90-day ACME certificates and one- to two-year ones; since 2020 mostly 90 days or
// 397 days. Fingerprints are SHA-1 digests of a deterministic description of each
// certificate: the world holds certificate records, not DER.
func (w *World) certificates(i int, s skeleton, hosts []string) []company.Certificate {
	r := w.rng(i, streamCerts)
	asOf := w.opts.AsOf
	start := s.founded
	if earliest := asOf.AddDate(-historyYears, 0, 7); start.Before(earliest) {
		start = earliest
	}
	end := asOf
	if !s.closed.IsZero() {
		end = s.closed
	}
	// Certificates per year at full activity.
	rate := 1.5 + math.Log2(float64(s.employees)+1)*0.9
	if s.employees > 5000 {
		rate = 40 + float64(r.IntN(120))
	}
	burst := make([]float64, historyYears+2)
	for k := range burst {
		burst[k] = 0.2 + 2.3*r.Float64()
	}
	ov := r.IntN(100) < 30 // organisation-validated certificates name the company
	var out []company.Certificate
	acc := r.Float64()
	for m := start; m.Before(end) && len(out) < maxCerts; m = m.AddDate(0, 1, 0) {
		t := float64(m.Sub(start)) / float64(end.Sub(start)+1)
		acc += rate * shapeFactor(s.shape, t, burst[int(asOf.Sub(m).Hours()/(365*24))%len(burst)]) / 12
		for ; acc >= 1 && len(out) < maxCerts; acc-- {
			from := m.Add(time.Duration(r.Int64N(int64(30 * 24 * time.Hour))))
			if !from.Before(end) {
				continue
			}
			c := w.cert(r, s, hosts, from, len(out), ov)
			if !s.closed.IsZero() && c.DateTo.After(s.closed.AddDate(0, 0, 30)) {
				// A closing company's last certificates lapse with it.
				c.DateTo = s.closed.AddDate(0, 0, 30)
			}
			out = append(out, c)
		}
	}
	if s.closed.IsZero() {
		out = ensureValid(r, w, s, hosts, out, ov)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].DateFrom.Before(out[b].DateFrom) })
	return out
}

// shapeFactor scales the issuance rate at time t (0 = start of history, 1 = its end).
func shapeFactor(sh Shape, t, burst float64) float64 {
	switch sh {
	case ShapeGrowing:
		return 0.25 + 1.5*t
	case ShapeDeclining:
		return 1.6 - 1.3*t
	case ShapeBursty:
		return burst
	case ShapeLegacy:
		return 0.5
	}
	return 1
}

func validity(r *rand.Rand, sh Shape, from time.Time) time.Duration {
	day := 24 * time.Hour
	year := from.Year()
	switch {
	case sh == ShapeLegacy && year < 2020 && r.IntN(100) < 35:
		return time.Duration(2+r.IntN(4)) * 365 * day // 2 to 5 years, before the CA/B limits
	case year < 2016:
		if r.IntN(100) < 8 {
			return time.Duration(4+r.IntN(2)) * 365 * day // over three years
		}
		return time.Duration(1+r.IntN(3)) * 365 * day
	case year < 2020:
		if r.IntN(2) == 0 {
			return 90 * day
		}
		return time.Duration(1+r.IntN(2)) * 365 * day
	}
	if r.IntN(100) < 70 {
		return 90 * day
	}
	return 397 * day
}

func (w *World) cert(r *rand.Rand, s skeleton, hosts []string, from time.Time, n int, ov bool) company.Certificate {
	from = from.Truncate(time.Second)
	to := from.Add(validity(r, s.shape, from))
	var names []string
	switch k := r.IntN(10); {
	case k < 6 || len(hosts) == 0:
		names = []string{"www." + s.domain, s.domain}
	case k < 8:
		names = []string{pick(r, hosts) + "." + s.domain}
	case k < 9:
		names = []string{"*." + s.domain, s.domain}
	default:
		names = []string{s.domain, "www." + s.domain}
		for _, h := range hosts {
			if r.IntN(2) == 0 {
				names = append(names, h+"."+s.domain)
			}
		}
	}
	c := company.Certificate{FQDN: names[0], AlternativeFQDN: names, DateFrom: from, DateTo: to}
	if ov {
		c.Organization, c.City, c.Country = s.name, s.place.Name, s.country.Code
		if sub, ok := geo.LookupSubdivision(s.place.State); ok {
			c.State = sub.DisplayName()
		}
	}
	sum := sha1.Sum([]byte(fmt.Sprintf("firmo-world|%d|%s|%d|%d|%v", w.opts.Seed, s.domain, n, from.Unix(), names)))
	c.SHA1Fingerprint = hex.EncodeToString(sum[:])
	return c
}

// ensureValid gives a live company a certificate valid on the world's date when its
// random history happens to end without one: a running site always has one.
func ensureValid(r *rand.Rand, w *World, s skeleton, hosts []string, certs []company.Certificate, ov bool) []company.Certificate {
	asOf := w.opts.AsOf
	for _, c := range certs {
		if !c.DateFrom.After(asOf) && c.DateTo.After(asOf.Add(15*24*time.Hour)) {
			return certs
		}
	}
	from := asOf.Add(-time.Duration(1+r.IntN(60)) * 24 * time.Hour).Add(time.Duration(r.IntN(86400)) * time.Second)
	if from.Before(s.founded) {
		from = s.founded
	}
	c := w.cert(r, s, hosts, from, len(certs), ov)
	if c.DateTo.Sub(c.DateFrom) < 90*24*time.Hour || !c.DateTo.After(asOf.Add(15*24*time.Hour)) {
		c.DateTo = from.Add(90 * 24 * time.Hour)
		if !c.DateTo.After(asOf.Add(15 * 24 * time.Hour)) {
			c.DateTo = asOf.Add(60 * 24 * time.Hour)
		}
	}
	return append(certs, c)
}
