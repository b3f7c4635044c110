package contactsearch

import (
	"strings"

	"github.com/firmoapi/firmo/shared/query"
)

// Match reports whether a contact passes every filter. It is the one definition of the
// filters: search, count and the legacy list all go through it.
func (f *Filters) Match(e *entry) bool {
	c := &e.C
	switch {
	case f.Domains != nil && !f.Domains[c.Domain],
		f.Seniority != nil && !f.Seniority[c.Seniority],
		f.NegSeniority[c.Seniority],
		f.Department != nil && !f.Department[c.Department],
		f.NegDepartment[c.Department],
		f.PersonCountry != nil && !f.PersonCountry[c.Country],
		f.NegPersonC[c.Country],
		f.PersonState != nil && !f.PersonState[e.PersonState],
		f.HasEmail && c.Email == nil,
		f.EmailValidated && !c.EmailValidated,
		f.HasPhone && len(c.Phone) == 0,
		f.HasMobile && !c.HasMobile(),
		f.HasLinkedin && !e.hasLinkedin,
		c.Connections < f.MinConnections,
		f.Country != nil && !f.Country[e.Co.Country],
		f.NegCountry[e.Co.Country],
		f.State != nil && !f.State[e.Co.StateCode],
		f.NegState[e.Co.StateCode] && e.Co.StateCode != "",
		f.Employees != nil && !f.Employees[e.Co.Employees]:
		return false
	}
	if f.JobFrom != "" {
		if c.JobstartDate == nil || *c.JobstartDate < f.JobFrom || (f.JobTo != "" && *c.JobstartDate > f.JobTo) {
			return false
		}
	}
	if f.Skills != nil && !anyOf(e.skills, f.Skills) {
		return false
	}
	if f.Industry != nil && !anyOf(e.Co.Industries, f.Industry) || f.NegIndustry != nil && anyOf(e.Co.Industries, f.NegIndustry) {
		return false
	}
	if f.Name != "" && !strings.Contains(e.nameFold, f.Name) {
		return false
	}
	if f.Title != nil && !f.Title.Match(c.Title) || f.NegTitle != nil && f.NegTitle.Match(c.Title) {
		return false
	}
	if f.Summary != nil && !summaryMatch(e.summaryFold, f.Summary) || f.NegSummary != nil && summaryMatch(e.summaryFold, f.NegSummary) {
		return false
	}
	return true
}

func anyOf(have []string, want set) bool {
	for _, h := range have {
		if want[h] {
			return true
		}
	}
	return false
}

// summaryMatch: any term matches when all its words occur in the summary as words or
// word prefixes ("engineer" matches "engineering"), accents and case ignored.
func summaryMatch(summary string, terms [][]string) bool {
	for _, words := range terms {
		ok := true
		for _, w := range words {
			if !strings.Contains(summary, " "+w) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// candidates are the indexes of the entries passing the filters and the scope, ascending.
func (sn *snapshot) candidates(f *Filters, scope *query.Scope) []int {
	list := sn.candidateList(f, scope)
	out := make([]int, len(list))
	for k, i := range list {
		out[k] = int(i)
	}
	return out
}

// candidateList is candidates as entry numbers; it may be a postings list itself, so it is
// read only. The postings narrow the entries Match runs on (or, when they cover the whole
// filter, answer it).
func (sn *snapshot) candidateList(f *Filters, scope *query.Scope) []int32 {
	idx, all, match := sn.post.candidates(f)
	if !match && scope == nil {
		if all {
			return sn.post.every
		}
		return idx
	}
	if all {
		idx = sn.post.every
	}
	var out []int32
	for _, i := range idx {
		e := &sn.entries[i]
		if (!match || f.Match(e)) && (scope == nil || scope.Allows(e.C.Domain, e.C.PersonaID)) {
			out = append(out, i)
		}
	}
	return out
}
