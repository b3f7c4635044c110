// Package typedcol is the typed-column detector of batch research: it reads a research
// query and splits it into typed parts (yes/no, fixed-set, scale), which a typed-judgment
// provider answers with calibrated values, and a free-text remainder, which an LLM answers.
//
// # Rules
//
// The query is cut into parts: every line is a part, list items ("1. ", "2) ", "- ",
// "* ") included; a line holding several sentences is cut after each "?" and after
// each "." or "!" followed by a space (not after an abbreviation: a word of at most
// three characters or holding a dot, such as "Inc." or "e.g."; a number is none). A part may start with a short label
// ("Pricing: ...", at most five words before the colon, no URL), which becomes the
// column label.
//
// Each part is then classified by the first rule that matches:
//
//  1. scale: "on a scale of A to B", "scale of A-B", "scale from A to B", "rate/score/
//     rank/grade ... from A to B" or "rate ... (A/B/C)". Integer bounds give one level
//     per integer (at most 11, as "0 to 10"); words give the named levels, with "low to
//     high" widened to low, medium, high. The cell is a position: 0 is the first level.
//  2. yes/no with explicit marker: "yes or no", "yes/no", "(y/n)", "true or false",
//     "answer yes or no" anywhere in the part.
//  3. choice with explicit options: "one of: A, B, C", "one of A, B or C", "choose
//     from A, B, C", "pick from ...", "select from ...", "either A or B", or a trailing
//     parenthesised list with slashes or "|" ("(SaaS/Hardware/Services)"). At least two
//     options; at most 20.
//  4. choice by alternative: a question ("...?") of the form "... A or B?" or
//     "... A, B or C?", where each option is one word ("Is it B2B or B2C?"); longer
//     alternatives are ambiguous and fall to rule 5. "... or not?" is a yes/no.
//  5. yes/no by form: a question starting with an auxiliary verb (Is, Are, Does, Do,
//     Did, Has, Have, Had, Can, Could, Will, Would, Should, Was, Were, May, Might, Must)
//     and ending with "?".
//  6. everything else is free text (open questions such as "What ...?", instructions,
//     headings, context sentences).
//
// Column kinds are "noul" (yes/no), "choice" (fixed-set) and "scale" (ordered levels).
// Criteria: yes/no has the keys "true" and "false"; choice has one key per option;
// scale has one key per level position ("0", "1", ...) whose value names the level.
package typedcol

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// The column kinds.
const (
	KindYesNo  = "noul"
	KindChoice = "choice"
	KindScale  = "scale"
)

// Column is a typed column descriptor (the API reference's response_format.typed_columns item).
type Column struct {
	Key          string            `json:"key"`
	Label        string            `json:"label"`
	Kind         string            `json:"kind"`
	Instructions string            `json:"instructions"`
	Criteria     map[string]string `json:"criteria"`
	// Options are the choice options or the scale levels, in order (not serialized:
	// the criteria carry them for API users).
	Options []string `json:"-"`
}

// FreePart is one free-text part of the query, answered by the LLM.
type FreePart struct {
	Label string // "" when the part carried no label
	Text  string
}

// Split is the detector's answer.
type Split struct {
	Typed []Column
	Free  []FreePart
}

// FreeText joins the free-text parts back into one prompt.
func (s Split) FreeText() string {
	lines := make([]string, 0, len(s.Free))
	for _, f := range s.Free {
		if f.Label != "" {
			lines = append(lines, f.Label+": "+f.Text)
		} else {
			lines = append(lines, f.Text)
		}
	}
	return strings.Join(lines, "\n")
}

// Detect splits a query into typed columns and free-text parts.
func Detect(query string) Split {
	var s Split
	keys := map[string]int{}
	for _, p := range parts(query) {
		label, body := splitLabel(p)
		col, ok := classify(body)
		if !ok {
			s.Free = append(s.Free, FreePart{Label: label, Text: body})
			continue
		}
		if label == "" {
			label = deriveLabel(body)
		}
		col.Label = label
		col.Key = uniqueKey(keys, label)
		col.Instructions = body
		s.Typed = append(s.Typed, col)
	}
	return s
}

var (
	listMarker  = regexp.MustCompile(`^\s*(?:\d{1,3}[.)]|[-*•])\s+`)
	sentenceEnd = regexp.MustCompile(`[?]\s+|[.!]\s+`)
)

// parts cuts a query into lines and sentences.
func parts(q string) []string {
	var out []string
	for _, line := range strings.Split(strings.ReplaceAll(q, "\r\n", "\n"), "\n") {
		line = strings.TrimSpace(listMarker.ReplaceAllString(line, ""))
		if line == "" {
			continue
		}
		start := 0
		for _, m := range sentenceEnd.FindAllStringIndex(line, -1) {
			// A "." inside an abbreviation or a number ("e.g. ", "No. 5") is rare enough
			// in research prompts; cut only when the previous word is longer than 3 letters
			// or ends the sentence with "?" or "!".
			end := m[0] + 1
			if line[m[0]] == '.' && shortWordBefore(line[:m[0]]) {
				continue
			}
			if s := strings.TrimSpace(line[start:end]); s != "" {
				out = append(out, s)
			}
			start = m[1]
		}
		if s := strings.TrimSpace(line[start:]); s != "" {
			out = append(out, s)
		}
	}
	return attachOptionLists(out)
}

var optionSentence = regexp.MustCompile(`(?i)^(?:\(|one of\b|choose from\b|pick from\b|select from\b|options?:|answer (?:with )?(?:one of|yes or no)\b)`)

// attachOptionLists joins a sentence that only offers options ("One of A, B or C.",
// "(A/B/C)") to the question before it: they are one part.
func attachOptionLists(ps []string) []string {
	var out []string
	for _, p := range ps {
		if len(out) > 0 && optionSentence.MatchString(p) {
			out[len(out)-1] += " " + p
			continue
		}
		out = append(out, p)
	}
	return out
}

// shortWordBefore tells a "." after an abbreviation ("e.g.", "No.", "Inc.") from one
// ending a sentence. A number is no abbreviation: "on a scale of 1 to 5. Who ..." is
// two sentences.
func shortWordBefore(s string) bool {
	i := strings.LastIndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '(' })
	w := s[i+1:]
	if w != "" && strings.Trim(w, "0123456789") == "" {
		return false
	}
	return len(w) <= 3 || strings.Contains(w, ".")
}

var labelPrefix = regexp.MustCompile(`^([^:?]{1,60}):\s+(\S.*)$`)

// splitLabel separates "Label: text" when the label is short (at most five words).
func splitLabel(p string) (string, string) {
	m := labelPrefix.FindStringSubmatch(p)
	if m == nil {
		return "", p
	}
	label := strings.TrimSpace(m[1])
	if len(strings.Fields(label)) > 5 || strings.Contains(label, "//") {
		return "", p
	}
	if yesNoMarker.MatchString(label) || optionSentence.MatchString(label) {
		return "", p
	}
	low := strings.ToLower(label)
	// "one of: A, B" and "choose from: ..." are option lists, not labels.
	for _, w := range []string{"one of", "from", "options", "choices", "answer"} {
		if strings.HasSuffix(low, w) {
			return "", p
		}
	}
	return label, strings.TrimSpace(m[2])
}

func classify(p string) (Column, bool) {
	if c, ok := scale(p); ok {
		return c, true
	}
	if yesNoMarker.MatchString(p) {
		return yesNo(p), true
	}
	if opts := explicitOptions(p); len(opts) >= 2 {
		return choice(opts), true
	}
	if opts, isYesNo := alternatives(p); isYesNo {
		return yesNo(p), true
	} else if len(opts) >= 2 {
		return choice(opts), true
	}
	if auxQuestion.MatchString(p) {
		return yesNo(p), true
	}
	return Column{}, false
}

var (
	yesNoMarker = regexp.MustCompile(`(?i)\byes\s*(?:or|/)\s*no\b|\(y/n\)|\btrue\s*(?:or|/)\s*false\b`)
	auxQuestion = regexp.MustCompile(`(?i)^(?:is|are|does|do|did|has|have|had|can|could|will|would|should|was|were|may|might|must)\b[^?]*\?$`)
)

func yesNo(p string) Column {
	q := strings.TrimSpace(yesNoMarker.ReplaceAllString(p, ""))
	q = strings.TrimRight(strings.TrimSpace(strings.Trim(q, "()-–:, ")), " ,")
	return Column{Kind: KindYesNo, Criteria: map[string]string{
		"true":  "Yes: the record meets this: " + q,
		"false": "No: the record does not meet this, or the context shows no evidence of it: " + q,
	}}
}

func choice(opts []string) Column {
	crit := make(map[string]string, len(opts))
	for _, o := range opts {
		crit[o] = "The answer is " + o + "."
	}
	return Column{Kind: KindChoice, Criteria: crit, Options: opts}
}

var (
	oneOf       = regexp.MustCompile(`(?i)\b(?:one of|choose from|pick from|select from|chosen from)\s*:?\s*([^:?]+?)\s*(?:[.?:]|$)`)
	eitherOr    = regexp.MustCompile(`(?i)\beither\s+(.+?)\s+or\s+(.+?)\s*[.?]?$`)
	trailParens = regexp.MustCompile(`\(([^()]*[/|][^()]*)\)\s*[.?]?$`)
)

// explicitOptions finds an option list announced by words or by a parenthesised list.
func explicitOptions(p string) []string {
	if m := trailParens.FindStringSubmatch(p); m != nil {
		if opts := splitOptions(m[1], "/|"); len(opts) >= 2 {
			return opts
		}
	}
	if m := oneOf.FindStringSubmatch(p); m != nil {
		return listOptions(m[1])
	}
	if m := eitherOr.FindStringSubmatch(p); m != nil {
		return cleanOptions([]string{m[1], m[2]})
	}
	return nil
}

var lastConjunction = regexp.MustCompile(`(?i),?\s+(?:or|and)\s+`)

// listOptions reads "A, B, C", "A, B or C", "A, B, and C" or "A/B/C".
func listOptions(s string) []string {
	s = strings.TrimRight(strings.TrimSpace(s), ".?")
	if strings.ContainsAny(s, "/|") && !strings.Contains(s, ",") {
		return splitOptions(s, "/|")
	}
	s = lastConjunction.ReplaceAllString(s, ",")
	return cleanOptions(strings.Split(s, ","))
}

func splitOptions(s, seps string) []string {
	return cleanOptions(strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(seps, r) }))
}

func cleanOptions(raw []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, o := range raw {
		o = strings.Trim(strings.TrimSpace(o), `"'“”.`)
		if o == "" || seen[strings.ToLower(o)] {
			continue
		}
		seen[strings.ToLower(o)] = true
		out = append(out, o)
	}
	if len(out) > 20 {
		return nil
	}
	if isYesNoPair(out) {
		return nil // handled as yes/no
	}
	return out
}

func isYesNoPair(opts []string) bool {
	if len(opts) != 2 {
		return false
	}
	a, b := strings.ToLower(opts[0]), strings.ToLower(opts[1])
	return (a == "yes" && b == "no") || (a == "y" && b == "n") || (a == "true" && b == "false")
}

var altQuestion = regexp.MustCompile(`(?i)^(.*?)([\w&+./'-]+(?:,\s*[\w&+./'-]+)*),?\s+or\s+([\w&+./'-]+)\?$`)

// alternatives reads a question offering one-word alternatives: "Is it B2B or B2C?",
// "Is the company small, medium or large?". It reports isYesNo for "... or not?".
// Longer alternatives ("... resource planning suites or accounting packages?") cannot
// be told apart from the question's own words, so they stay a yes/no question.
func alternatives(p string) (opts []string, isYesNo bool) {
	if !strings.HasSuffix(p, "?") {
		return nil, false
	}
	if orNot.MatchString(p) {
		return nil, true
	}
	m := altQuestion.FindStringSubmatch(p)
	if m == nil {
		return nil, false
	}
	return cleanOptions(append(strings.Split(m[2], ","), m[3])), false
}

var orNot = regexp.MustCompile(`(?i)\bor\s+not\s*\?$`)

var (
	scaleRange  = regexp.MustCompile(`(?i)\b(?:on\s+a\s+scale\s+(?:of|from)|scale\s+(?:of|from)|from)\s+(\w+)\s*(?:to|-|–)\s*(\w+)(?:\s+to\s+(\w+))?`)
	scaleVerb   = regexp.MustCompile(`(?i)(?:^|\b)(?:rate|score|rank|grade|on\s+a\s+scale|scale\s+(?:of|from))\b`)
	scaleParens = regexp.MustCompile(`\(([^()]*/[^()]*)\)\s*[.?]?$`)
)

// scale recognises a rating on ordered levels.
func scale(p string) (Column, bool) {
	if !scaleVerb.MatchString(p) {
		return Column{}, false
	}
	var levels []string
	if m := scaleRange.FindStringSubmatch(p); m != nil {
		levels = scaleLevels(m[1], m[2], m[3])
	} else if m := scaleParens.FindStringSubmatch(p); m != nil {
		levels = splitOptions(m[1], "/")
	}
	if len(levels) < 2 {
		return Column{}, false
	}
	crit := make(map[string]string, len(levels))
	for i, l := range levels {
		crit[strconv.Itoa(i)] = l
	}
	return Column{Kind: KindScale, Criteria: crit, Options: levels}, true
}

func scaleLevels(a, b, c string) []string {
	lo, errA := strconv.Atoi(a)
	hi, errB := strconv.Atoi(b)
	if errA == nil && errB == nil {
		if hi <= lo || hi-lo > 10 {
			return nil
		}
		var out []string
		for i := lo; i <= hi; i++ {
			out = append(out, strconv.Itoa(i))
		}
		return out
	}
	if errA == nil || errB == nil {
		return nil
	}
	if c != "" {
		return []string{a, b, c}
	}
	if strings.EqualFold(a, "low") && strings.EqualFold(b, "high") {
		return []string{"low", "medium", "high"}
	}
	return []string{a, b}
}

// deriveLabel makes a column label from the question: the question without option lists
// and markers, whole (a label cut after a number of words reads "Rate their brand
// strength on a scale of 1 to").
func deriveLabel(p string) string {
	s := p
	if optionSentence.MatchString(s) {
		if i := strings.Index(s, ": "); i > 0 {
			s = s[i+2:] // "Choose from A, B: what do they sell?"
		}
	}
	if i := strings.Index(s, "?"); i > 0 && i < len(s)-1 {
		s = s[:i] // "What is X? One of A, B": the question names the column
	}
	s = trailParens.ReplaceAllString(s, "")
	if cut := optionPhrase.ReplaceAllString(s, ""); strings.TrimSpace(cut) != "" {
		s = cut
	}
	s = yesNoMarker.ReplaceAllString(s, "")
	s = answerSuffix.ReplaceAllString(strings.TrimSpace(s), "")
	s = answerPrefix.ReplaceAllString(s, "")
	s = strings.Trim(strings.TrimSpace(s), "?.!:;,-–() ")
	words := strings.Fields(s)
	if len(words) == 0 {
		return "Judgment"
	}
	out := strings.Join(words, " ")
	r := []rune(out)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

var (
	answerSuffix = regexp.MustCompile(`(?i)[,;:-]?\s*\b(?:answer|respond|reply)\b\s*$`)
	answerPrefix = regexp.MustCompile(`(?i)^\s*(?:answer|respond|reply)(?:\s+with)?\s*[:,-]?\s*`)
)

var optionPhrase = regexp.MustCompile(`(?i)\s*[,;:–-]?\s*\b(?:one of|choose from|pick from|select from)\b.*$`)

var nonKey = regexp.MustCompile(`[^a-z0-9]+`)

func uniqueKey(seen map[string]int, label string) string {
	k := strings.Trim(nonKey.ReplaceAllString(strings.ToLower(label), "_"), "_")
	if k == "" {
		k = "column"
	}
	seen[k]++
	if n := seen[k]; n > 1 {
		return fmt.Sprintf("%s_%d", k, n)
	}
	return k
}
