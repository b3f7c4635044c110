package icpfit

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
)

// FileFormat is the model file layout this package reads.
const FileFormat = 1

// File is the versioned model file: JSON, written by icptrain, read by Load.
type File struct {
	Format  int    `json:"format"`
	Version string `json:"version"`
	// TrainedOn says what the verdicts came from, in words (the demo world's seed and
	// size, the LLM integration's provider and model, how many pairs).
	TrainedOn string `json:"trained_on"`
	// Labels is "truth" (the demo world generator's truth) or "llm:<provider>/<model>".
	Labels      string      `json:"labels"`
	Features    []string    `json:"features"`
	Weights     []float64   `json:"weights"`
	Bias        float64     `json:"bias"`
	Calibration Calibration `json:"calibration"`
	// HeldOut are the figures measured on pairs the fit and the calibration never saw.
	HeldOut *Metrics `json:"held_out,omitempty"`
}

// Calibration maps the logistic model's probability to a calibrated one.
type Calibration struct {
	// Method is "isotonic" (X, Y: a non-decreasing step function, interpolated
	// linearly between its knots), "platt" (sigmoid(A*logit(p)+B)) or "none".
	Method string    `json:"method"`
	X      []float64 `json:"x,omitempty"`
	Y      []float64 `json:"y,omitempty"`
	A      float64   `json:"a,omitempty"`
	B      float64   `json:"b,omitempty"`
	// Pairs is how many held-out verdicts the calibration was fitted on.
	Pairs int `json:"pairs"`
}

// Metrics are calibration and accuracy figures of a set of scored verdicts.
type Metrics struct {
	Pairs int     `json:"pairs"`
	Brier float64 `json:"brier"`
	ECE   float64 `json:"ece"` // expected calibration error, 10 equal-width bins
	// HighShare is the share of rows in the high-confidence bands (score <= 0.15 or >=
	// 0.85) and HighAccuracy the share of those whose Fit agrees with the label.
	HighShare    float64 `json:"high_share"`
	HighAccuracy float64 `json:"high_accuracy"`
	MediumShare  float64 `json:"medium_share"`
	LowShare     float64 `json:"low_share"`
	Accuracy     float64 `json:"accuracy"`  // Fit (score >= 0.50) against the label, all rows
	Positives    float64 `json:"positives"` // share of labels that are fits
	// Bins are the reliability diagram's rows (empty bins left out).
	Bins []Bin `json:"bins,omitempty"`
}

// Bin is one row of a reliability diagram: the verdicts whose score fell in [Lo, Hi).
type Bin struct {
	Lo        float64 `json:"lo"`
	Hi        float64 `json:"hi"`
	Count     int     `json:"count"`
	MeanScore float64 `json:"mean_score"`
	FitRate   float64 `json:"fit_rate"`
}

// Model scores ICP fit. It is safe for concurrent use.
type Model struct {
	file   File
	parsed parsedCache
	// clear, when set, replaces defaultClearance (the tests' threshold sweeps).
	clear *clearance
}

func (m *Model) clearance() clearance {
	if m.clear != nil {
		return *m.clear
	}
	return defaultClearance()
}

// Parse reads and checks a model file.
func Parse(data []byte) (*Model, error) {
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("icp model file: %w", err)
	}
	if err := f.check(); err != nil {
		return nil, fmt.Errorf("icp model file %q: %w", f.Version, err)
	}
	return &Model{file: f}, nil
}

// New makes a Model from a file value (icptrain's output).
func New(f File) (*Model, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	return &Model{file: f}, nil
}

func (f File) check() error {
	if f.Format != FileFormat {
		return fmt.Errorf("format %d, this build reads format %d", f.Format, FileFormat)
	}
	if f.Version == "" {
		return fmt.Errorf("no version")
	}
	names := FeatureNames()
	if len(f.Features) != len(names) || len(f.Weights) != len(names) {
		return fmt.Errorf("%d features and %d weights; this build computes %d features", len(f.Features), len(f.Weights), len(names))
	}
	for i, n := range names {
		if f.Features[i] != n {
			return fmt.Errorf("feature %d is %q, this build computes %q", i, f.Features[i], n)
		}
	}
	for _, w := range append(append([]float64{f.Bias}, f.Weights...), f.Calibration.A, f.Calibration.B) {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("a weight is not a finite number")
		}
	}
	c := f.Calibration
	switch c.Method {
	case "none", "platt":
	case "isotonic":
		if len(c.X) == 0 || len(c.X) != len(c.Y) {
			return fmt.Errorf("isotonic calibration needs as many x as y knots (%d, %d)", len(c.X), len(c.Y))
		}
		for i := range c.X {
			if c.Y[i] < 0 || c.Y[i] > 1 || (i > 0 && (c.X[i] < c.X[i-1] || c.Y[i] < c.Y[i-1])) {
				return fmt.Errorf("isotonic calibration knots must be sorted and non-decreasing within [0, 1]")
			}
		}
	default:
		return fmt.Errorf("unknown calibration method %q", c.Method)
	}
	return nil
}

// Version is the model file's version.
func (m *Model) Version() string { return m.file.Version }

// File returns the model file (a copy of its slices is not made: do not change them).
func (m *Model) File() File { return m.file }

// Marshal writes the model file, indented, with a final newline.
func (f File) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// FeatureNames are the model's inputs, in order: per section (mandatory, reject) and
// constraint kind the summed log-strength and the count of constraints judged without
// data, then the nice-to-haves' mean strength and count, and the mandatory lines no
// constraint was recognised in.
func FeatureNames() []string {
	var out []string
	for _, sec := range []string{"mandatory", "reject"} {
		for _, k := range kindNames {
			out = append(out, sec+"."+k+".log", sec+"."+k+".unknown")
		}
	}
	return append(out, "nice.mean", "nice.count", "mandatory.unparsed")
}

// featureIndex positions of the trailing features.
func featureAt(section string, k kind, unknown bool) int {
	i := int(k) * 2
	if section == SectionReject {
		i += int(numKinds) * 2
	}
	if unknown {
		i++
	}
	return i
}

var (
	niceMean   = int(numKinds) * 4
	niceCount  = niceMean + 1
	unparsedAt = niceMean + 2
)

// Verdict is the model's answer for one company.
type Verdict struct {
	Score     float64 // calibrated probability, two decimals, deterministic
	Fit       bool    // Score >= 0.50
	Band      string  // BandHigh, BandMedium or BandLow
	Reasoning string  // the band, then the criteria that decided
	Criteria  []CriterionResult
}

// CriterionResult is the evidence for one criterion line. For a Reject line Met means
// the company matches the rejection.
type CriterionResult struct {
	Section  string  `json:"section"` // SectionMandatory, SectionReject or SectionNice
	Text     string  `json:"text"`
	Met      bool    `json:"met"`
	Strength float64 `json:"strength"` // belief that the line holds for the company, 0-1, two decimals
	Evidence string  `json:"evidence"`
	// Known is false when the company lacks the data to judge some part of the line
	// (no head count, no industry, no homepage text); such a line is never Met.
	Known bool `json:"known"`
	// Doubt, on a reject line only, says why the evidence does not rule the line out
	// with confidence (the rejected label's score, the weak label that rules it out,
	// thin homepage text); "" when it does. A reject line in doubt keeps the verdict
	// from Yes.
	Doubt string `json:"doubt,omitempty"`

	// judged is true when a constraint was recognised in the line (an unrecognised
	// line has the neutral strength 0.5 and decides nothing); ruleOnly when one of its
	// constraints is no input of the logistic model (founding year), so the rules of
	// decide carry it alone.
	judged, ruleOnly bool
}

// ScoreText is the ICP Score column: the score with two decimals ("0.87").
func (v Verdict) ScoreText() string { return fmt.Sprintf("%.2f", v.Score) }

// FitText is the ICP Fit column: "Yes" or "No".
func (v Verdict) FitText() string {
	if v.Fit {
		return "Yes"
	}
	return "No"
}

// Confidence bands of the API reference's native ICP table.
const (
	BandHigh   = "High confidence"
	BandMedium = "Medium confidence"
	BandLow    = "Low confidence - near the decision boundary, treat as unresolved"
)

// BandOf is the confidence band of a score: high at or below 0.15 and at or above
// 0.85, low strictly between 0.35 and 0.65, medium in between.
func BandOf(score float64) string {
	switch {
	case score <= 0.15 || score >= 0.85:
		return BandHigh
	case score > 0.35 && score < 0.65:
		return BandLow
	default:
		return BandMedium
	}
}

// Features computes the model's inputs and the per-criterion evidence.
func (m *Model) Features(c Criteria, co Company) ([]float64, []CriterionResult) {
	x := make([]float64, len(FeatureNames()))
	s := &subject{c: co}
	cl := m.clearance()
	var results []CriterionResult
	niceSum := 0.0
	for _, sec := range []struct {
		name  string
		lines []string
	}{{SectionMandatory, c.Mandatory}, {SectionReject, c.Reject}, {SectionNice, c.Nice}} {
		for _, line := range sec.lines {
			cs := m.parsed.get(line)
			res := CriterionResult{Section: sec.name, Text: line, Strength: 0.5}
			if len(cs) == 0 {
				res.Evidence = "no constraint recognised in this line"
				if sec.name == SectionMandatory {
					x[unparsedAt]++
				}
				results = append(results, res)
				continue
			}
			p := 1.0
			weakest, weakestKind, anyUnknown := 2.0, kindText, false
			var ev, doubts []string
			cleared := false
			res.judged = true
			for _, con := range cs {
				e := s.judge(con)
				if sec.name == SectionReject {
					// The line holds only when all its constraints do: one ruled out
					// with confidence clears it.
					if d := cl.doubt(s, con, e); d == "" {
						cleared = true
					} else {
						doubts = append(doubts, d)
					}
				}
				p *= e.strength
				ev = append(ev, e.text)
				if con.kind >= numKinds {
					res.ruleOnly = true
				} else if e.strength < weakest {
					weakest, weakestKind = e.strength, con.kind
				}
				if sec.name == SectionMandatory && con.kind < numKinds {
					x[featureAt(SectionMandatory, con.kind, false)] += math.Log(e.strength)
					if !e.known {
						x[featureAt(SectionMandatory, con.kind, true)]++
					}
				}
				anyUnknown = anyUnknown || !e.known
			}
			switch {
			case sec.name == SectionReject && weakest <= 1:
				x[featureAt(SectionReject, weakestKind, false)] += math.Log(math.Max(1-p, unsure))
				if anyUnknown {
					x[featureAt(SectionReject, weakestKind, true)]++
				}
			case sec.name == SectionNice:
				niceSum += p
				x[niceCount]++
			}
			res.Strength = round2(p)
			res.Known = !anyUnknown
			res.Met = p >= 0.5 && res.Known
			res.Evidence = strings.Join(ev, "; ")
			if sec.name == SectionReject && !cleared {
				res.Doubt = strings.Join(doubts, "; ")
			}
			results = append(results, res)
		}
	}
	if x[niceCount] > 0 {
		x[niceMean] = niceSum / x[niceCount]
	}
	return x, results
}

// Raw is the logistic model's probability for a feature vector, before calibration.
func (m *Model) Raw(x []float64) float64 {
	z := m.file.Bias
	for i, w := range m.file.Weights {
		z += w * x[i]
	}
	return sigmoid(z)
}

// Calibrate maps a raw probability through the model's calibration.
func (m *Model) Calibrate(p float64) float64 { return m.file.Calibration.Apply(p) }

// Apply maps a raw probability to a calibrated one.
func (c Calibration) Apply(p float64) float64 {
	switch c.Method {
	case "platt":
		q := math.Min(math.Max(p, 1e-9), 1-1e-9)
		return sigmoid(c.A*math.Log(q/(1-q)) + c.B)
	case "isotonic":
		i := sort.SearchFloat64s(c.X, p)
		switch {
		case i == 0:
			return c.Y[0]
		case i >= len(c.X):
			return c.Y[len(c.Y)-1]
		}
		x0, x1 := c.X[i-1], c.X[i]
		if x1 == x0 {
			return c.Y[i]
		}
		return c.Y[i-1] + (c.Y[i]-c.Y[i-1])*(p-x0)/(x1-x0)
	default:
		return p
	}
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// Score judges one company against the criteria. The score is the calibrated
// probability rounded to two decimals (the ICP Score the API shows), so Fit and Band
// always agree with the shown score.
func (m *Model) Score(c Criteria, co Company) Verdict {
	x, results := m.Features(c, co)
	score := decide(round2(m.Calibrate(m.Raw(x))), results)
	v := Verdict{Score: score, Fit: score >= 0.5, Band: BandOf(score), Criteria: results}
	v.Reasoning = reasoning(v)
	return v
}

// noFit is the highest score a verdict a rule decided against may show.
const noFit = 0.49

// decide applies the rules no weighing of the other lines may override:
//   - a reject line is decisive: the company fits at most as likely as the line fails
//     to hold (score <= 1 - strength), and a line matched, one that could not be
//     judged, or one the evidence does not rule out with confidence (Doubt) makes the
//     verdict No;
//   - a mandatory line the logistic model has no input for (the founding year) bounds
//     the score by its strength the same way, and makes it No when it is not met.
//
// Lines in which no constraint was recognised decide nothing.
func decide(score float64, results []CriterionResult) float64 {
	for _, r := range results {
		if !r.judged {
			continue
		}
		switch {
		case r.Section == SectionReject:
			score = math.Min(score, round2(1-r.Strength))
			if r.Met || !r.Known || r.Strength >= 0.5 || r.Doubt != "" {
				score = math.Min(score, noFit)
			}
		case r.Section == SectionMandatory && r.ruleOnly:
			score = math.Min(score, r.Strength)
			if !r.Met {
				score = math.Min(score, noFit)
			}
		}
	}
	return score
}

// rejectedBy reports whether a reject line keeps a verdict from being Yes: matched,
// not judged for want of data, or not ruled out with confidence.
func rejectedBy(r CriterionResult) bool {
	return r.Section == SectionReject && r.judged && (r.Met || !r.Known || r.Strength >= 0.5 || r.Doubt != "")
}

// rejectSentence is what the reasoning says of a reject line that keeps the verdict
// from Yes, with the evidence (and the scores) it rests on.
func rejectSentence(r CriterionResult) string {
	switch {
	case r.Met:
		return fmt.Sprintf("%s %q matched, which rules the company out (%s)", r.Section, r.Text, r.Evidence)
	case !r.Known:
		return fmt.Sprintf("%s %q could not be judged, so the company cannot be cleared of it (%s)", r.Section, r.Text, r.Evidence)
	case r.Strength >= 0.5:
		return fmt.Sprintf("%s %q may hold, so the company cannot be cleared of it (%s)", r.Section, r.Text, r.Evidence)
	default:
		return fmt.Sprintf("%s %q is uncertain on the evidence (%s: %s), so the company cannot be cleared of it", r.Section, r.Text, r.Evidence, r.Doubt)
	}
}

// Blocker is a reject line that keeps a verdict from Yes.
type Blocker struct {
	Line CriterionResult
	// Matched: the evidence matches the line; otherwise it only fails to rule the
	// line out (not judged for want of data, or in doubt).
	Matched bool
	// Reason is the sentence the reasoning gives the line, with its evidence.
	Reason string
}

// Blockers lists the reject lines of c that keep a verdict about co from Yes by the
// rules Score applies: matched, not judged for want of data, or not ruled out with
// confidence (Doubt). The LLM run of ICP validation applies the same rule to the
// model's answer.
func Blockers(c Criteria, co Company) []Blocker {
	var m Model
	_, res := m.Features(c, co)
	var out []Blocker
	for _, r := range res {
		if rejectedBy(r) {
			out = append(out, Blocker{Line: r, Matched: r.Met, Reason: rejectSentence(r)})
		}
	}
	return out
}

// reasoning is the band followed by the criteria that decided: for a fit, the
// mandatory lines met (and the weakest of them when the score is not high); for a
// non-fit, the mandatory lines not met and the reject lines matched.
func reasoning(v Verdict) string {
	var decided []string
	name := func(r CriterionResult, verb string) string {
		return fmt.Sprintf("%s %q %s (%s)", r.Section, r.Text, verb, r.Evidence)
	}
	// A reject line that decided comes first: it alone settles the verdict.
	for _, r := range v.Criteria {
		if rejectedBy(r) {
			decided = append(decided, rejectSentence(r))
		}
	}
	for _, r := range v.Criteria {
		switch {
		case rejectedBy(r):
		case r.Section == SectionMandatory && !r.Known:
			decided = append(decided, name(r, "could not be judged"))
		case r.Section == SectionMandatory && !r.Met:
			decided = append(decided, name(r, "not met"))
		case r.Section == SectionReject && r.Met:
			decided = append(decided, name(r, "matched"))
		}
	}
	if len(decided) == 0 || v.Fit {
		var met []string
		for _, r := range v.Criteria {
			if r.Section == SectionMandatory && r.Met {
				met = append(met, name(r, "met"))
			}
		}
		if v.Fit || len(decided) == 0 {
			decided = append(met, decided...)
		}
	}
	if len(decided) > 4 {
		decided = append(decided[:4], fmt.Sprintf("and %d more", len(decided)-4))
	}
	if len(decided) == 0 {
		return v.Band + ". No criterion could be judged."
	}
	return v.Band + ". " + strings.Join(decided, "; ") + "."
}

// Evidence judges every criterion line against a company without a model: the
// per-criterion results Score reports. Training uses it to label pairs with the
// truth of the demo world.
func Evidence(c Criteria, co Company) []CriterionResult {
	var m Model
	_, res := m.Features(c, co)
	return res
}

// Holds reports whether a company meets criteria by their evidence alone: every
// mandatory line met and no reject line matched.
func Holds(res []CriterionResult) bool {
	for _, r := range res {
		if (r.Section == SectionMandatory && !r.Met) || (r.Section == SectionReject && r.Met) {
			return false
		}
	}
	return true
}
