// Package icpfit is Firmo's native ICP-fit model (integration_id native-icp on
// POST /v1/validate/icp and POST /v1/gen/process): it reads the criteria of an ICP
// prompt under the headings Mandatory:, Reject if: and Nice-to-have:, scores each
// criterion against what Firmo knows about a company (industries, size, revenue,
// country and state, business model, technologies, keywords, description, homepage
// text), and combines the per-criterion evidence with a small logistic model whose
// output is calibrated on held-out verdicts. The same input always gives the same
// score. The model file is versioned JSON; the default one is embedded, and
// shared/icpfit/icptrain (the `firmo icp-train` command) writes new ones. See
// EVALUATION.md for what the shipped model was trained on and how well it is
// calibrated.
package icpfit

import (
	"regexp"
	"strings"
)

// Section names, as Criteria keeps them and CriterionResult.Section reports them.
const (
	SectionMandatory = "Mandatory"
	SectionReject    = "Reject if"
	SectionNice      = "Nice-to-have"
)

// Headings are the three headings an ICP prompt must carry, as error messages name them.
var Headings = []string{"Mandatory:", "Reject if:", "Nice-to-have:"}

// Criteria are the criterion lines of an ICP prompt, by section.
type Criteria struct{ Mandatory, Reject, Nice []string }

// heading matches a heading line: optional markdown (#, *, _, -) around "Mandatory",
// "Reject if", "Nice-to-have" (or "nice to have", "nice have"), case and spacing free,
// a colon, then optional text on the same line (an inline criterion).
var heading = regexp.MustCompile(`(?i)^[\s#*_>-]*(mandatory|reject[\s_-]*if|nice[\s_-]*(?:to[\s_-]*)?haves?)[\s*_]*:[\s*_]*(.*)$`)

// bullet strips list markers: "-", "*", "•", "1.", "2)", "a)".
var bullet = regexp.MustCompile(`^\s*(?:[-*•·–]+|\(?[0-9]{1,2}[.)]|[a-z][)])\s+`)

// ParseCriteria reads the criteria under the three headings. A heading may carry
// its first criterion on the same line ("Mandatory: SaaS"); each further non-empty
// line until the next heading is one criterion, list markers removed. Lines before
// the first heading are the ICP's free text and are not criteria. missing lists the
// headings absent, as Headings spells them, in Headings' order (nil when all are
// there). Headings are recognised whatever their case and spacing, with markdown
// emphasis or heading marks around them.
func ParseCriteria(text string) (c Criteria, missing []string) {
	seen := map[string]bool{}
	var cur *[]string
	add := func(line string) {
		line = strings.TrimSpace(bullet.ReplaceAllString(line, ""))
		line = strings.Trim(line, "*_ \t")
		if cur != nil && line != "" {
			*cur = append(*cur, strings.Join(strings.Fields(line), " "))
		}
	}
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if m := heading.FindStringSubmatch(line); m != nil {
			switch sectionOf(m[1]) {
			case SectionMandatory:
				cur = &c.Mandatory
			case SectionReject:
				cur = &c.Reject
			default:
				cur = &c.Nice
			}
			seen[sectionOf(m[1])] = true
			add(m[2])
			continue
		}
		add(line)
	}
	for i, s := range []string{SectionMandatory, SectionReject, SectionNice} {
		if !seen[s] {
			missing = append(missing, Headings[i])
		}
	}
	return c, missing
}

func sectionOf(h string) string {
	h = strings.ToLower(h)
	switch {
	case strings.HasPrefix(h, "reject"):
		return SectionReject
	case strings.HasPrefix(h, "nice"):
		return SectionNice
	default:
		return SectionMandatory
	}
}

// Text writes criteria back as an ICP prompt with the three headings, one criterion
// per list line (the form icptrain sends to an LLM and ParseCriteria reads back).
func (c Criteria) Text() string {
	var b strings.Builder
	for i, list := range [][]string{c.Mandatory, c.Reject, c.Nice} {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(Headings[i] + "\n")
		for _, l := range list {
			b.WriteString("- " + l + "\n")
		}
	}
	return b.String()
}
