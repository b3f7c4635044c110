package emailpattern

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

var (
	synthFirst = []string{"anna", "ben", "carla", "david", "emma", "felix", "greta", "hugo", "ines", "jonas", "karin", "lukas", "marta", "nils", "olga", "paul", "rosa", "simon", "tara", "uwe", "vera", "walter", "yara", "zeno"}
	synthLast  = []string{"berg", "costa", "dahl", "eriksen", "fischer", "garcia", "hansen", "ivanov", "jensen", "keller", "lindqvist", "moreau", "novak", "olsen", "petrov", "quinn", "rossi", "schmidt", "torres", "ulrich", "vogel", "weber", "young", "zimmer"}
)

// synthWorld makes domains whose people follow the company's pattern except for a
// share noise of them (another template's address, or a local part no template makes),
// with the patterns drawn from a skewed prior. It returns the observed addresses and,
// per domain, held-out people with their true addresses.
func synthWorld(r *rand.Rand, domains int, noise float64) ([]Observation, map[string][][2]string) {
	weights := []float64{40, 20, 10, 8, 7}
	pickTemplate := func() Template {
		x := r.Float64() * 100
		for i, w := range weights {
			if x < w {
				return CommonTemplates[i]
			}
			x -= w
		}
		return CommonTemplates[len(weights)+r.IntN(len(CommonTemplates)-len(weights))]
	}
	address := func(t Template, first, last, domain string) string {
		if r.Float64() < noise {
			if r.IntN(10) < 7 {
				t = CommonTemplates[r.IntN(len(CommonTemplates))]
			} else {
				return fmt.Sprintf("x%d%s@%s", r.IntN(1000), first[:1], domain)
			}
		}
		return t.Apply(first, last) + "@" + domain
	}
	var seen []Observation
	held := map[string][][2]string{}
	for d := range domains {
		domain := fmt.Sprintf("co%d.example", d)
		t := pickTemplate()
		used := map[string]bool{}
		n := 1 + r.IntN(8)
		for k := 0; k < n+3; k++ {
			first, last := synthFirst[r.IntN(len(synthFirst))], synthLast[r.IntN(len(synthLast))]
			if used[first+last] {
				continue
			}
			used[first+last] = true
			email := address(t, first, last, domain)
			if k < n {
				seen = append(seen, Observation{Domain: domain, Name: first + " " + last, Email: email, Source: fmt.Sprint("contact:", d*100+k)})
			} else {
				held[domain] = append(held[domain], [2]string{first + " " + last, email})
			}
		}
	}
	return seen, held
}

// TestCalibratedUnderNoise: with 15% of addresses off-pattern, the learned noise is
// close to the truth and the confidence is calibrated on held-out people (ECE <= 0.05),
// whereas the old matches/(samples+1) estimate is not.
func TestCalibratedUnderNoise(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	seen, held := synthWorld(r, 3000, 0.15)
	learned, model := LearnAll(seen)
	if model.Noise < 0.10 || model.Noise > 0.20 {
		t.Errorf("learned noise = %.3f; the world's is 0.15", model.Noise)
	}
	var pred, old []float64
	var outcome []bool
	byDomain := map[string][]Known{}
	for _, o := range seen {
		f, l, _ := cutName(o.Name)
		byDomain[o.Domain] = append(byDomain[o.Domain], Known{First: f, Last: l, Email: o.Email})
	}
	for d, people := range held {
		l, ok := learned[d]
		if !ok {
			continue
		}
		legacy, _ := InferPattern(byDomain[d])
		for _, p := range people {
			pred = append(pred, l.Confidence)
			old = append(old, legacy.Confidence)
			outcome = append(outcome, Follows(Template(l.Template), p[0], p[1]))
		}
	}
	cal, oldCal := Calibrate(pred, outcome, 10), Calibrate(old, outcome, 10)
	t.Logf("held-out %d: ECE %.4f Brier %.4f (accuracy %.3f, mean confidence %.3f); matches/(samples+1): ECE %.4f Brier %.4f",
		cal.N, cal.ECE, cal.Brier, cal.Accuracy, cal.MeanConfidence, oldCal.ECE, oldCal.Brier)
	if cal.ECE > 0.05 {
		t.Errorf("ECE = %.4f; want <= 0.05", cal.ECE)
	}
	if oldCal.ECE <= cal.ECE {
		t.Errorf("the calibrated confidence (ECE %.4f) is no better than matches/(samples+1) (%.4f)", cal.ECE, oldCal.ECE)
	}
}

func cutName(name string) (string, string, bool) {
	for i := range len(name) {
		if name[i] == ' ' {
			return name[:i], name[i+1:], true
		}
	}
	return name, "", false
}

// TestEvidence: fitting and contradicting addresses are counted once each, with their
// sources, and a name-less address is no evidence.
func TestEvidence(t *testing.T) {
	l := NewLearner()
	for _, o := range []Observation{
		{Domain: "acme.com", Name: "Anna Berg", Email: "anna.berg@acme.com", Source: "contact:1"},
		{Domain: "acme.com", Name: "Anna Berg", Email: "Anna.Berg@acme.com", Source: "found:j1"}, // the same address again
		{Domain: "acme.com", Name: "Ben Costa", Email: "ben.costa@acme.com", Source: "page:https://acme.com/team"},
		{Domain: "acme.com", Name: "Carla Dahl", Email: "cdahl@acme.com", Source: "contact:3"},
		{Domain: "acme.com", Name: "Info", Email: "info@acme.com", Source: "page:https://acme.com/"},
	} {
		l.Observe(o)
	}
	got, ok := l.Learn()["acme.com"]
	if !ok {
		t.Fatal("no pattern learned")
	}
	if got.Template != "{first}.{last}" || got.Address() != "{first}.{last}@acme.com" || got.Guess != "jane.doe@acme.com" {
		t.Fatalf("learned %+v", got)
	}
	if got.Evidence.Fit != 2 || got.Evidence.Contradict != 1 {
		t.Fatalf("evidence = %+v; want 2 fit, 1 contradicts", got.Evidence)
	}
	sources := map[string]bool{}
	for _, e := range got.Evidence.Examples {
		sources[e.Source] = e.Fits
	}
	if !sources["contact:1"] || !sources["page:https://acme.com/team"] || sources["contact:3"] {
		t.Fatalf("examples = %+v", got.Evidence.Examples)
	}
	if _, listed := sources["contact:3"]; !listed {
		t.Fatalf("the contradicting address is not among the examples: %+v", got.Evidence.Examples)
	}
	if got.Confidence <= 0 || got.Confidence >= 1 {
		t.Fatalf("confidence %v out of (0,1)", got.Confidence)
	}
	// More fitting evidence raises the confidence.
	l.Observe(Observation{Domain: "acme.com", Name: "Emma Fischer", Email: "emma.fischer@acme.com", Source: "contact:4"})
	if more := l.Learn()["acme.com"]; more.Confidence <= got.Confidence {
		t.Fatalf("confidence %v -> %v with one more fitting address", got.Confidence, more.Confidence)
	}
}
