package icpfit

import (
	"fmt"
	"strings"
)

// A Yes must mean every reject line is confidently false on the evidence. A reject
// line whose evidence leaves room for it to hold (the classifier gives the rejected
// business model or industry a real score, the label that rules it out is weak or
// barely ahead, the homepage text is too thin to classify on, the line's strength is
// not negligible) is "in doubt": the verdict is No, and the reasoning names the line
// and the scores that left it in doubt.
//
// The thresholds were chosen on demo worlds with seeds 2-6 (1,500 companies) and
// measured on seeds 1 and 11, which they never saw; EVALUATION.md ("Reject lines on
// 300 world domains") gives both.

// clearance is what the evidence must show before a reject line's constraint counts
// as ruled out.
type clearance struct {
	// maxStrength: a constraint at or above this strength may hold.
	maxStrength float64
	// modelIn: a business model the line names, scored at least this, may hold;
	// modelOut: the best business model the line does not name must score at least
	// this (the classifier scores each label the probability that the company
	// serves those customers: about 0.75 is a clear industry's typical customers without
	// any cue on the page, which only a cue raises to 0.8 and above).
	modelIn, modelOut float64
	// modelOutB2B is the lower bar modelOut drops to when a line about consumers
	// is ruled out by B2B and the company's top industry, scored at least
	// industrySure, is one whose companies sell to businesses (businessIndustries).
	modelOutB2B, industrySure float64
	// industryIn: the line's industries summing at least this may hold.
	industryIn float64
	// minWords: homepage text (else description) of fewer words (wordCount) is too thin for a
	// classification to rule anything out.
	minWords int
}

func defaultClearance() clearance {
	return clearance{maxStrength: 0.4, modelIn: 0.4, modelOut: 0.8, modelOutB2B: 0.6, industrySure: 0.5, industryIn: 0.1, minWords: 30}
}

// consumerModels are the business models of a line about selling to consumers.
var consumerModels = map[string]bool{"B2C": true, "D2C": true, "C2C": true, "G2C": true}

// businessIndustries are industries whose companies sell to businesses, hardly ever
// to consumers: there a B2B reading of the page rules a consumer line out with less
// cue evidence than elsewhere. Industries where firms of both kinds are common
// (software and apps, finance, logistics and removals, building, law, property,
// education, health, hospitality, retail) are not in it.
var businessIndustries = map[string]bool{"IT_SERVICES": true, "CLOUD_COMPUTING": true, "CYBERSECURITY": true,
	"MARKETING_ADVERTISING": true, "CONSULTING": true, "MANUFACTURING": true, "CHEMICALS": true, "MINING_METALS": true}

// businessOnly reports whether a consumer line is ruled out by B2B on a company whose
// top industry sells to businesses.
func (cl clearance) businessOnly(s *subject, c constraint, e evidence) bool {
	for _, v := range c.values {
		if !consumerModels[v] {
			return false
		}
	}
	if e.outLabel != "B2B" || len(s.c.Industries) == 0 {
		return false
	}
	top := s.c.Industries[0]
	return businessIndustries[top] && score(s.c.IndustryScores, top) >= cl.industrySure
}

// words is how many words of text the company's classification could rest on.
func (s *subject) wordCount() int {
	if !s.counted {
		s.counted = true
		t := s.c.HomepageText
		if strings.TrimSpace(t) == "" {
			t = s.c.Description
		}
		s.nwords = len(strings.Fields(t))
	}
	return s.nwords
}

// doubt says why a constraint of a reject line is not confidently false on the
// evidence, or "" when it is. A negated constraint ("not a consultancy") is judged by
// its strength alone.
func (cl clearance) doubt(s *subject, c constraint, e evidence) string {
	if !e.known {
		return "not judged: " + e.text
	}
	if e.strength >= cl.maxStrength {
		return fmt.Sprintf("strength %.2f, at least %.2f", e.strength, cl.maxStrength)
	}
	if c.negated || !e.scored {
		return ""
	}
	switch c.kind {
	case kindModel:
		switch {
		case e.in >= cl.modelIn:
			return fmt.Sprintf("%s scored %.2f by the classifier, at least %.2f", strings.Join(c.values, "/"), e.in, cl.modelIn)
		case e.out < cl.modelOut && !(e.out >= cl.modelOutB2B && cl.businessOnly(s, c, e)):
			return fmt.Sprintf("the business model that rules it out scores %.2f, under %.2f", e.out, cl.modelOut)
		case s.wordCount() < cl.minWords:
			return fmt.Sprintf("classified from %d words of homepage text, under %d", s.wordCount(), cl.minWords)
		}
	case kindIndustry:
		switch {
		case e.in >= cl.industryIn:
			return fmt.Sprintf("%s scored %.2f by the classifier, at least %.2f", strings.Join(c.values, "/"), e.in, cl.industryIn)
		case s.wordCount() < cl.minWords:
			return fmt.Sprintf("classified from %d words of homepage text, under %d", s.wordCount(), cl.minWords)
		}
	}
	return ""
}
