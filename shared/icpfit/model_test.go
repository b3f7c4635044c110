package icpfit

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
)

func TestBandOf(t *testing.T) {
	for _, tt := range []struct {
		score float64
		want  string
	}{{0, BandHigh}, {0.15, BandHigh}, {0.16, BandMedium}, {0.35, BandMedium}, {0.36, BandLow}, {0.5, BandLow}, {0.64, BandLow},
		{0.65, BandMedium}, {0.84, BandMedium}, {0.85, BandHigh}, {1, BandHigh}} {
		if got := BandOf(tt.score); got != tt.want {
			t.Errorf("BandOf(%.2f) = %q, want %q", tt.score, got, tt.want)
		}
	}
	if !strings.HasPrefix(BandLow, "Low confidence - ") {
		t.Errorf("the low band must read %q", "Low confidence - ...")
	}
}

func shipped(t testing.TB) *Model {
	t.Helper()
	m, err := DefaultModel()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestScoreFitAndNonFit(t *testing.T) {
	m := shipped(t)
	c, _ := ParseCriteria("Mandatory:\n- B2B SaaS\n- based in Germany or Austria\n- 50-500 employees\nReject if:\n- law firm\nNice-to-have:\n- uses HubSpot\n")
	fit := m.Score(c, acme())
	if !fit.Fit || fit.Score < 0.5 || fit.Band != BandOf(fit.Score) {
		t.Fatalf("a company meeting every line: %+v", fit)
	}
	if fit.FitText() != "Yes" || fit.ScoreText() != fmt.Sprintf("%.2f", fit.Score) || len(fit.ScoreText()) != 4 {
		t.Errorf("columns %q %q for score %v", fit.FitText(), fit.ScoreText(), fit.Score)
	}
	if !strings.HasPrefix(fit.Reasoning, fit.Band+". ") || !strings.Contains(fit.Reasoning, `"B2B SaaS" met`) {
		t.Errorf("reasoning %q: want the band, then the mandatory lines met", fit.Reasoning)
	}
	if len(fit.Criteria) != 5 || fit.Criteria[3].Section != SectionReject || fit.Criteria[3].Met {
		t.Errorf("criteria evidence: %+v", fit.Criteria)
	}
	c.Mandatory[1] = "based in France"
	no := m.Score(c, acme())
	if no.Fit || no.FitText() != "No" || no.Score >= fit.Score || !strings.Contains(no.Reasoning, `"based in France" not met`) {
		t.Fatalf("a company failing the place: %+v", no)
	}
	c.Mandatory[1] = "based in Germany"
	c.Reject = []string{"SaaS"}
	rej := m.Score(c, acme())
	if rej.Fit || !strings.Contains(rej.Reasoning, `Reject if "SaaS" matched`) {
		t.Fatalf("a company matching a reject line: %+v", rej)
	}
}

// TestFreeTextLinesCount: a line only the company's text can answer moves the score,
// and one that cannot be judged at all is no confident Yes.
func TestFreeTextLinesCount(t *testing.T) {
	m := shipped(t)
	api, _ := ParseCriteria("Mandatory:\n- offers an API and integrations\nReject if:\nNice-to-have:\n")
	other, _ := ParseCriteria("Mandatory:\n- offers tax returns and payroll bookkeeping\nReject if:\nNice-to-have:\n")
	yes, no := m.Score(api, acme()), m.Score(other, acme())
	if !yes.Fit || no.Fit || yes.Score <= no.Score {
		t.Errorf("text found: %v %.2f; text absent: %v %.2f", yes.Fit, yes.Score, no.Fit, no.Score)
	}
	blank := m.Score(api, Company{Domain: "blank.example"})
	if (blank.Fit && blank.Band == BandHigh) || !strings.Contains(blank.Reasoning, "could not be judged") {
		t.Errorf("nothing to judge: %+v", blank)
	}
}

func TestScoreIsDeterministic(t *testing.T) {
	c, _ := ParseCriteria("Mandatory:\n- software company\n- more than 20 employees\nReject if:\n- B2C\nNice-to-have:\n- in the DACH region\n")
	first := shipped(t).Score(c, acme())
	var wg sync.WaitGroup
	got := make([]Verdict, 16)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = shipped(t).Score(c, acme())
		}()
	}
	wg.Wait()
	for i, v := range got {
		if v.Score != first.Score || v.Reasoning != first.Reasoning || v.Band != first.Band {
			t.Fatalf("run %d: %+v, first run %+v", i, v, first)
		}
	}
	if first.Score != float64(int(first.Score*100+0.5))/100 {
		t.Errorf("score %v is not two decimals", first.Score)
	}
}

func TestParseRejectsForeignFiles(t *testing.T) {
	good := shipped(t).File()
	for name, mutate := range map[string]func(f *File){
		"format":          func(f *File) { f.Format = 99 },
		"feature renamed": func(f *File) { f.Features = append([]string{"other"}, f.Features[1:]...) },
		"weights short":   func(f *File) { f.Weights = f.Weights[:3] },
		"calibration": func(f *File) {
			f.Calibration = Calibration{Method: "isotonic", X: []float64{0.2, 0.1}, Y: []float64{0.1, 0.2}}
		},
		"method":  func(f *File) { f.Calibration.Method = "magic" },
		"version": func(f *File) { f.Version = "" },
	} {
		f := good
		f.Features = append([]string(nil), good.Features...)
		f.Weights = append([]float64(nil), good.Weights...)
		mutate(&f)
		b, _ := f.Marshal()
		if _, err := Parse(b); err == nil {
			t.Errorf("%s: a broken model file parsed", name)
		}
	}
}

func TestLoaderDefault(t *testing.T) {
	l := NewLoader("")
	m1, err := l.Model()
	if err != nil {
		t.Fatal(err)
	}
	m2, _ := l.Model()
	if m1 != m2 || m1.Version() == "" || m1.File().HeldOut == nil {
		t.Fatalf("default model loaded twice or without version and held-out figures: %p %p %q", m1, m2, m1.Version())
	}
}

func TestLoaderFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.json")
	f := shipped(t).File()
	f.Version = "from-file"
	b, _ := f.Marshal()
	os.WriteFile(path, b, 0o644)
	m, err := NewLoader(path).Model()
	if err != nil || m.Version() != "from-file" {
		t.Fatalf("model from file: %v, %v", m, err)
	}
}

func TestLoaderBadFileIsRetryable503(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.json")
	os.WriteFile(path, []byte(`{"format":1,"version":"broken"`), 0o644)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := NewLoader(path)
	l.now = func() time.Time { return now }
	_, err := l.Model()
	if err == nil {
		t.Fatal("a truncated model file loaded")
	}
	d := apperr.Describe(err)
	if d.Status != http.StatusServiceUnavailable || d.RetryAfter != RetryAfter || !apperr.IsRetryable(err) || strings.Contains(d.Message, "broken") {
		t.Fatalf("error answers %+v (retryable %v), want 503 with Retry-After %s and a clean message", d, apperr.IsRetryable(err), RetryAfter)
	}
	// Fixed on disk: the loader tries again only after RetryAfter.
	b, _ := shipped(t).File().Marshal()
	os.WriteFile(path, b, 0o644)
	if _, err := l.Model(); err == nil {
		t.Fatal("retried before Retry-After")
	}
	now = now.Add(RetryAfter)
	if m, err := l.Model(); err != nil || m == nil {
		t.Fatalf("after Retry-After: %v", err)
	}
	missing := NewLoader(filepath.Join(dir, "absent.json"))
	if _, err := missing.Model(); !errors.Is(err, apperr.ErrUnavailable) {
		t.Fatalf("missing file: %v, want ErrUnavailable", err)
	}
}

// TestMatchedRejectLineDecides: a company that meets every mandatory line strongly is
// still a No when a reject line matches, or when a reject line cannot be judged for
// want of data, and the reasoning names that line first.
func TestMatchedRejectLineDecides(t *testing.T) {
	m := shipped(t)
	base := "Mandatory:\n- B2B SaaS\n- based in Germany\n- 50-500 employees\nNice-to-have:\n- uses HubSpot\nReject if:\n"
	clear, _ := ParseCriteria(base + "- law firm\n")
	if v := m.Score(clear, acme()); !v.Fit || v.Score < 0.85 {
		t.Fatalf("without a matching reject line the company is a strong fit: %+v", v)
	}
	for _, tt := range []struct{ reject, verb string }{
		{"annual revenue over $5M", "matched"}, // the model gives revenue reject lines no weight
		{"more than 20 employees", "matched"},
		{"founded before 2030", "could not be judged"}, // no founding year known
		{"based in Bavaria", "matched"},
		{"uses Salesforce and HubSpot", ""}, // half matched: bounded, not decided
	} {
		c, _ := ParseCriteria(base + "- " + tt.reject + "\n")
		v := m.Score(c, acme())
		r := v.Criteria[3]
		if r.Section != SectionReject || r.Text != tt.reject {
			t.Fatalf("criteria order: %+v", v.Criteria)
		}
		if v.Score > round2(1-r.Strength) {
			t.Errorf("%q: score %.2f above 1 - the reject line's strength %.2f", tt.reject, v.Score, r.Strength)
		}
		if tt.verb == "" {
			continue
		}
		if v.Fit || v.FitText() != "No" || v.Score >= 0.5 || v.Band != BandOf(v.Score) {
			t.Errorf("%q: %s %.2f (%s), want No", tt.reject, v.FitText(), v.Score, v.Band)
		}
		want := v.Band + ". " + fmt.Sprintf("Reject if %q %s", tt.reject, tt.verb)
		if !strings.HasPrefix(v.Reasoning, want) {
			t.Errorf("%q: reasoning %q, want it to start %q", tt.reject, v.Reasoning, want)
		}
	}
	// A founding-year line under Mandatory has no model input: the rules carry it.
	c, _ := ParseCriteria("Mandatory:\n- B2B SaaS\n- founded after 2020\nReject if:\nNice-to-have:\n")
	co := acme()
	co.WebSince = "2011-05-01"
	if v := m.Score(c, co); v.Fit || !strings.Contains(v.Reasoning, `"founded after 2020" not met (on the web since 2011)`) {
		t.Errorf("a company on the web since 2011 for %q: %+v", "founded after 2020", v)
	}
	co.Founded = "2022"
	if v := m.Score(c, co); !v.Fit {
		t.Errorf("a company founded in 2022 for %q: %+v", "founded after 2020", v)
	}
}
