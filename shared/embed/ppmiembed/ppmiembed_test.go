package ppmiembed_test

import (
	"context"
	"math"
	"testing"

	"github.com/firmoapi/firmo/shared/embed/embedtest"
	"github.com/firmoapi/firmo/shared/embed/ppmiembed"
)

func TestContract(t *testing.T) {
	embedtest.Run(t, ppmiembed.New())
}

// TestBuiltinNeighbours holds what the built-in method adds to the contract's triplets:
// acronyms, words outside the vocabulary (German compounds, typos, names) and languages.
func TestBuiltinNeighbours(t *testing.T) {
	e := ppmiembed.New()
	cases := []embedtest.Triplet{
		{Anchor: "CTO", Near: "Chief Technology Officer", Far: "Chief Financial Officer"},
		{Anchor: "CFO", Near: "Chief Financial Officer", Far: "Chief Marketing Officer"},
		{Anchor: "CHRO", Near: "Head of People", Far: "Head of Engineering"},
		{Anchor: "Softwareentwicklungsleiter", Near: "Head of Software Development", Far: "Head of Sales"}, // unseen compound
		{Anchor: "Enginering Manager", Near: "Engineering Manager", Far: "Sales Manager"},                  // typo
		{Anchor: "Kubernetes Platform Engineer", Near: "Site Reliability Engineer", Far: "Brand Manager"},
		{Anchor: "Sr. Accountant", Near: "Senior Accountant", Far: "Senior Recruiter"},
		{Anchor: "Directora de Marketing", Near: "Head of Marketing", Far: "Head of Legal"},
		{Anchor: "Zyxwvutronics", Near: "Zyxwvutronics GmbH", Far: "Qwertzuiop"}, // unknown names still match themselves
		{Anchor: "Vertriebsleiterin", Near: "VP Sales", Far: "VP Engineering"},
		{Anchor: "Ingénieur logiciel", Near: "Software Engineer", Far: "Financial Analyst"},
		{Anchor: "Abogada", Near: "Lawyer", Far: "Nurse"},
	}
	for _, c := range cases {
		t.Run(c.Anchor, func(t *testing.T) {
			v, err := e.Embed(context.Background(), []string{c.Anchor, c.Near, c.Far})
			if err != nil {
				t.Fatal(err)
			}
			near, far := cos(v[0], v[1]), cos(v[0], v[2])
			t.Logf("near %.3f far %.3f", near, far)
			if near <= far {
				t.Fatalf("%q: %q at %.3f is not nearer than %q at %.3f", c.Anchor, c.Near, near, c.Far, far)
			}
		})
	}
}

// TestStopwordOnlyText: a text of stopwords alone still gets a (hashed) direction.
func TestStopwordOnlyText(t *testing.T) {
	v, err := ppmiembed.New().Embed(context.Background(), []string{"of the", "und der"})
	if err != nil {
		t.Fatal(err)
	}
	if c := cos(v[0], v[1]); c > 0.5 {
		t.Fatalf("two different stopword texts have cosine %.3f", c)
	}
}

func cos(a, b []float32) float64 {
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	return ab / math.Sqrt(aa*bb)
}

// BenchmarkTrain measures the lazy training that the first Embed pays (goal: < 1 s).
func BenchmarkTrain(b *testing.B) {
	for b.Loop() {
		ppmiembed.New().Warm()
	}
}

// BenchmarkEmbedProfile measures embedding one contact's title, skills and summary.
func BenchmarkEmbedProfile(b *testing.B) {
	e := ppmiembed.New()
	e.Warm()
	text := []string{"Senior Backend Engineer | Go, Kubernetes, PostgreSQL | Builds payment APIs and runs the platform team's on-call rotation."}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		_, _ = e.Embed(ctx, text)
	}
}

// TestDeterministic: two embedders trained apart give bit-identical vectors, so a graph
// persisted for a set of contacts (whose fingerprint samples the vectors) is found again
// after a restart. Training once summed its sparse rows in map order, which Go varies from
// one iteration to the next.
func TestDeterministic(t *testing.T) {
	texts := []string{"VP Engineering | go, kubernetes", "Directora de Marketing", "Zyxwvutronics"}
	first, err := ppmiembed.New().Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		again, err := ppmiembed.New().Embed(context.Background(), texts)
		if err != nil {
			t.Fatal(err)
		}
		for i := range texts {
			for d := range first[i] {
				if math.Float32bits(first[i][d]) != math.Float32bits(again[i][d]) {
					t.Fatalf("%q dimension %d: %v, then %v", texts[i], d, first[i][d], again[i][d])
				}
			}
		}
	}
}
