package typedcol

import (
	"encoding/json"
	"os"
	"reflect"
	"strconv"
	"testing"
)

type wantColumn struct {
	Label   string   `json:"label"`
	Kind    string   `json:"kind"`
	Key     string   `json:"key"`
	Options []string `json:"options"`
}

type example struct {
	Name  string       `json:"name"`
	Query string       `json:"query"`
	Typed []wantColumn `json:"typed"`
	Free  []string     `json:"free"`
}

// TestDetectExamples runs the hand-written expected splits of testdata/queries.json.
func TestDetectExamples(t *testing.T) {
	b, err := os.ReadFile("testdata/queries.json")
	if err != nil {
		t.Fatal(err)
	}
	var examples []example
	if err := json.Unmarshal(b, &examples); err != nil {
		t.Fatal(err)
	}
	if len(examples) < 50 {
		t.Fatalf("testdata holds %d examples; the issue asks for at least 50", len(examples))
	}
	for _, ex := range examples {
		t.Run(ex.Name, func(t *testing.T) {
			got := Detect(ex.Query)
			var gotFree []string
			for _, f := range got.Free {
				if f.Label != "" {
					gotFree = append(gotFree, f.Label+": "+f.Text)
				} else {
					gotFree = append(gotFree, f.Text)
				}
			}
			if !reflect.DeepEqual(gotFree, ex.Free) {
				t.Errorf("free parts: got %q, want %q", gotFree, ex.Free)
			}
			if len(got.Typed) != len(ex.Typed) {
				t.Fatalf("typed columns: got %d %+v, want %d %+v", len(got.Typed), got.Typed, len(ex.Typed), ex.Typed)
			}
			for i, w := range ex.Typed {
				g := got.Typed[i]
				if g.Label != w.Label || g.Kind != w.Kind {
					t.Errorf("column %d: got %q (%s), want %q (%s)", i, g.Label, g.Kind, w.Label, w.Kind)
				}
				if w.Key != "" && g.Key != w.Key {
					t.Errorf("column %d key: got %q, want %q", i, g.Key, w.Key)
				}
				if w.Kind != KindYesNo && !reflect.DeepEqual(g.Options, w.Options) {
					t.Errorf("column %d options: got %q, want %q", i, g.Options, w.Options)
				}
			}
		})
	}
}

// TestCriteria checks the descriptor shapes the API reference gives: yes/no criteria keyed true
// and false, choice keyed by option, scale keyed by level position.
func TestCriteria(t *testing.T) {
	s := Detect("Is it B2B?\nTier: one of Gold, Silver\nRate fit from 1 to 3")
	if len(s.Typed) != 3 {
		t.Fatalf("got %d columns, want 3", len(s.Typed))
	}
	yn, ch, sc := s.Typed[0], s.Typed[1], s.Typed[2]
	if _, ok := yn.Criteria["true"]; !ok || len(yn.Criteria) != 2 || yn.Criteria["false"] == "" {
		t.Errorf("yes/no criteria %v: want keys true and false", yn.Criteria)
	}
	if len(ch.Criteria) != 2 || ch.Criteria["Gold"] == "" || ch.Criteria["Silver"] == "" {
		t.Errorf("choice criteria %v: want one key per option", ch.Criteria)
	}
	for i, level := range []string{"1", "2", "3"} {
		if got := sc.Criteria[strconv.Itoa(i)]; got != level {
			t.Errorf("scale criteria[%d] = %q, want %q", i, got, level)
		}
	}
	if yn.Instructions != "Is it B2B?" || ch.Key != "tier" {
		t.Errorf("instructions %q key %q", yn.Instructions, ch.Key)
	}
	if s.FreeText() != "" {
		t.Errorf("free text %q, want none", s.FreeText())
	}
}

// A sentence ending in a number ("... 1 to 5.") is still a sentence: the question after
// it is its own part, in either order.
func TestSentenceEndingInANumber(t *testing.T) {
	for _, q := range []string{
		"Rate their digital maturity on a scale of 1 to 5. Who founded it?",
		"Who founded it? Rate their digital maturity on a scale of 1 to 5.",
	} {
		s := Detect(q)
		if len(s.Typed) != 1 || s.Typed[0].Kind != KindScale || s.Typed[0].Instructions != "Rate their digital maturity on a scale of 1 to 5." {
			t.Errorf("%q: typed %+v, want one scale column of the first sentence", q, s.Typed)
		}
		if s.FreeText() != "Who founded it?" {
			t.Errorf("%q: free text %q, want the question", q, s.FreeText())
		}
	}
}
