package namematch

import (
	"slices"
	"sort"
	"strings"
	"unicode"
)

// Name similarity, 0 to 1, blends a token-level and a character-level comparison of
// two normalized names:
//
//	token  = 2 × Σ sim(q,c) × (w(q)+w(c))/2 / (Σ w(query tokens) + Σ w(candidate tokens))
//	         over a one-to-one pairing of tokens, best pairs first; w is 1 for a
//	         distinctive word, 0.5 for a generic one ("software", "group"), 0.25 for a
//	         stopword; sim(q,c) is tokenSim. When every token of one side is paired,
//	         the other side's unpaired generic words and stopwords weigh only 0.2 and 0.1:
//	         "ASML" against "ASML Holding" is a shorter name of the same company, while
//	         "Smith Software" against "Smith Logistics" is a conflict.
//	char   = Dice coefficient of the character trigrams of the names written without
//	         spaces (the better of the tokens in order and sorted), so split or merged
//	         words ("Coca Cola", "CocaCola") and word order cost little.
//	S      = max(0.65 × token + 0.35 × char, char − 0.05, acronym) − order
//
// where acronym is AcronymSimilarity when one name is a single token equal to the
// other's acronym (a weak signal: on its own it stays below the default threshold,
// so "IBM" does not match every "I... B... M..." company without other evidence), and
// order is OrderPenalty when the paired tokens stand in another order ("Rossi &
// Bianchi" and "Bianchi & Rossi" are often two firms). Identical names score 1;
// otherwise S is at most 0.99.
func Similarity(q, c Name) float64 {
	if len(q.Tokens) == 0 || len(c.Tokens) == 0 {
		return 0
	}
	if slices.Equal(q.Tokens, c.Tokens) {
		return 1
	}
	tok, inverted := tokenScore(q.Tokens, c.Tokens)
	char := max(dice(q.Joined(), c.Joined()), dice(sortedJoined(q.Tokens), sortedJoined(c.Tokens)))
	s := max(0.65*tok+0.35*char, char-0.05)
	if isAcronymOf(q, c) || isAcronymOf(c, q) {
		s = max(s, AcronymSimilarity)
	}
	if inverted {
		s -= OrderPenalty
	}
	return max(min(s, 0.99), 0)
}

// OrderPenalty is taken from the similarity of names whose paired words stand in
// another order.
const OrderPenalty = 0.03

// AcronymSimilarity is the name similarity of an acronym and the name it abbreviates.
const AcronymSimilarity = 0.6

func isAcronymOf(short, long Name) bool {
	if len(short.Tokens) != 1 {
		return false
	}
	a := long.Acronym()
	return a != "" && a == short.Tokens[0]
}

func sortedJoined(toks []string) string {
	s := slices.Clone(toks)
	sort.Strings(s)
	return strings.Join(s, "")
}

// tokenScore is the weighted, order-free token agreement of two token lists, and
// whether the paired tokens stand in different orders.
func tokenScore(q, c []string) (float64, bool) {
	type pair struct {
		i, j int
		sim  float64
	}
	var pairs []pair
	for i, a := range q {
		for j, b := range c {
			if s := tokenSim(a, b); s > 0 {
				pairs = append(pairs, pair{i, j, s})
			}
		}
	}
	sort.SliceStable(pairs, func(x, y int) bool { return pairs[x].sim > pairs[y].sim })
	usedQ := make([]bool, len(q))
	usedC := make([]bool, len(c))
	matched := 0.0
	var kept []pair
	for _, p := range pairs {
		if usedQ[p.i] || usedC[p.j] {
			continue
		}
		usedQ[p.i], usedC[p.j] = true, true
		matched += p.sim * (tokenWeight(q[p.i]) + tokenWeight(c[p.j])) / 2
		kept = append(kept, p)
	}
	allQ, allC := !slices.Contains(usedQ, false), !slices.Contains(usedC, false)
	total := unpairedWeight(q, usedQ, allC) + unpairedWeight(c, usedC, allQ)
	for _, p := range kept {
		total += tokenWeight(q[p.i]) + tokenWeight(c[p.j])
	}
	sort.Slice(kept, func(x, y int) bool { return kept[x].i < kept[y].i })
	inverted := false
	for k := 1; k < len(kept); k++ {
		if kept[k].j < kept[k-1].j {
			inverted = true
		}
	}
	return 2 * matched / total, inverted
}

// unpairedWeight sums the weights of a side's unpaired tokens; when the other side is
// fully paired (this side only adds words), generic words and stopwords weigh less.
func unpairedWeight(toks []string, used []bool, otherComplete bool) float64 {
	sum := 0.0
	for i, t := range toks {
		if used[i] {
			continue
		}
		w := tokenWeight(t)
		if otherComplete && w < 1 {
			w = map[bool]float64{true: 0.1, false: 0.2}[stopwords[t]]
		}
		sum += w
	}
	return sum
}

// tokenSim compares two tokens, 0 to 1:
//   - equal tokens are 1;
//   - tokens with a digit, or of at most three characters, must be equal (short tokens
//     and initials are too easily one edit from another word);
//   - otherwise the Jaro-Winkler similarity counts when the edit distance (with
//     transpositions) is within budget: 1 edit up to 7 characters, 2 up to 11, 3
//     beyond (one typo per word is the common case; "Airbnb" is not "Airbus");
//   - a word of 4+ characters that begins the other counts 0.8 ("Manuf", "Manufacturing").
func tokenSim(a, b string) float64 {
	if a == b {
		return 1
	}
	ra, rb := []rune(a), []rune(b)
	short := min(len(ra), len(rb))
	if short <= 3 || hasDigit(ra) || hasDigit(rb) {
		return 0
	}
	if d := osa(ra, rb); d <= editBudget(short) {
		return jaroWinkler(ra, rb)
	}
	if strings.HasPrefix(a, b) || strings.HasPrefix(b, a) {
		return 0.8
	}
	return 0
}

func editBudget(n int) int {
	switch {
	case n <= 7:
		return 1
	case n <= 11:
		return 2
	}
	return 3
}

func hasDigit(r []rune) bool {
	return slices.ContainsFunc(r, unicode.IsDigit)
}

// osa is the optimal string alignment distance: insertions, deletions, substitutions
// and transpositions of neighbours each cost 1.
func osa(a, b []rune) int {
	n, m := len(a), len(b)
	prev2 := make([]int, m+1)
	prev := make([]int, m+1)
	cur := make([]int, m+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= n; i++ {
		cur[0] = i
		for j := 1; j <= m; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[m]
}

// jaroWinkler is the Jaro-Winkler similarity (prefix scale 0.1, up to 4 characters).
func jaroWinkler(a, b []rune) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	window := max(len(a), len(b))/2 - 1
	if window < 0 {
		window = 0
	}
	ma := make([]bool, len(a))
	mb := make([]bool, len(b))
	matches := 0
	for i := range a {
		lo, hi := max(0, i-window), min(len(b), i+window+1)
		for j := lo; j < hi; j++ {
			if !mb[j] && a[i] == b[j] {
				ma[i], mb[j] = true, true
				matches++
				break
			}
		}
	}
	if matches == 0 {
		return 0
	}
	trans, k := 0, 0
	for i := range a {
		if !ma[i] {
			continue
		}
		for !mb[k] {
			k++
		}
		if a[i] != b[k] {
			trans++
		}
		k++
	}
	m := float64(matches)
	jaro := (m/float64(len(a)) + m/float64(len(b)) + (m-float64(trans)/2)/m) / 3
	prefix := 0
	for prefix < min(4, len(a), len(b)) && a[prefix] == b[prefix] {
		prefix++
	}
	return jaro + float64(prefix)*0.1*(1-jaro)
}

// dice is the Dice coefficient of the character trigrams of two strings, each padded
// with two leading and one trailing marker so short strings still have trigrams.
func dice(a, b string) float64 {
	if a == b {
		return 1
	}
	ta, tb := trigrams(a), trigrams(b)
	if len(ta) == 0 || len(tb) == 0 {
		return 0
	}
	count := make(map[[3]rune]int, len(ta))
	for _, t := range ta {
		count[t]++
	}
	common := 0
	for _, t := range tb {
		if count[t] > 0 {
			count[t]--
			common++
		}
	}
	return 2 * float64(common) / float64(len(ta)+len(tb))
}

func trigrams(s string) [][3]rune {
	r := append(append([]rune{0, 0}, []rune(s)...), 0)
	if len(r) < 3 {
		return nil
	}
	out := make([][3]rune, 0, len(r)-2)
	for i := 0; i+3 <= len(r); i++ {
		out = append(out, [3]rune{r[i], r[i+1], r[i+2]})
	}
	return out
}
