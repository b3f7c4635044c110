package industry

import "testing"

func TestNeighbourTable(t *testing.T) {
	pos := map[string]bool{}
	for _, in := range taxonomy {
		pos[in.Value] = true
	}
	for _, p := range neighbourPairs {
		if !pos[p[0]] || !pos[p[1]] || p[0] == p[1] {
			t.Errorf("neighbour pair %v: want two different industries", p)
		}
	}
}

func TestTopTwoPrefersANeighbour(t *testing.T) {
	n := neighbourMatrix()
	idx := map[string]int{}
	for i, in := range taxonomy {
		idx[in.Value] = i
	}
	prob := make([]float64, len(taxonomy))
	prob[idx["RETAIL"]] = 0.9
	prob[idx["SAAS"]] = 0.05
	prob[idx["CONSUMER_GOODS"]] = 0.01 // a neighbour of RETAIL, 1/5 of SAAS
	got := topTwo(prob, n)
	if len(got) != 2 || got[0] != idx["RETAIL"] || got[1] != idx["CONSUMER_GOODS"] {
		t.Errorf("topTwo = %v, want RETAIL then its neighbour CONSUMER_GOODS", got)
	}
	// A neighbour far below the second-best does not take its place.
	prob[idx["CONSUMER_GOODS"]] = 0.05 / (neighbourOdds * 2)
	if got := topTwo(prob, n); got[1] != idx["SAAS"] {
		t.Errorf("topTwo = %v, want SAAS second when the neighbour is too unlikely", got)
	}
	if got := topTwo(nil, n); len(got) != 0 {
		t.Errorf("topTwo(nil) = %v, want none", got)
	}
}
