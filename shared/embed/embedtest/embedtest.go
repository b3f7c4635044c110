// Package embedtest is the contract test suite of the embed.Embedder port. Every adapter runs
// it: ppmiembed directly, openaiembed against a test server that speaks OpenAI's wire format.
package embedtest

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/embed"
)

// Triplet says Anchor must be nearer Near than Far.
type Triplet struct{ Anchor, Near, Far string }

// Triplets are the semantic checks every serious embedder passes: titles of one function are
// nearer each other than titles of another, across seniority words, languages and
// abbreviations.
var Triplets = []Triplet{
	{"VP Engineering", "Head of Software Development", "VP Sales"},
	{"CFO", "Head of Finance", "Head of Marketing"},
	{"Account Executive", "Sales Representative", "Software Engineer"},
	{"Leiter Vertrieb", "Head of Sales", "Head of Engineering"},
	{"Directeur financier", "Finance Director", "Marketing Director"},
	{"Desarrollador de software", "Software Developer", "Accountant"},
	{"Recruiter", "Talent Acquisition Specialist", "Data Engineer"},
	{"General Counsel", "Legal Director", "Sales Manager"},
	{"Customer Success Manager", "Customer Support Lead", "Tax Manager"},
	{"Machine Learning Engineer", "Data Scientist", "Office Manager"},
	{"Python, Kubernetes, AWS", "Backend Engineer", "Payroll Specialist"},
	{"Clinical Research Associate", "Medical Science Liaison", "Sales Development Representative"},
	{"Press Officer", "Public Relations Manager", "Financial Controller"},
	{"Investor Relations Manager", "Shareholder Communications Director", "HR Manager"},
	{"Responsable des ressources humaines", "HR Business Partner", "DevOps Engineer"},
}

// Run runs the contract on the embedder e.
func Run(t *testing.T, e embed.Embedder) {
	t.Helper()
	ctx := context.Background()
	dims := e.Dims()
	if dims <= 0 {
		t.Fatalf("Dims = %d", dims)
	}

	t.Run("ShapeAndUnitLength", func(t *testing.T) {
		texts := []string{"VP Engineering", "Leiterin Personalentwicklung", "Directora de Ventas", "x"}
		vecs, err := e.Embed(ctx, texts)
		if err != nil {
			t.Fatal(err)
		}
		if len(vecs) != len(texts) {
			t.Fatalf("got %d vectors for %d texts", len(vecs), len(texts))
		}
		for i, v := range vecs {
			if len(v) != dims {
				t.Fatalf("vector %d has %d values, want %d", i, len(v), dims)
			}
			if n := norm(v); math.Abs(n-1) > 1e-3 {
				t.Fatalf("vector %d has length %v, want 1", i, n)
			}
		}
	})

	t.Run("EmptyBatch", func(t *testing.T) {
		vecs, err := e.Embed(ctx, nil)
		if err != nil || len(vecs) != 0 {
			t.Fatalf("Embed(nil) = %d vectors, %v; want none", len(vecs), err)
		}
	})

	t.Run("BlankTextIsInvalid", func(t *testing.T) {
		_, err := e.Embed(ctx, []string{"Sales Manager", "  "})
		var ae *apperr.Error
		if !errors.As(err, &ae) || ae.Kind != apperr.ErrInvalid || ae.Field != "texts[1]" {
			t.Fatalf("err = %v, want ErrInvalid on texts[1]", err)
		}
	})

	t.Run("DeterministicAndOrderIndependent", func(t *testing.T) {
		batch, err := e.Embed(ctx, []string{"Head of Sales", "Data Engineer"})
		if err != nil {
			t.Fatal(err)
		}
		single, err := e.Embed(ctx, []string{"Data Engineer"})
		if err != nil {
			t.Fatal(err)
		}
		if c := cos(batch[1], single[0]); c < 0.9999 {
			t.Fatalf("same text embedded alone and in a batch: cosine %v", c)
		}
		if c := cos(batch[0], batch[1]); c > 0.99 {
			t.Fatalf("different texts got the same vector (cosine %v)", c)
		}
	})

	t.Run("CanceledContext", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := e.Embed(cctx, []string{"VP Sales"}); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})

	t.Run("Triplets", func(t *testing.T) {
		for _, tr := range Triplets {
			vecs, err := e.Embed(ctx, []string{tr.Anchor, tr.Near, tr.Far})
			if err != nil {
				t.Fatal(err)
			}
			near, far := cos(vecs[0], vecs[1]), cos(vecs[0], vecs[2])
			if near <= far {
				t.Errorf("%q: %q at %.3f is not nearer than %q at %.3f", tr.Anchor, tr.Near, near, tr.Far, far)
			}
		}
	})
}

func norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func cos(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s / (norm(a) * norm(b))
}
