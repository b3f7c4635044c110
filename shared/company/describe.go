package company

import (
	"fmt"
	"sort"
	"strings"
)

// Describe writes the profile fields that tell a reader (an LLM's context in batch
// research, ICP validation and contact generation) which company this is, one
// "Field: value" line each, empty fields left out.
func (p Profile) Describe() string {
	var b strings.Builder
	line := func(k, v string) {
		if v = strings.TrimSpace(v); v != "" {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	line("Name", p.Name)
	line("Domain", p.Domain)
	line("Status", p.Status.Status)
	line("Description", clipRunes(p.Description, 1500))
	line("Industries", strings.Join(TopKeys(p.IndustryGroups, 5), ", "))
	line("Sub-industries", strings.Join(TopKeys(p.SubIndustry, 5), ", "))
	line("Business model", strings.Join(TopKeys(p.BusinessModel, 3), ", "))
	if p.Employees != nil {
		line("Employees", *p.Employees)
	}
	line("Revenue range", p.RevenueRange)
	var loc []string
	for _, v := range []string{p.Address.City, p.Address.State, p.Address.Country} {
		if strings.TrimSpace(v) != "" {
			loc = append(loc, v)
		}
	}
	line("Location", strings.Join(loc, ", "))
	line("Keywords", strings.Join(TopKeys(p.Keywords, 12), ", "))
	if p.StartDate != nil {
		line("Web presence since", *p.StartDate)
	}
	return strings.TrimRight(b.String(), "\n")
}

// TopKeys is the keys of one of a profile's score maps (industries, keywords, business
// model), highest score first, ties by key, at most n.
func TopKeys(m map[string]float64, n int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys[:min(n, len(keys))]
}

// clipRunes cuts s to at most n runes, marking the cut with an ellipsis.
func clipRunes(s string, n int) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
