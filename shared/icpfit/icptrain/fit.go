package icptrain

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// fitLogistic fits an L2-regularised logistic regression (the bias is not
// penalised) by Newton's method (iteratively reweighted least squares), each step
// solved with gonum's Cholesky factorisation: deterministic for the same rows.
func fitLogistic(X [][]float64, y []float64, lambda float64) (w []float64, b float64, err error) {
	if len(X) == 0 {
		return nil, 0, fmt.Errorf("no training rows")
	}
	d := len(X[0]) + 1 // the bias is the last coordinate
	n := float64(len(X))
	theta := make([]float64, d)
	row := make([]float64, d)
	prevLoss := math.Inf(1)
	for iter := 0; iter < 100; iter++ {
		H := mat.NewSymDense(d, nil)
		g := make([]float64, d)
		loss := 0.0
		for i, x := range X {
			copy(row, x)
			row[d-1] = 1
			z := floats.Dot(theta, row)
			p := sigmoid(z)
			loss += softplus(z) - y[i]*z
			floats.AddScaled(g, (p-y[i])/n, row)
			wt := math.Max(p*(1-p), 1e-9) / n
			H.SymRankOne(H, wt, mat.NewVecDense(d, row))
		}
		loss /= n
		for j := 0; j < d-1; j++ {
			loss += lambda / 2 * theta[j] * theta[j]
			g[j] += lambda * theta[j]
			H.SetSym(j, j, H.At(j, j)+lambda)
		}
		H.SetSym(d-1, d-1, H.At(d-1, d-1)+1e-9)
		var ch mat.Cholesky
		if ok := ch.Factorize(H); !ok {
			return nil, 0, fmt.Errorf("logistic fit: the Hessian is not positive definite")
		}
		var step mat.VecDense
		if err := ch.SolveVecTo(&step, mat.NewVecDense(d, g)); err != nil {
			return nil, 0, fmt.Errorf("logistic fit: %w", err)
		}
		floats.AddScaled(theta, -1, step.RawVector().Data)
		if math.Abs(prevLoss-loss) < 1e-10 {
			break
		}
		prevLoss = loss
	}
	return append([]float64(nil), theta[:d-1]...), theta[d-1], nil
}

func softplus(z float64) float64 {
	if z > 30 {
		return z
	}
	if z < -30 {
		return math.Exp(z)
	}
	return math.Log1p(math.Exp(z))
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

// isotonic fits a non-decreasing map from raw probabilities to label rates by pool
// adjacent violators. Each knot is a pooled block: x its mean raw probability, y its
// fit rate shrunk towards the overall rate by two pseudo-rows (a block of three rows
// never says 0 or 1), then kept non-decreasing.
func isotonic(p, y []float64) (xs, ys []float64) {
	idx := make([]int, len(p))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
	type block struct{ sumP, sumY, n float64 }
	var blocks []block
	for k := 0; k < len(idx); {
		b := block{}
		v := p[idx[k]]
		for k < len(idx) && p[idx[k]] == v {
			b.sumP += p[idx[k]]
			b.sumY += y[idx[k]]
			b.n++
			k++
		}
		blocks = append(blocks, b)
		for len(blocks) > 1 {
			last, prev := blocks[len(blocks)-1], blocks[len(blocks)-2]
			if prev.sumY/prev.n < last.sumY/last.n {
				break
			}
			blocks = append(blocks[:len(blocks)-2], block{prev.sumP + last.sumP, prev.sumY + last.sumY, prev.n + last.n})
		}
	}
	total, pos := 0.0, 0.0
	for _, b := range blocks {
		total += b.n
		pos += b.sumY
	}
	base := pos / math.Max(total, 1)
	const pseudo = 2
	prevY := 0.0
	for _, b := range blocks {
		yy := (b.sumY + pseudo*base) / (b.n + pseudo)
		yy = math.Max(yy, prevY)
		prevY = yy
		xs = append(xs, b.sumP/b.n)
		ys = append(ys, yy)
	}
	return xs, ys
}
