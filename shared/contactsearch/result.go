package contactsearch

// Limits are the result control of a search, validated.
type Limits struct {
	MaxRecords   int // total cap when > 0 (max_records)
	MaxCompanies int // company entries cap when > 0 (max_companies); then the total cap is CompaniesTotalCap
	PerCompany   int // results_by_company; 0 removes the per-company cap
	Offset       int // skipped ranked contacts; forced to 0 when PerCompany > 0
}

// total is the contact cap of a page: max_records, or CompaniesTotalCap with
// max_companies (or without a record cap).
func (l Limits) total() int {
	if l.MaxCompanies > 0 || l.MaxRecords <= 0 {
		return CompaniesTotalCap
	}
	return l.MaxRecords
}

// Ranked is one contact of a ranked result list.
type Ranked struct {
	Index  int // the caller's handle (a position in its contact table)
	Domain string
}

// Group is one company entry of a result: its domain and the Index of its contacts, in
// rank order.
type Group struct {
	Domain  string
	Members []int
}

// Select applies the API reference's result control to a ranked list:
//   - a non-zero results_by_company forces offset to 0; otherwise offset skips that many
//     ranked contacts;
//   - companies appear in the order of their best-ranked contact and hold at most
//     PerCompany contacts each (no cap when 0);
//   - with max_records the total is capped at max_records; with max_companies no new
//     company is opened once there are max_companies of them (the open ones keep
//     filling in rank order) and the total is capped at 10,000.
func Select(ranked []Ranked, l Limits) []Group {
	groups, _ := selectFrom(len(ranked), func(i int) Ranked { return ranked[i] }, l)
	return groups
}

// selectFrom is Select over n ranked contacts given by at; it also reports how many of
// them it read (a prefix: Select over that prefix gives the same groups), so a caller
// holding a long candidate list builds only the part a page needs.
func selectFrom(count int, at func(int) Ranked, l Limits) (groups []Group, read int) {
	offset := l.Offset
	if l.PerCompany != 0 {
		offset = 0
	}
	total := l.total()
	idx := map[string]int{}
	n := 0
	i := offset
	for ; i < count && n < total; i++ {
		r := at(i)
		g, ok := idx[r.Domain]
		if !ok {
			if l.MaxCompanies > 0 && len(groups) == l.MaxCompanies {
				continue
			}
			g = len(groups)
			idx[r.Domain] = g
			groups = append(groups, Group{Domain: r.Domain})
		}
		if l.PerCompany > 0 && len(groups[g].Members) >= l.PerCompany {
			continue
		}
		groups[g].Members = append(groups[g].Members, r.Index)
		n++
	}
	return groups, min(i, count)
}
