package company

import (
	"math"
	"time"
)

// Status rules (documented in the README, "Company data"):
//
//   - A certificate valid on the day (date_from <= now < date_to) means the company runs
//     its site: active, with confidence 0.75 plus 0.05 per certificate issued in the
//     last 365 days (up to four), so 0.75 to 0.95.
//   - When none is valid, renewals may simply lag: up to renewalGrace after the last
//     certificate expired the company is still active, confidence falling from 0.6 to
//     0.5.
//   - Later it is closed, with confidence growing from 0.5 towards 0.95 over a year
//     without a certificate. end_date is the day its last certificate expired.
//   - Without any certificate there is no evidence either way: active, confidence 0.2.
//
// start_date is the issue date of the earliest certificate.
const renewalGrace = 30 * 24 * time.Hour

type certStatus struct {
	Status    Status
	StartDate *string
	EndDate   *string
}

func deriveStatus(certs []Certificate, now time.Time) certStatus {
	var first, lastExpiry time.Time
	validNow, recent := false, 0
	for _, c := range certs {
		if c.DateFrom.After(now) {
			continue // issued after the day being described
		}
		if first.IsZero() || c.DateFrom.Before(first) {
			first = c.DateFrom
		}
		if c.DateTo.After(lastExpiry) {
			lastExpiry = c.DateTo
		}
		if now.Before(c.DateTo) {
			validNow = true
		}
		if now.Sub(c.DateFrom) < 365*24*time.Hour {
			recent++
		}
	}
	if first.IsZero() {
		return certStatus{Status: Status{Status: StatusActive, Confidence: 0.2}}
	}
	start := Date(first)
	out := certStatus{StartDate: &start}
	gap := now.Sub(lastExpiry)
	switch {
	case validNow:
		out.Status = Status{StatusActive, round2(0.75 + 0.05*math.Min(float64(recent), 4))}
	case gap <= renewalGrace:
		out.Status = Status{StatusActive, round2(0.6 - 0.1*gap.Hours()/renewalGrace.Hours())}
	default:
		years := gap.Hours() / (365 * 24)
		out.Status = Status{StatusClosed, round2(math.Min(0.5+0.45*years, 0.95))}
		end := Date(lastExpiry)
		out.EndDate = &end
	}
	return out
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

func round4(f float64) float64 { return math.Round(f*10000) / 10000 }
