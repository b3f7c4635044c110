package vector_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/firmoapi/firmo/shared/vector"
	"github.com/firmoapi/firmo/shared/vector/vectortest"
)

func TestExactContract(t *testing.T) {
	vectortest.Run(t, func(t *testing.T, dims int) vector.Index { return vector.NewExact(dims) })
}

func TestDotMatchesNaiveSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 8, 9, 31, 32, 33, 40, 63, 64, 65, 384, 1000} {
		a, b := make([]float32, n), make([]float32, n)
		var want float64
		for i := range a {
			a[i], b[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
			want += float64(a[i]) * float64(b[i])
		}
		if got := vector.Dot(a, b); math.Abs(float64(got)-want) > 1e-3*math.Max(1, math.Abs(want)) {
			t.Errorf("Dot of length %d = %v, want %v", n, got, want)
		}
		if got := vector.DotGeneric(a, b); math.Abs(float64(got)-want) > 1e-3*math.Max(1, math.Abs(want)) {
			t.Errorf("dotGeneric of length %d = %v, want %v", n, got, want)
		}
		// A longer second operand is allowed: only len(a) counts.
		if n > 0 {
			long := append(append([]float32(nil), b...), 1e9)
			if got := vector.Dot(a, long); math.Abs(float64(got)-want) > 1e-3*math.Max(1, math.Abs(want)) {
				t.Errorf("Dot with longer b, length %d = %v, want %v", n, got, want)
			}
		}
	}
}

func TestTopKKeepsBest(t *testing.T) {
	top := vector.NewTopK(3)
	for i, s := range []float32{0.1, 0.9, 0.5, 0.7, 0.2, 0.9} {
		top.Push(vector.Hit{ID: int64(i), Score: s})
	}
	got := top.Sorted()
	want := []vector.Hit{{ID: 1, Score: 0.9}, {ID: 5, Score: 0.9}, {ID: 3, Score: 0.7}}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Sorted = %v, want %v", got, want)
		}
	}
}

func TestUseExact(t *testing.T) {
	cases := []struct {
		n, dims int
		want    bool
	}{
		{5208, 384, true}, {5209, 384, false}, {0, 384, true}, {2_000_000, 1, true}, {100_000, 384, false},
	}
	for _, c := range cases {
		if got := vector.UseExact(c.n, c.dims); got != c.want {
			t.Errorf("UseExact(%d, %d) = %v, want %v", c.n, c.dims, got, c.want)
		}
	}
}

func BenchmarkDot384(b *testing.B) {
	x, y := make([]float32, 384), make([]float32, 384)
	for i := range x {
		x[i], y[i] = float32(i%7), float32(i%5)
	}
	b.Run("dispatch", func(b *testing.B) {
		for b.Loop() {
			vector.Dot(x, y)
		}
	})
	b.Run("generic", func(b *testing.B) {
		for b.Loop() {
			vector.DotGeneric(x, y)
		}
	})
}

func TestRecall(t *testing.T) {
	want := []vector.Hit{{ID: 1, Score: 0.9}, {ID: 2, Score: 0.8}, {ID: 3, Score: 0.7}}
	cases := []struct {
		name          string
		got           []vector.Hit
		byID, byScore float64
	}{
		{"exact", want, 1, 1},
		{"tie swapped", []vector.Hit{{ID: 1, Score: 0.9}, {ID: 2, Score: 0.8}, {ID: 9, Score: 0.7}}, 2.0 / 3, 1},
		{"worse neighbour", []vector.Hit{{ID: 1, Score: 0.9}, {ID: 2, Score: 0.8}, {ID: 9, Score: 0.5}}, 2.0 / 3, 2.0 / 3},
		{"short", []vector.Hit{{ID: 1, Score: 0.9}}, 1.0 / 3, 1.0 / 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := vector.Recall(c.got, want); math.Abs(got-c.byID) > 1e-9 {
				t.Errorf("Recall = %v, want %v", got, c.byID)
			}
			if got := vector.RecallByScore(c.got, want, 1e-3); math.Abs(got-c.byScore) > 1e-9 {
				t.Errorf("RecallByScore = %v, want %v", got, c.byScore)
			}
		})
	}
}
