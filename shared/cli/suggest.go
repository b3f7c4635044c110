package cli

import (
	"strings"

	flag "github.com/spf13/pflag"
)

// suggestFlag is "; did you mean --NAME?" for an unknown flag error whose flag is near
// (edit distance at most 2, or a prefix) one of fs's flags, else "".
func suggestFlag(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	i := strings.Index(msg, "unknown flag: --")
	if i < 0 {
		return ""
	}
	bad := strings.TrimPrefix(msg[i:], "unknown flag: --")
	if j := strings.IndexAny(bad, " ="); j >= 0 {
		bad = bad[:j]
	}
	best, bestD := "", 3
	fs.VisitAll(func(f *flag.Flag) {
		d := editDistance(bad, f.Name)
		if strings.HasPrefix(f.Name, bad) || strings.HasPrefix(bad, f.Name) {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = f.Name, d
		}
	})
	if best == "" {
		return ""
	}
	return "; did you mean --" + best + "?"
}

// editDistance is the Levenshtein distance of a and b (written here: a few lines, no
// library needed).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
