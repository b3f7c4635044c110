package icpfit

// WithoutDoubt is the model with the doubt rule off: a reject line counts as ruled
// out as soon as it is judged, not matched and under strength 0.5 (the rule before
// Doubt), so the tests can show what the doubt rule costs and saves.
func WithoutDoubt(m *Model) *Model {
	off := clearance{maxStrength: 2, modelIn: 2, industryIn: 2}
	return &Model{file: m.file, clear: &off}
}
