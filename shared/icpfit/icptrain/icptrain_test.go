package icptrain

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/firmoapi/firmo/shared/icpfit"
)

func TestFitLogisticRecoversWeights(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	want := []float64{1.5, -2}
	var X [][]float64
	var y []float64
	for range 4000 {
		x := []float64{r.NormFloat64(), r.NormFloat64()}
		p := sigmoid(0.5 + want[0]*x[0] + want[1]*x[1])
		X = append(X, x)
		y = append(y, b2f(r.Float64() < p))
	}
	w, b, err := fitLogistic(X, y, 0)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(w[0]-want[0]) > 0.2 || math.Abs(w[1]-want[1]) > 0.2 || math.Abs(b-0.5) > 0.2 {
		t.Fatalf("w = %v, b = %.3f; want about %v and 0.5", w, b, want)
	}
	w2, b2, _ := fitLogistic(X, y, 0)
	if w2[0] != w[0] || b2 != b {
		t.Fatal("two fits of the same rows differ")
	}
}

func TestIsotonicIsMonotoneAndShrunk(t *testing.T) {
	p := []float64{0.1, 0.1, 0.2, 0.3, 0.3, 0.4, 0.9, 0.9}
	y := []float64{0, 0, 1, 0, 0, 1, 1, 1}
	xs, ys := isotonic(p, y)
	for i := 1; i < len(xs); i++ {
		if xs[i] <= xs[i-1] || ys[i] < ys[i-1] {
			t.Fatalf("knots not increasing: %v %v", xs, ys)
		}
	}
	if ys[0] <= 0 || ys[len(ys)-1] >= 1 {
		t.Fatalf("small blocks reach 0 or 1: %v", ys)
	}
	c := icpfit.Calibration{Method: "isotonic", X: xs, Y: ys}
	if c.Apply(0) != ys[0] || c.Apply(1) != ys[len(ys)-1] || c.Apply(0.5) < ys[0] {
		t.Fatalf("apply outside the knots: %v %v", c.Apply(0), c.Apply(1))
	}
}

func TestParseVerdict(t *testing.T) {
	for text, want := range map[string]bool{
		`{"Fit":"Yes","Confidence":"high","Reasoning":"x"}`:        true,
		"```json\n{\"Fit\": \"no\", \"Confidence\": \"low\"}\n```": false,
		`Sure! {"Fit":" YES "}`:                                    true,
	} {
		got, err := ParseVerdict(text)
		if err != nil || got != want {
			t.Errorf("ParseVerdict(%q) = %v, %v; want %v", text, got, err, want)
		}
	}
	for _, bad := range []string{`{"Fit":"maybe"}`, `Yes`, `{"Confidence":"high"}`} {
		if _, err := ParseVerdict(bad); err == nil {
			t.Errorf("ParseVerdict(%q) accepted", bad)
		}
	}
}

func TestPairsAreDeterministicAndMixed(t *testing.T) {
	var subs []Subject
	for i := range 20 {
		cc := []string{"DE", "US", "FR"}[i%3]
		subs = append(subs, Subject{Index: i, Truth: icpfit.Company{Country: cc, Industries: []string{"SOFTWARE"}, BusinessModel: "B2B", Employees: 10 + 40*i}})
	}
	a, b := Pairs(subs, 3, 9), Pairs(subs, 3, 9)
	if len(a) != 60 {
		t.Fatalf("%d pairs", len(a))
	}
	fits := 0
	var truth Truth
	for i := range a {
		if a[i].ICP.Text() != b[i].ICP.Text() {
			t.Fatalf("pair %d differs between runs", i)
		}
		if len(a[i].ICP.Mandatory) == 0 {
			t.Fatalf("pair %d has no mandatory line", i)
		}
		if ok, _ := truth.Label(context.Background(), a[i].ICP, subs[a[i].Subject]); ok {
			fits++
		}
	}
	if fits == 0 || fits == len(a) {
		t.Fatalf("%d of %d pairs are fits: want both", fits, len(a))
	}
}
