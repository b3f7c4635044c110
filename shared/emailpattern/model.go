package emailpattern

import (
	"math"
	"strings"
)

// Observation is one address seen at a domain: a contact's, one shown on a page, or
// one the finder proved. Source says where it was seen ("contact:1201",
// "page:https://acme.com/team", "found:<job id>").
type Observation struct {
	Domain string
	Name   string // "First Last": the first word is the first name, the rest the last name
	Email  string
	Source string
}

// Example is one address behind a learned pattern.
type Example struct {
	Email  string `json:"email"`
	Source string `json:"source"`
	Fits   bool   `json:"fits"` // the address follows the learned pattern
}

// Evidence is what a learned pattern rests on: the addresses with a usable name at the
// domain that fit it, those that contradict it (follow another pattern or none), and a
// few of each with where they were seen. This is email_pattern_evidence.
type Evidence struct {
	Fit        int       `json:"fit"`
	Contradict int       `json:"contradict"`
	Examples   []Example `json:"examples"`
}

// Learned is a domain's learned pattern.
type Learned struct {
	Template string // the local-part template, "{first}.{last}"
	Domain   string // the domain most of the fitting addresses use
	Guess    string // the pattern applied to a hypothetical Jane Doe
	Evidence Evidence
	// Confidence (0-1) is the probability that the address of another person of the
	// company follows Template, calibrated on held-out people (CALIBRATION.md next to
	// this file): the posterior of Template given the domain's addresses, times the
	// share of people who follow their company's pattern, both learned from every
	// domain the learner holds.
	Confidence float64
	// Spelling is how most of the domain's addresses write letters with two ASCII
	// spellings (ü: u or ue); SpellingUnknown when none shows it.
	Spelling Spelling
}

// Address is the template with the domain: email_pattern ("{first}.{last}@acme.com").
func (l Learned) Address() string { return l.Template + "@" + l.Domain }

// Pattern is the learned pattern in the finder's and contact search's form.
func (l Learned) Pattern() Pattern {
	return Pattern{Template: l.Template, Domain: l.Domain, Confidence: l.Confidence, Guess: l.Guess,
		Matches: l.Evidence.Fit, Samples: l.Evidence.Fit + l.Evidence.Contradict, Spelling: l.Spelling}
}

// maxExamples bounds Evidence.Examples (fitting ones first).
const maxExamples = 5

// Model holds what is learned across domains: how common each template is as a
// company's pattern (Prior), and how often a person's address does not follow the
// company's pattern (Noise).
type Model struct {
	Prior []float64 // by index of CommonTemplates, sums to 1
	Noise float64   // in (0, 0.5]
}

// obs is an observation with the templates its address matches.
type obs struct {
	email, source, domain string
	match                 uint64   // bit i: CommonTemplates[i] builds the local part
	spelling              Spelling // how the local part writes letters with two spellings
}

// matchMask returns the templates building local from some spelling of the names, as
// a bit set over CommonTemplates.
func matchMask(local string, firsts, lasts nameForms) uint64 {
	var m uint64
	for i, t := range CommonTemplates {
	spellings:
		for _, f := range firsts {
			for _, l := range lasts {
				if t.Apply(f, l) == local {
					m |= 1 << i
					break spellings
				}
			}
		}
	}
	return m
}

// observe turns an observation into obs; false when the name or address is unusable.
func observe(o Observation) (obs, bool) {
	local, domain, ok := splitAddress(o.Email)
	if !ok {
		return obs{}, false
	}
	first, last, _ := strings.Cut(strings.TrimSpace(o.Name), " ")
	firsts, lasts := forms(first, true, false, false), forms(last, true, false, true)
	if len(firsts) == 0 || len(lasts) == 0 {
		return obs{}, false
	}
	return obs{email: local + "@" + domain, source: o.Source, domain: domain, match: matchMask(local, firsts, lasts),
		spelling: spellingOf(o.Name, local)}, true
}

// posterior is the probability of each template being the company's pattern given its
// addresses: each address that a template builds has probability 1-Noise under it;
// one it does not build is noise, probability Noise x q, q the share of templates that
// do build it (an address no template builds is equally likely under all and is left
// out).
func (m Model) posterior(ms []maskCount) []float64 {
	n := len(CommonTemplates)
	logp := make([]float64, n)
	for i := range logp {
		logp[i] = math.Log(m.Prior[i])
	}
	for _, mc := range ms {
		k := popcount(mc.mask)
		if k == 0 {
			continue
		}
		q := float64(k) / float64(n)
		c := float64(mc.count)
		for i := range logp {
			if mc.mask&(1<<i) != 0 {
				logp[i] += c * math.Log(1-m.Noise+m.Noise*q)
			} else {
				logp[i] += c * math.Log(m.Noise*q)
			}
		}
	}
	top := math.Inf(-1)
	for _, v := range logp {
		top = max(top, v)
	}
	sum := 0.0
	for i, v := range logp {
		logp[i] = math.Exp(v - top)
		sum += logp[i]
	}
	for i := range logp {
		logp[i] /= sum
	}
	return logp
}

func popcount(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// LearnAll learns the pattern of every domain of the observations, with one Model fit
// on all of them (Summarize, TotalsOf, LearnSummary). An address is counted once per
// domain (the first source seen is the one kept).
func LearnAll(observations []Observation) (map[string]Learned, Model) {
	sums := Summarize(observations)
	m := TotalsOf(sums).Model()
	out := make(map[string]Learned, len(sums))
	for _, d := range sortedKeys(sums) {
		if l, ok := m.LearnSummary(d, sums[d]); ok {
			out[d] = l
		}
	}
	return out, m
}

// Follows reports whether email's local part is t applied to some spelling of name
// ("First Last"); false when t is not one of CommonTemplates.
func Follows(t Template, name, email string) bool {
	o, ok := observe(Observation{Name: name, Email: email})
	if !ok {
		return false
	}
	for i, c := range CommonTemplates {
		if c == t {
			return o.match&(1<<i) != 0
		}
	}
	return false
}

// Calibration measures predicted probabilities against outcomes: the expected
// calibration error over Bins equal-width bins (the share-weighted gap between the mean
// prediction and the observed rate in each bin) and the Brier score (mean squared error).
type Calibration struct {
	N     int
	ECE   float64
	Brier float64
	// Accuracy is the observed rate of true outcomes; MeanConfidence the mean prediction.
	Accuracy, MeanConfidence float64
}

// Calibrate computes the calibration of predictions (in [0,1]) against outcomes over
// bins equal-width bins.
func Calibrate(pred []float64, outcome []bool, bins int) Calibration {
	c := Calibration{N: len(pred)}
	if c.N == 0 || bins <= 0 {
		return c
	}
	sumP, sumY, cnt := make([]float64, bins), make([]float64, bins), make([]float64, bins)
	for i, p := range pred {
		y := 0.0
		if outcome[i] {
			y = 1
		}
		b := min(int(p*float64(bins)), bins-1)
		sumP[b] += p
		sumY[b] += y
		cnt[b]++
		c.Brier += (p - y) * (p - y)
		c.Accuracy += y
		c.MeanConfidence += p
	}
	n := float64(c.N)
	for b := range bins {
		if cnt[b] > 0 {
			c.ECE += math.Abs(sumP[b]-sumY[b]) / n
		}
	}
	c.Brier /= n
	c.Accuracy /= n
	c.MeanConfidence /= n
	return c
}
