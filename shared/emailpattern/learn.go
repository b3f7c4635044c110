package emailpattern

import "strings"

// Learner collects known addresses per domain and infers each domain's pattern from
// them: what contact search and the email composition both learn from the contact
// store. The zero value is not usable; call NewLearner.
type Learner struct {
	known map[string][]Known
}

// NewLearner makes an empty Learner.
func NewLearner() *Learner { return &Learner{known: map[string][]Known{}} }

// Add records a person's address at domain; name is "First Last" (the first word is
// the first name, the rest the last name). An empty email is ignored.
func (l *Learner) Add(domain, name, email string) {
	if email == "" {
		return
	}
	first, last, _ := strings.Cut(name, " ")
	l.known[domain] = append(l.known[domain], Known{First: first, Last: last, Email: email})
}

// Patterns infers the pattern of every domain that has one (see InferPattern).
func (l *Learner) Patterns() map[string]Pattern {
	out := make(map[string]Pattern, len(l.known))
	for d, ks := range l.known {
		if p, ok := InferPattern(ks); ok {
			out[d] = p
		}
	}
	return out
}
