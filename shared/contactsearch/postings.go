package contactsearch

import (
	"context"
	"math/bits"
	"reflect"
	"slices"
	"sync"

	"github.com/firmoapi/firmo/shared/query"
	"github.com/firmoapi/firmo/shared/vector"
)

// postings list, per value of each filter field that Filters.Match tests for equality
// (or set membership), the entries holding that value, as ascending entry indexes. At a
// million contacts a scan calling Match on every entry costs tens of milliseconds; the
// lists of a filter's conditions are intersected first, and Match runs on the survivors
// only. Match stays the one definition of the filters: the lists skip it only when they
// cover every condition the filter sets (see narrow), and then their intersection is by
// construction the set Match would pick.
type postings struct {
	n                                                 int
	seniority, department, personCountry, personState map[string][]int32
	country, state, employees, industry, domain       map[string][]int32
	skill                                             map[string][]int32
	hasEmail, emailValidated, hasPhone, hasMobile     []int32
	hasLinkedin                                       []int32
	// negConnections: some entry has fewer than 0 connections, which Match drops even
	// when min_connections is unset, so the lists alone never decide.
	negConnections bool
	ids            idSpan
	// pid is the persona id by entry: the filter loops read it instead of the entries,
	// whose size makes every read a cache miss.
	pid []int64
	dom []string // the contact's domain by entry, for the same reason
	// every lists every entry (0, 1, ... n-1), the candidates of an empty filter.
	every []int32
	// entryBits and spanBits lend the bitmaps a search builds (over the entries, over the
	// persona id span): a fresh one per search meant fresh pages from the system, whose
	// first touch cost more than the marking (3 ms for 120,000 bits at 1M contacts).
	entryBits, spanBits bitPool
	// listBits caches the bitmap of each large list (a sixteenth of the entries or more),
	// keyed by the list's first element, built on first use: a union of large lists is then
	// an OR of words instead of setting 100,000s of bits per search.
	listBits sync.Map // *int32 -> []uint64
}

// bitPool lends zeroed bitmaps of one size.
type bitPool struct {
	words int
	pool  sync.Pool
}

func (b *bitPool) get() []uint64 {
	if w, ok := b.pool.Get().(*[]uint64); ok {
		return *w
	}
	return make([]uint64, b.words)
}

// put clears w and takes it back; w must not be used afterwards.
func (b *bitPool) put(w []uint64) {
	clear(w)
	b.pool.Put(&w)
}

func postingsOf(entries []entry) *postings {
	p := &postings{n: len(entries), seniority: map[string][]int32{}, department: map[string][]int32{},
		personCountry: map[string][]int32{}, personState: map[string][]int32{}, country: map[string][]int32{},
		state: map[string][]int32{}, employees: map[string][]int32{}, industry: map[string][]int32{},
		domain: map[string][]int32{}, skill: map[string][]int32{}}
	add := func(m map[string][]int32, k string, i int32) { m[k] = append(m[k], i) }
	for n := range entries {
		e, i := &entries[n], int32(n)
		c := &e.C
		add(p.seniority, c.Seniority, i)
		add(p.department, c.Department, i)
		add(p.personCountry, c.Country, i)
		add(p.personState, e.PersonState, i)
		add(p.country, e.Co.Country, i)
		add(p.state, e.Co.StateCode, i)
		add(p.employees, e.Co.Employees, i)
		add(p.domain, c.Domain, i)
		for _, ind := range e.Co.Industries { // map keys: no repeats
			add(p.industry, ind, i)
		}
		for k, s := range e.skills {
			if !slices.Contains(e.skills[:k], s) {
				add(p.skill, s, i)
			}
		}
		if c.Email != nil {
			p.hasEmail = append(p.hasEmail, i)
		}
		if c.EmailValidated {
			p.emailValidated = append(p.emailValidated, i)
		}
		if len(c.Phone) > 0 {
			p.hasPhone = append(p.hasPhone, i)
		}
		if c.HasMobile() {
			p.hasMobile = append(p.hasMobile, i)
		}
		if e.hasLinkedin {
			p.hasLinkedin = append(p.hasLinkedin, i)
		}
		p.negConnections = p.negConnections || c.Connections < 0
		p.pid = append(p.pid, c.PersonaID)
		p.dom = append(p.dom, c.Domain)
		p.every = append(p.every, i)
	}
	p.ids = idSpanOf(entries)
	p.entryBits.words = (p.n + 63) / 64
	p.spanBits.words = p.entryBits.words
	if p.ids.dense {
		p.spanBits.words = int(p.ids.max-p.ids.min)/64 + 1
	}
	return p
}

// condition is one filter condition as the entries it admits: the union of its values'
// lists (several values of one field are alternatives).
type condition struct {
	lists [][]int32
	size  int // the lists' total length, an upper bound of the union
}

func (p *postings) byValues(m map[string][]int32, vals set) condition {
	var c condition
	for v := range vals {
		if l := m[v]; len(l) > 0 {
			c.lists = append(c.lists, l)
			c.size += len(l)
		}
	}
	return c
}

func one(l []int32) condition { return condition{lists: [][]int32{l}, size: len(l)} }

// narrow returns the conditions the lists can answer and whether anything is left that
// only Match can decide. A set field that is non-nil but empty admits nothing, as in
// Match. Fields are cleared from a copy of the filter as they are covered; whatever
// stays non-zero (negations, text, dates, fields added later) needs Match.
func (p *postings) narrow(f *Filters) (conds []condition, needMatch bool) {
	rest := *f
	sets := []struct {
		vals  set
		m     map[string][]int32
		clear func()
	}{
		{f.Seniority, p.seniority, func() { rest.Seniority = nil }},
		{f.Department, p.department, func() { rest.Department = nil }},
		{f.PersonCountry, p.personCountry, func() { rest.PersonCountry = nil }},
		{f.PersonState, p.personState, func() { rest.PersonState, rest.personStateGiven = nil, false }},
		{f.Country, p.country, func() { rest.Country = nil }},
		{f.State, p.state, func() { rest.State, rest.stateGiven = nil, false }},
		{f.Employees, p.employees, func() { rest.Employees = nil }},
		{f.Industry, p.industry, func() { rest.Industry = nil }},
		{f.Domains, p.domain, func() { rest.Domains = nil }},
		{f.Skills, p.skill, func() { rest.Skills = nil }},
	}
	for _, s := range sets {
		if s.vals != nil {
			conds = append(conds, p.byValues(s.m, s.vals))
			s.clear()
		}
	}
	flags := []struct {
		on    bool
		l     []int32
		clear func()
	}{
		{f.HasEmail, p.hasEmail, func() { rest.HasEmail = false }},
		{f.EmailValidated, p.emailValidated, func() { rest.EmailValidated = false }},
		{f.HasPhone, p.hasPhone, func() { rest.HasPhone = false }},
		{f.HasMobile, p.hasMobile, func() { rest.HasMobile = false }},
		{f.HasLinkedin, p.hasLinkedin, func() { rest.HasLinkedin = false }},
	}
	for _, fl := range flags {
		if fl.on {
			conds = append(conds, one(fl.l))
			fl.clear()
		}
	}
	return conds, p.negConnections || !reflect.ValueOf(rest).IsZero()
}

// maxRatio: a condition admitting more than this many times the entries left is not
// intersected (reading its list costs more than calling Match on the survivors).
const maxRatio = 32

// candidates are the ascending entry indexes that may pass f, and whether Match must
// still be run on them. Large conditions (a sixteenth of the entries or more) are tested by
// bitmap. When several conditions are all large their bitmaps are ANDed and read once; a
// single condition is its own list, not a copy (a broad filter-only search reads a prefix
// of it). Otherwise the small lists are intersected, smallest first, and the survivors are
// tested against the large conditions' bits, a word read per survivor however large the
// condition (left to Match before, a large flag cost 1.5 ms of a selective filter at 1M).
func (p *postings) candidates(f *Filters) (idx []int32, all bool, needMatch bool) {
	conds, needMatch := p.narrow(f)
	if len(conds) == 0 {
		return nil, true, needMatch
	}
	slices.SortFunc(conds, func(a, b condition) int { return a.size - b.size })
	if len(conds) > 1 && p.large(conds[0]) {
		return p.andAll(conds), false, needMatch
	}
	idx = p.union(conds[0])
	for _, c := range conds[1:] {
		if len(idx) == 0 {
			break
		}
		if p.large(c) {
			words, put := p.bits(c)
			idx = keepMarked(idx, words)
			put()
			continue
		}
		if c.size > maxRatio*len(idx) {
			needMatch = true
			continue
		}
		idx = intersect(idx, p.union(c))
	}
	return idx, false, needMatch
}

// large reports whether a condition is tested by bitmap.
func (p *postings) large(c condition) bool { return c.size*16 >= p.n }

// bits is the bitmap of a condition: the cached one of a single large list, or a union
// marked into a pooled bitmap that put returns.
func (p *postings) bits(c condition) (words []uint64, put func()) {
	if len(c.lists) == 1 && p.large(c) {
		return p.bitsOf(c.lists[0]), func() {}
	}
	words = p.mark(c)
	return words, func() { p.entryBits.put(words) }
}

// andAll is the entries every condition admits, by ANDing their bitmaps.
func (p *postings) andAll(conds []condition) []int32 {
	words := p.mark(conds[0])
	defer p.entryBits.put(words)
	for _, c := range conds[1:] {
		b, put := p.bits(c)
		for w := range words {
			words[w] &= b[w]
		}
		put()
	}
	return setBits(words, conds[0].size)
}

// setBits lists the set bits of words in ascending order.
func setBits(words []uint64, hint int) []int32 {
	out := make([]int32, 0, hint)
	for w, word := range words {
		for word != 0 {
			out = append(out, int32(w*64+bits.TrailingZeros64(word)))
			word &= word - 1
		}
	}
	return out
}

// everything reports whether f admits every entry (no condition at all).
func (p *postings) everything(f *Filters) bool {
	conds, needMatch := p.narrow(f)
	return len(conds) == 0 && !needMatch
}

// mark sets the bit of every entry of the condition's lists, in a bitmap of p.entryBits.
func (p *postings) mark(c condition) []uint64 {
	words := p.entryBits.get()
	for _, l := range c.lists {
		if len(l)*16 < p.n {
			for _, i := range l {
				words[i>>6] |= 1 << (i & 63)
			}
			continue
		}
		for w, x := range p.bitsOf(l) {
			words[w] |= x
		}
	}
	return words
}

// bitsOf is the cached bitmap of a large list (see listBits).
func (p *postings) bitsOf(l []int32) []uint64 {
	if b, ok := p.listBits.Load(&l[0]); ok {
		return b.([]uint64)
	}
	words := make([]uint64, p.entryBits.words)
	for _, i := range l {
		words[i>>6] |= 1 << (i & 63)
	}
	b, _ := p.listBits.LoadOrStore(&l[0], words)
	return b.([]uint64)
}

// keepMarked is the entries of idx whose bit is set, in a new slice (idx may be a postings
// list).
func keepMarked(idx []int32, words []uint64) []int32 {
	out := make([]int32, len(idx))
	n := 0
	for _, i := range idx { // no branch: about half the bits are set, unpredictably
		out[n] = i
		n += int(words[i>>6] >> (i & 63) & 1)
	}
	return out[:n]
}

// union merges a condition's lists into one ascending list (the lists themselves when
// there is one): a sort when the result is small, a bitmap pass when it is large.
func (p *postings) union(c condition) []int32 {
	switch len(c.lists) {
	case 0:
		return nil
	case 1:
		return c.lists[0]
	}
	if c.size*16 < p.n {
		out := make([]int32, 0, c.size)
		for _, l := range c.lists {
			out = append(out, l...)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	words := p.mark(c)
	defer p.entryBits.put(words)
	return setBits(words, c.size)
}

// intersect keeps the entries of a that are in b (both ascending), galloping through the
// longer list.
func intersect(a, b []int32) []int32 {
	if len(a) > len(b) {
		a, b = b, a
	}
	out := make([]int32, 0, len(a))
	j := 0
	for _, x := range a {
		if j == len(b) {
			break
		}
		if b[j] < x {
			// Gallop: double the step until past x, then binary search that stretch.
			step := 1
			for j+step < len(b) && b[j+step] < x {
				j += step
				step *= 2
			}
			hi := min(j+step, len(b))
			k, _ := slices.BinarySearch(b[j:hi], x)
			j += k
		}
		if j < len(b) && b[j] == x {
			out = append(out, x)
			j++
		}
	}
	return out
}

// idSpan maps persona ids to bit positions for the vector index's predicate: dense
// (id - min) when the ids are compact enough for a bitmap over their range, otherwise
// through the entry number (a map lookup per call).
type idSpan struct {
	min, max int64
	dense    bool
}

func idSpanOf(entries []entry) idSpan {
	if len(entries) == 0 {
		return idSpan{}
	}
	lo, hi := entries[0].C.PersonaID, entries[len(entries)-1].C.PersonaID // sorted by id
	// A bitmap up to 64 bits per contact (8 bytes) is cheaper to fill and clear than a
	// hash lookup per visited node is to run.
	return idSpan{min: lo, max: hi, dense: hi-lo < int64(len(entries))*64}
}

// vectorFilter hands the entries passing f and scope (less the ids in skip) to the
// vector index and returns how many it admits. Every entry (but skip): no filter. A set small
// enough for an exact scan (vector.UseExact) goes as an id list, so the index scans it
// exactly, and so does one of at most a twentieth of the entries (the graph would scan it
// exactly too, and through a predicate that is one call per stored vector). A larger set
// goes as a bitmap predicate, since a list of most of a million ids costs more to build and
// for the index to take in than the search itself. release hands the bitmap back once the
// searches with the filter are done (a no-op for the other filters).
func (sn *snapshot) vectorFilter(f *Filters, scope *query.Scope, skip map[int64]bool, dims int) (filter vector.Filter, allowed int, release func()) {
	if scope == nil {
		if sn.post.everything(f) {
			skipped := 0
			for id := range skip {
				if _, ok := sn.byID[id]; ok {
					skipped++
				}
			}
			// No filter: the search's own inputs are dropped from the hits (nearestExcept).
			return vector.Filter{}, len(sn.entries) - skipped, func() {}
		}
	}
	cands := sn.candidateList(f, scope)
	pid := sn.post.pid
	n := len(cands)
	for id := range skip {
		if i, ok := sn.byID[id]; ok {
			if _, in := slices.BinarySearch(cands, int32(i)); in {
				n--
			}
		}
	}
	switch {
	case n == len(sn.entries):
		return vector.Filter{}, n, func() {}
	case vector.UseExact(n, dims) || n*20 <= len(sn.entries) || (n <= maxIDList && 2*n <= len(sn.entries)):
		ids := make([]int64, 0, n)
		for _, i := range cands {
			ids = append(ids, pid[i])
		}
		if len(skip) > 0 {
			ids = slices.DeleteFunc(ids, func(id int64) bool { return skip[id] })
		}
		return vector.Filter{IDs: ids}, n, func() {}
	}
	span := sn.post.ids
	size := len(sn.entries)
	pool := &sn.post.entryBits
	if span.dense {
		size = int(span.max-span.min) + 1
		pool = &sn.post.spanBits
	}
	words := pool.get()
	release = func() { pool.put(words) }
	bit := func(i int32) int {
		if span.dense {
			return int(pid[i] - span.min)
		}
		return int(i)
	}
	for _, i := range cands {
		b := bit(i)
		words[b>>6] |= 1 << (b & 63)
	}
	for id := range skip { // the search's inputs: a handful of bits to clear
		if i, ok := sn.byID[id]; ok {
			b := bit(int32(i))
			words[b>>6] &^= 1 << (b & 63)
		}
	}
	if span.dense {
		return vector.Filter{Allow: func(id int64) bool {
			b := id - span.min
			return b >= 0 && b < int64(size) && words[b>>6]&(1<<(b&63)) != 0
		}}, n, release
	}
	return vector.Filter{Allow: func(id int64) bool {
		i, ok := sn.byID[id]
		return ok && words[i>>6]&(1<<(i&63)) != 0
	}}, n, release
}

// maxIDList: a candidate set up to this size and at most half the contacts goes to the
// index as an id list (0.4 MB of ids at most): the index scores such a list exactly, each
// shared node once, where a predicate would be called for every stored id. Broader sets
// go as a predicate (a graph walk admits most nodes it meets).
const maxIDList = 50_000

// ranked is the filter-mode result list: the candidates in entry (persona id) order.
func (sn *snapshot) ranked(cands []int32) []Ranked {
	out := make([]Ranked, len(cands))
	for k, i := range cands {
		out[k] = Ranked{Index: int(i), Domain: sn.post.dom[i]}
	}
	return out
}

// nearestExcept is s.nearest with the ids in skip (the search's inputs) left out. An
// unfiltered search asks for len(skip) more hits and drops them: given as a predicate they
// would turn on the index's filtered path, whose fallback when a walk returns fewer than
// k admitted hits is a scan of every vector.
func (s *Service) nearestExcept(ctx context.Context, sn *snapshot, q []float32, k int, f vector.Filter, skip map[int64]bool) ([]vector.Hit, error) {
	if f.Active() || len(skip) == 0 {
		return s.nearest(ctx, sn, q, k, f)
	}
	hits, err := s.nearest(ctx, sn, q, k+len(skip), f)
	if err != nil {
		return nil, err
	}
	out := hits[:0]
	for _, h := range hits {
		if !skip[h.ID] {
			out = append(out, h)
		}
	}
	return out[:min(k, len(out))], nil
}
