package icptrain

import (
	"fmt"
	"strings"

	"github.com/firmoapi/firmo/shared/icpfit"
)

// ReliabilitySVG draws a reliability diagram of held-out metrics: per bin of 0.1 the
// mean score (x) against the observed fit rate (y), each point sized by its share
// of rows, with the diagonal of perfect calibration and the bins' counts. No plotting
// library is served here for SVG output this small, so it is written by hand.
func ReliabilitySVG(m icpfit.Metrics, title string) []byte {
	const size, pad = 420.0, 50.0
	plot := size - 2*pad
	px := func(v float64) float64 { return pad + v*plot }
	py := func(v float64) float64 { return size - pad - v*plot }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="sans-serif" font-size="11">`+"\n", size, size+40, size, size+40)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%g" y="20" font-size="13" text-anchor="middle">%s</text>`+"\n", size/2, escape(title))
	for i := 0; i <= 10; i++ {
		v := float64(i) / 10
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eee"/>`+"\n", px(v), py(0), px(v), py(1))
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#eee"/>`+"\n", px(0), py(v), px(1), py(v))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%.1f</text>`+"\n", px(v), py(0)+15, v)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%.1f</text>`+"\n", px(0)-5, py(v)+4, v)
	}
	fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#333"/>`+"\n", px(0), py(1), plot, plot)
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#999" stroke-dasharray="4 3"/>`+"\n", px(0), py(0), px(1), py(1))
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">mean ICP Score in bin</text>`+"\n", size/2, size-pad+32)
	fmt.Fprintf(&b, `<text x="15" y="%.1f" text-anchor="middle" transform="rotate(-90 15 %.1f)">observed fit rate</text>`+"\n", size/2, size/2)
	var pts []string
	for _, bin := range m.Bins {
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(bin.MeanScore), py(bin.FitRate)))
	}
	fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="#1f77b4" stroke-width="1.5"/>`+"\n", strings.Join(pts, " "))
	for _, bin := range m.Bins {
		r := 3 + 12*float64(bin.Count)/float64(max(m.Pairs, 1))
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="%.1f" fill="#1f77b4" fill-opacity="0.6"><title>%.1f-%.1f: %d rows, mean score %.3f, fit rate %.3f</title></circle>`+"\n",
			px(bin.MeanScore), py(bin.FitRate), r, bin.Lo, bin.Hi, bin.Count, bin.MeanScore, bin.FitRate)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="#555" font-size="9" text-anchor="middle">%d</text>`+"\n", px((bin.Lo+bin.Hi)/2), py(0)-4, bin.Count)
	}
	fmt.Fprintf(&b, `<text x="%g" y="%.1f" text-anchor="middle">%d pairs · Brier %.4f · ECE %.4f · high-band accuracy %.3f · low band %.1f%%</text>`+"\n",
		size/2, size+25, m.Pairs, m.Brier, m.ECE, m.HighAccuracy, 100*m.LowShare)
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
