package cli

import (
	"fmt"
	"io"
	"strings"
)

// jobSummary counts a file job's rows for the line it ends with: rows in, rows out,
// how many have a result, and those without one by reason, so that no row goes
// missing or blank without saying so.
type jobSummary struct {
	in, out, withResult int
	// counted: the job counted rows with a result (a chunked job counts in and out only)
	counted bool
	reasons []string // in first-seen order
	counts  map[string]int
	// note is what the server said about rows it left out (counts of its own).
	note string
}

func newSummary(in int) *jobSummary { return &jobSummary{in: in, counts: map[string]int{}} }

func (s *jobSummary) hit() { s.withResult++; s.counted = true }

func (s *jobSummary) miss(reason string) {
	s.counted = true
	if s.counts[reason] == 0 {
		s.reasons = append(s.reasons, reason)
	}
	s.counts[reason]++
}

// line is "summary: 1200 rows in, 1200 out (input order), 982 with a result; without
// one: 18 not a domain, 200 closed or unknown to Firmo".
func (s *jobSummary) line() string {
	var b strings.Builder
	fmt.Fprintf(&b, "summary: %d rows in, %d out", s.in, s.out)
	if s.out == s.in {
		b.WriteString(" (input order)")
	}
	if s.counted {
		fmt.Fprintf(&b, ", %d with a result", s.withResult)
	}
	if len(s.reasons) > 0 {
		b.WriteString("; without one: ")
		for i, r := range s.reasons {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%d %s", s.counts[r], r)
		}
	}
	if s.note != "" {
		fmt.Fprintf(&b, " (%s)", s.note)
	}
	return b.String()
}

func (s *jobSummary) print(w io.Writer) { fmt.Fprintln(w, s.line()) }
