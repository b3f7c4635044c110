package emailpattern

// Learner collects the addresses seen per domain and learns each domain's pattern from
// them (LearnAll): what contact search and the email finder both learn from. The zero
// value is not usable; call NewLearner.
type Learner struct {
	seen []Observation
}

// NewLearner makes an empty Learner.
func NewLearner() *Learner { return &Learner{} }

// Add records a person's address at domain; name is "First Last" (the first word is
// the first name, the rest the last name). An empty email is ignored.
func (l *Learner) Add(domain, name, email string) {
	l.Observe(Observation{Domain: domain, Name: name, Email: email})
}

// Observe records one address seen at a domain, with where it was seen.
func (l *Learner) Observe(o Observation) {
	if o.Email == "" {
		return
	}
	l.seen = append(l.seen, o)
}

// Learn learns the pattern of every domain that has one, with a calibrated confidence
// and its evidence (LearnAll).
func (l *Learner) Learn() map[string]Learned {
	out, _ := LearnAll(l.seen)
	return out
}

// Patterns is Learn in the form of Pattern.
func (l *Learner) Patterns() map[string]Pattern {
	learned := l.Learn()
	out := make(map[string]Pattern, len(learned))
	for d, p := range learned {
		out[d] = p.Pattern()
	}
	return out
}
