package emailpattern

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// TestSummaryIsBoundedAndLearnsAsLearnAll: a domain of 5,000 addresses summarizes to a
// bounded item (examples kept: at most 7 per template), and the pattern learned from the
// summary after a JSON round trip, with the totals moved by one domain's change
// (Plus), is LearnAll's.
func TestSummaryIsBoundedAndLearnsAsLearnAll(t *testing.T) {
	var obs []Observation
	firsts := []string{"Anna", "Ben", "Clara", "David", "Eva", "Felix", "Greta", "Hugo"}
	lasts := []string{"Adler", "Bauer", "Conrad", "Dietz", "Engel", "Fuchs", "Graf", "Hahn", "Ibsen"}
	for i := range 5000 {
		l := lasts[i%len(lasts)] + string(rune('a'+i%26)) + string(rune('a'+(i/26)%26)) + string(rune('a'+(i/676)%26))
		f := firsts[i%len(firsts)]
		tmpl := CommonTemplates[0]
		if i%10 == 0 {
			tmpl = CommonTemplates[1]
		}
		obs = append(obs, Observation{Domain: "big.example", Name: f + " " + l, Email: tmpl.Apply(f, l) + "@big.example", Source: fmt.Sprint("contact:", i)})
	}
	small := []Observation{
		{Domain: "small.example", Name: "Jane Doe", Email: "jdoe@small.example"},
		{Domain: "small.example", Name: "John Roe", Email: "jroe@small.example"},
		{Domain: "small.example", Name: "Max Moe", Email: "mmoe@small.example"},
	}
	sums := Summarize(append(obs, small...))
	big := sums["big.example"]
	if big.Size() != 5000 || len(big.Kept) > 7*len(CommonTemplates) {
		t.Fatalf("summary of %d addresses keeps %d examples", big.Size(), len(big.Kept))
	}
	data, err := json.Marshal(big)
	if err != nil || len(data) > 16<<10 {
		t.Fatalf("summary is %d bytes (%v)", len(data), err)
	}
	var back Summary
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	// The totals as a publisher keeps them: the small domain first, then the big one added.
	totals := Totals{}.Plus(sums["small.example"].Tally(), 1).Plus(back.Tally(), 1)
	want, _ := LearnAll(append(obs, small...))
	for dom, s := range map[string]Summary{"big.example": back, "small.example": sums["small.example"]} {
		got, ok := totals.Model().LearnSummary(dom, s)
		if !ok || got.Template == "" || !reflect.DeepEqual(got, want[dom]) {
			t.Fatalf("%s: from the summary %+v, LearnAll %+v", dom, got, want[dom])
		}
	}
}
