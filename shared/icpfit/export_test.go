package icpfit

// WithoutDoubt is the model with the doubt rule off: a reject line counts as ruled
// out as soon as it is judged, not matched and under strength 0.5 (the rule before
// Doubt), so the tests can show what the doubt rule costs and saves.
func WithoutDoubt(m *Model) *Model {
	off := clearance{maxStrength: 2, modelIn: 2, industryIn: 2}
	return &Model{file: m.file, clear: &off}
}

// Clearance is the doubt rule's thresholds (clearance), for the sweep in
// reject_test.go.
type Clearance struct {
	MaxStrength, ModelIn, ModelOut, ModelOutB2B, IndustrySure, IndustryIn float64
	MinWords                                                              int
}

// DefaultClearance is defaultClearance as a Clearance.
func DefaultClearance() Clearance {
	c := defaultClearance()
	return Clearance{c.maxStrength, c.modelIn, c.modelOut, c.modelOutB2B, c.industrySure, c.industryIn, c.minWords}
}

// WithClearance is the model with other doubt thresholds.
func WithClearance(m *Model, c Clearance) *Model {
	cl := clearance{maxStrength: c.MaxStrength, modelIn: c.ModelIn, modelOut: c.ModelOut, modelOutB2B: c.ModelOutB2B,
		industrySure: c.IndustrySure, industryIn: c.IndustryIn, minWords: c.MinWords}
	return &Model{file: m.file, clear: &cl}
}
