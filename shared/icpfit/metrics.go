package icpfit

import "math"

// Evaluate measures scored verdicts against their labels (true: a fit): the Brier
// score, the expected calibration error over 10 equal-width bins (the bin of a score s
// is floor(10 s), 1.0 falling in the last), the confidence bands' shares, and the
// accuracy of Fit within the high-confidence bands and overall.
func Evaluate(scores []float64, labels []bool) Metrics {
	n := len(scores)
	m := Metrics{Pairs: n}
	if n == 0 {
		return m
	}
	type acc struct {
		count      int
		sumS, sumY float64
	}
	var bins [10]acc
	var high, highRight, medium, low, right, pos int
	for i, s := range scores {
		y := 0.0
		if labels[i] {
			y = 1
			pos++
		}
		m.Brier += (s - y) * (s - y)
		b := min(int(math.Floor(s*10)), 9)
		bins[b].count++
		bins[b].sumS += s
		bins[b].sumY += y
		fit := s >= 0.5
		if fit == labels[i] {
			right++
		}
		switch BandOf(s) {
		case BandHigh:
			high++
			if fit == labels[i] {
				highRight++
			}
		case BandMedium:
			medium++
		default:
			low++
		}
	}
	fn := float64(n)
	m.Brier /= fn
	for b, a := range bins {
		if a.count == 0 {
			continue
		}
		ms, fr := a.sumS/float64(a.count), a.sumY/float64(a.count)
		m.ECE += float64(a.count) / fn * math.Abs(ms-fr)
		m.Bins = append(m.Bins, Bin{Lo: float64(b) / 10, Hi: float64(b+1) / 10, Count: a.count, MeanScore: ms, FitRate: fr})
	}
	m.HighShare, m.MediumShare, m.LowShare = float64(high)/fn, float64(medium)/fn, float64(low)/fn
	if high > 0 {
		m.HighAccuracy = float64(highRight) / float64(high)
	}
	m.Accuracy = float64(right) / fn
	m.Positives = float64(pos) / fn
	return m
}
