// Package contactsearch answers contact search: POST /v1/contacts/discover in its three
// modes (similarity, domain, filter), GET /v1/contacts/count, GET /v1/contacts/lookup
// and the legacy GET /v1/contacts.
//
// Contacts live in the contact store; a search runs on an in-memory snapshot of every
// contact (derived fields and employer fields precomputed) scanned by the filters, and
// an HNSW graph (shared/hnswindex) over embeddings of each contact's title, skills and
// summary. A filtered similarity search hands the filtered persona ids to the graph,
// which scans them exactly when they are few (vector.UseExact). The snapshot refreshes
// in the background when it is older than MaxAge, re-embedding only changed contacts.
// Prepare publishes a snapshot before its graph is built (firmo serve's start): until
// the graph is in, similarity searches scan every vector exactly.
// With Deps.Engine (OpenSearch on AWS: ossearch) there is no snapshot at all: every
// search and count is a query to the engine (engine.go), so no process reads every
// contact.
package contactsearch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/emailpattern"
	"github.com/firmoapi/firmo/shared/embed"
	"github.com/firmoapi/firmo/shared/query"
	"github.com/firmoapi/firmo/shared/title"
	"github.com/firmoapi/firmo/shared/vector"
)

// Scoper resolves saved queries into a scope (query.Service satisfies it).
type Scoper interface {
	Scope(ctx context.Context, orgID string, inclusion, exclusion []string) (query.Scope, error)
}

// Saver records a search as a saved query (query.Service satisfies it).
type Saver interface {
	SaveSearch(ctx context.Context, orgID string, by query.Actor, action string, params any, domains []string) (query.Query, error)
}

// Biller charges delivered records, under the route in ctx (billing.Service
// satisfies it).
type Biller interface {
	ChargeAll(ctx context.Context, org account.Org, items []billing.Items, requestID string) (billing.Charge, error)
}

// Companies is what the service reads of the company store (company.Store satisfies it).
type Companies interface {
	CompanyLister
	Get(ctx context.Context, domain string) (company.Record, error)
}

// Deps are the service's dependencies; Scopes, Saver and Biller may be nil (then saved
// queries are refused, nothing is saved, nothing is billed).
type Deps struct {
	Contacts  *contact.Store
	Companies Companies
	Embedder  embed.Embedder
	Scopes    Scoper
	Saver     Saver
	Biller    Biller
	// Dir, when set, persists the HNSW graph there (named by a fingerprint of the
	// contacts), so a restart loads it instead of rebuilding.
	Dir string
	// MaxAge is how old the snapshot may get before a background refresh; default 5 min.
	MaxAge time.Duration
	// Prompts, when set, reads icp_prompt with the organisation's default LLM (merged
	// with the parser's reading; see prompt_llm.go). Thesaurus, when set, adds nearest
	// words to summary terms (see summary.go). Either may be nil.
	Prompts   PromptExtractor
	Thesaurus Thesaurus
	// Patterns, when set, gives each company's email pattern (shared/patternbook, the
	// source contact generation also answers from); nil: the pattern learned from the
	// snapshot's contacts.
	Patterns PatternSource
	// Engine, when set, runs every search and count (OpenSearch: ossearch): the service
	// then builds no snapshot and reads no contact but the one a lookup names; Dir
	// is unused.
	Engine Engine
}

// PatternSource gives a company's learned email pattern (patternbook.Book).
type PatternSource interface {
	Pattern(ctx context.Context, domain string) (emailpattern.Learned, bool)
}

// Service answers contact search.
type Service struct {
	contacts  *contact.Store
	companies Companies
	embedder  embed.Embedder
	scopes    Scoper
	saver     Saver
	biller    Biller
	dir       string
	maxAge    time.Duration
	prompts   PromptExtractor
	thesaurus Thesaurus
	patterns  PatternSource
	engine    Engine

	mu         sync.Mutex
	snap       *snapshot
	refreshing bool
	first      *firstBuild // the build callers wait for while there is no snapshot

	// building admits one build at a time (the first, a background refresh, Refresh):
	// each holds every contact's vector and a graph until it is done.
	building sync.Mutex
}

// firstBuild is the one build of the first snapshot that every caller arriving before it
// exists waits for. done is closed once sn or err is set.
type firstBuild struct {
	done chan struct{}
	sn   *snapshot
	err  error
}

// buildRetryAfter is the Retry-After of a search whose ctx ended while it waited for the
// first snapshot (the demo world's 27,405 contacts take 2 to 12 s on a shared 2-core
// machine: BENCHMARKS.md, "First searches after a restart").
const buildRetryAfter = 10 * time.Second

// New returns the service.
func New(d Deps) *Service {
	if d.MaxAge <= 0 {
		d.MaxAge = 5 * time.Minute
	}
	return &Service{contacts: d.Contacts, companies: d.Companies, embedder: d.Embedder, scopes: d.Scopes,
		saver: d.Saver, biller: d.Biller, dir: d.Dir, maxAge: d.MaxAge, prompts: d.Prompts, thesaurus: d.Thesaurus, patterns: d.Patterns, engine: d.Engine}
}

// Refresh rebuilds the snapshot now (after an ingest, or in tests), on ctx.
func (s *Service) Refresh(ctx context.Context) error {
	if s.engine != nil {
		return nil // nothing is held: the engine's documents are written as contacts change
	}
	_, _, err := s.refresh(ctx, false, false)
	return err
}

// Prepare rebuilds the snapshot like Refresh but without waiting for its HNSW graph
// when that must be built from scratch (no graph to reuse, none persisted): searches
// answer at once, each scanning every contact's vector exactly, and graph builds the
// graph into the snapshot (searches use it from then on). The caller runs graph, in
// the background: firmo serve is ready after Prepare. graph is a no-op when nothing
// was left to build.
func (s *Service) Prepare(ctx context.Context) (graph func(context.Context) error, err error) {
	if s.engine != nil {
		return func(context.Context) error { return nil }, nil
	}
	_, fill, err := s.refresh(ctx, true, false)
	if fill == nil {
		fill = func(context.Context) error { return nil }
	}
	return fill, err
}

// refresh builds and publishes a snapshot (see build for deferGraph). ifNone keeps a
// snapshot published while the caller waited for its turn (the first build after
// Prepare's).
func (s *Service) refresh(ctx context.Context, deferGraph, ifNone bool) (*snapshot, func(context.Context) error, error) {
	s.building.Lock()
	defer s.building.Unlock()
	s.mu.Lock()
	prev := s.snap
	s.mu.Unlock()
	if ifNone && prev != nil {
		return prev, nil, nil
	}
	sn, fill, err := s.build(ctx, prev, deferGraph)
	if err != nil {
		return nil, nil, err
	}
	s.mu.Lock()
	s.snap = sn
	s.mu.Unlock()
	return sn, fill, nil
}

// current returns the snapshot, refreshing a stale one in the background while the old
// one keeps answering. Before the first snapshot exists (a fresh start), every caller
// waits for one shared build, with its own ctx: the build runs on none of their
// cancellations, so a caller that gives up fails neither the build nor the others; it
// gets a 503 with Retry-After.
func (s *Service) current(ctx context.Context) (*snapshot, error) {
	s.mu.Lock()
	sn := s.snap
	if sn == nil {
		fb := s.first
		if fb == nil {
			fb = &firstBuild{done: make(chan struct{})}
			s.first = fb
			go s.buildFirst(context.WithoutCancel(ctx), fb)
		}
		s.mu.Unlock()
		select {
		case <-fb.done:
			return fb.sn, fb.err
		case <-ctx.Done():
			return nil, notReady(ctx.Err())
		}
	}
	stale := time.Since(sn.built) > s.maxAge && !s.refreshing
	if stale {
		s.refreshing = true
	}
	s.mu.Unlock()
	if stale {
		go func() {
			_ = s.Refresh(context.WithoutCancel(ctx)) // the old snapshot keeps serving on failure
			s.mu.Lock()
			s.refreshing = false
			s.mu.Unlock()
		}()
	}
	return sn, nil
}

// buildFirst runs fb, the shared first build; a failed one is forgotten, so the next
// caller starts another.
func (s *Service) buildFirst(ctx context.Context, fb *firstBuild) {
	fb.sn, _, fb.err = s.refresh(ctx, false, true)
	s.mu.Lock()
	s.first = nil
	s.mu.Unlock()
	close(fb.done)
}

// notReady is the answer of a caller that stopped waiting for the first snapshot: a 503
// with Retry-After that still says why (cause: its ctx's error).
func notReady(cause error) error {
	e := &apperr.Error{Kind: apperr.ErrUnavailable, Message: "Contact search is loading its contacts after a start; retry after the time given in Retry-After.", RetryAfter: buildRetryAfter}
	return fmt.Errorf("%w: %w", e, cause)
}

// Entry is a company entry of the grouped result, the API reference's fields in its order.
type Entry struct {
	Domain                 string             `json:"domain"`
	Name                   string             `json:"name"`
	Employees              *string            `json:"employees"` // null when unknown, as in the company profile
	RevenueRange           string             `json:"revenue_range"`
	IndustryGroups         map[string]float64 `json:"industry_groups"`
	Address                Address            `json:"address"`
	EmailPattern           *string            `json:"email_pattern"`
	EmailPatternConfidence *float64           `json:"email_pattern_confidence"`
	EmailPatternGuess      *string            `json:"email_pattern_guess"`
	Contacts               []contact.Contact  `json:"contacts"`
}

// Address is a company entry's address: alpha-2 country, full state name.
type Address struct {
	Country string `json:"country"`
	State   string `json:"state"`
}

// Response is the contact search wrapper. Results keeps rank order: the company of the
// best contact first.
type Response struct {
	Results       []*Entry
	TotalContacts int
	TotalDomains  int
}

// MarshalJSON writes results as an object keyed by domain, in rank order.
func (r Response) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"results":{`)
	for i, e := range r.Results {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(e.Domain)
		v, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	fmt.Fprintf(&b, `},"total_contacts":%d,"total_domains":%d}`, r.TotalContacts, r.TotalDomains)
	return b.Bytes(), nil
}

// Contacts flattens the result in rank order (the legacy list).
func (r Response) Contacts() []contact.Contact {
	out := []contact.Contact{}
	for _, e := range r.Results {
		out = append(out, e.Contacts...)
	}
	return out
}

// Caller is who searches, for scoping, billing and saving.
type Caller struct {
	Principal account.Principal
	RequestID string
}

// Discover runs a search. It bills the net-new contacts and company records delivered
// and saves the search as a query of action "discover".
func (s *Service) Discover(ctx context.Context, who Caller, p Params) (Response, int64, error) {
	req, err := Validate(p)
	if err != nil {
		return Response{}, 0, err
	}
	resp, err := s.Search(ctx, who.Principal.Org.ID, req)
	if err != nil {
		return Response{}, 0, err
	}
	credits, err := s.bill(ctx, who, resp)
	if err != nil {
		return Response{}, 0, err
	}
	if s.saver != nil {
		domains := make([]string, 0, len(resp.Results))
		for _, e := range resp.Results {
			domains = append(domains, e.Domain)
		}
		by := query.Actor{UserID: who.Principal.User.ID, UserName: who.Principal.User.Email, Admin: who.Principal.User.Role == account.RoleAdmin}
		if _, err := s.saver.SaveSearch(ctx, who.Principal.Org.ID, by, "discover", p, domains); err != nil {
			return Response{}, 0, fmt.Errorf("save the search: %w", err)
		}
	}
	return resp, credits, nil
}

func (s *Service) bill(ctx context.Context, who Caller, resp Response) (int64, error) {
	if s.biller == nil || resp.TotalContacts == 0 {
		return 0, nil
	}
	var ids, doms []string
	for _, e := range resp.Results {
		doms = append(doms, e.Domain)
		for _, c := range e.Contacts {
			ids = append(ids, strconv.FormatInt(c.PersonaID, 10))
		}
	}
	// One charge for both kinds: a 402 on the companies must not leave the contacts
	// charged (billing.ChargeAll debits the total once or not at all).
	c, err := s.biller.ChargeAll(ctx, who.Principal.Org, []billing.Items{
		{Kind: billing.KindContact, Records: ids},
		{Kind: billing.KindCompany, Records: doms},
	}, who.RequestID)
	if err != nil {
		return 0, err
	}
	return c.Credits, nil
}

// Search runs a validated request for an organisation (no billing, no saving).
func (s *Service) Search(ctx context.Context, orgID string, req Request) (Response, error) {
	if s.engine != nil {
		return s.searchEngine(ctx, orgID, req)
	}
	sn, err := s.current(ctx)
	if err != nil {
		return Response{}, err
	}
	req = s.readPrompt(ctx, orgID, req)
	ranked, scores, err := s.rank(ctx, sn, orgID, req)
	if err != nil {
		return Response{}, err
	}
	groups := Select(ranked, req.Limits)
	resp := Response{Results: make([]*Entry, 0, len(groups)), TotalDomains: len(groups)}
	for _, g := range groups {
		ent := entryOf(sn.companies[g.Domain])
		if s.patterns != nil {
			p, ok := s.patterns.Pattern(ctx, g.Domain)
			setPattern(ent, p, ok)
		}
		for _, i := range g.Members {
			c := sn.entries[i].C
			if scores != nil {
				v := similarity(scores[i])
				c.Similarity = &v
			}
			ent.Contacts = append(ent.Contacts, c)
		}
		resp.TotalContacts += len(ent.Contacts)
		resp.Results = append(resp.Results, ent)
	}
	return resp, nil
}

func entryOf(co *companyInfo) *Entry {
	e := &Entry{Domain: co.Domain, Name: co.Name, RevenueRange: co.Revenue,
		IndustryGroups: co.IndustryGroups, Address: Address{Country: co.Country, State: co.StateName}, Contacts: []contact.Contact{}}
	if co.Employees != "" {
		emp := co.Employees
		e.Employees = &emp
	}
	if e.IndustryGroups == nil {
		e.IndustryGroups = map[string]float64{}
	}
	if e.RevenueRange == "" {
		e.RevenueRange = company.RevenueUnknown
	}
	if p := co.Pattern; p != nil {
		setPattern(e, emailpattern.Learned{Template: p.Template, Domain: p.Domain, Confidence: p.Confidence, Guess: p.Guess}, true)
	}
	return e
}

// setPattern sets the entry's email pattern fields (cleared when ok is false).
func setPattern(e *Entry, p emailpattern.Learned, ok bool) {
	if !ok {
		e.EmailPattern, e.EmailPatternConfidence, e.EmailPatternGuess = nil, nil, nil
		return
	}
	tmpl := p.Address()
	conf := math.Round(p.Confidence*1000) / 10 // a percentage in this response
	guess := p.Guess
	e.EmailPattern, e.EmailPatternConfidence, e.EmailPatternGuess = &tmpl, &conf, &guess
}

// filtersOf builds the filters a request runs with: summary terms gain their nearest
// words (summary.go), and what an icp_prompt extracted is merged in: a field the caller
// set keeps the caller's values; an unset one takes the prompt's.
func (s *Service) filtersOf(sn *snapshot, req Request) (Filters, error) {
	f := req.Filters
	f.Summary, f.NegSummary = expandTerms(s.thesaurus, f.Summary), expandTerms(s.thesaurus, f.NegSummary)
	pr := req.Prompt
	if pr == nil {
		return f, nil
	}
	if f.Seniority == nil {
		f.Seniority = setOf(pr.Seniority)
	}
	if f.Department == nil {
		f.Department = setOf(pr.Department)
	}
	if f.Industry == nil {
		f.Industry = setOf(pr.Industry)
	}
	if f.Country == nil && len(pr.Country) > 0 {
		exp, err := countries("icp_prompt", pr.Country)
		if err != nil {
			return f, err
		}
		f.Country = setOf(exp)
	}
	if f.Employees == nil {
		f.Employees = setOf(pr.Employees)
	}
	if f.Title == nil && len(pr.Titles) > 0 {
		q, err := title.ParseQuery(pr.Titles)
		if err == nil {
			f.Title = &q
		}
	}
	if sn == nil {
		return f, nil // an Engine runs the company signals itself (engineFilters)
	}
	// Company-level signals: a company search first (signals.go); contacts are then
	// searched at the matching companies only, within any domain filter.
	restrictDomains(&f, sn.signalDomains(pr.Signals))
	return f, nil
}

// rank returns the candidates in result order and, in similarity mode, their scores by
// entry index.
func (s *Service) rank(ctx context.Context, sn *snapshot, orgID string, req Request) ([]Ranked, map[int]float32, error) {
	f, err := s.filtersOf(sn, req)
	if err != nil {
		return nil, nil, err
	}
	var scope *query.Scope
	if len(req.Inclusion) > 0 || len(req.Exclusion) > 0 {
		if s.scopes == nil {
			return nil, nil, apperr.Invalid("inclusion_query_id", "saved queries are not available")
		}
		sc, err := s.scopes.Scope(ctx, orgID, req.Inclusion, req.Exclusion)
		if err != nil {
			return nil, nil, err
		}
		scope = &sc
	}
	if !req.Similarity() {
		// Filter mode ranks by persona id: only the prefix of the candidates that the page
		// reads is built (a broad filter at a million contacts has hundreds of thousands).
		cands := sn.candidateList(&f, scope)
		_, read := selectFrom(len(cands), func(k int) Ranked {
			return Ranked{Index: int(cands[k]), Domain: sn.post.dom[cands[k]]}
		}, req.Limits)
		return sn.ranked(cands[:read]), nil, nil
	}
	q, inputs, err := s.queryVector(ctx, sn, req)
	if err != nil {
		return nil, nil, err
	}
	skip := inputs
	if req.Params.IncludeSearchContacts {
		skip = nil
	}
	filter, allowed, release := sn.vectorFilter(&f, scope, skip, s.embedder.Dims())
	defer release()
	if req.Consensus > 1 && allowed > 0 {
		// Consensus: the top results of the first search join the input in the search
		// vector, which pulls it toward what the data holds near the input.
		// As broad a search as the final one (its ef), so the consensus neighbours are as
		// near exact as the results.
		hits, err := s.nearestExcept(ctx, sn, q, min(max(req.Consensus-1, fetchSizes(req.Limits)[0]), allowed), filter, skip)
		if err != nil {
			return nil, nil, err
		}
		sum := append([]float32(nil), q...)
		for _, h := range hits[:min(len(hits), req.Consensus-1)] {
			for d, x := range sn.vecs[sn.byID[h.ID]] {
				sum[d] += x
			}
		}
		vector.Normalize(sum)
		q = sum
	}
	if allowed == 0 {
		return nil, map[int]float32{}, nil
	}
	var out []Ranked
	var scores map[int]float32
	sizes := fetchSizes(req.Limits)
	if g := sn.graph(); g == nil || filter.Active() && g.ScansExactly(filter, sizes[0]) {
		full := sizes[len(sizes)-1]
		sizes = sizes[len(sizes)-1:]
		if g == nil || g.ScansExactly(filter, full) {
			// Both lengths are scanned exactly: the short list is the head of the long
			// one (same order, same scores), so a page it settles is the page the long
			// list makes, and the short scan costs less (BENCHMARKS.md).
			sizes = exactSizes(req.Limits)
		}
	}
	for step, size := range sizes {
		k := min(allowed, size)
		hits, err := s.nearestExcept(ctx, sn, q, k, filter, skip)
		if err != nil {
			return nil, nil, err
		}
		out = make([]Ranked, 0, len(hits))
		scores = make(map[int]float32, len(hits))
		for _, h := range hits {
			i := sn.byID[h.ID]
			out = append(out, Ranked{Index: i, Domain: sn.entries[i].C.Domain})
			scores[i] = h.Score
		}
		if k == allowed || step == len(sizes)-1 || pageSettled(out, req.Limits) {
			break
		}
	}
	return out, scores, nil
}

// exactSizes are fetchSizes for an exact plan, whose shorter list is the head of the longer
// one: with max_companies and results_by_company it also starts with what those caps
// can show plus a quarter (fetchSizes asks a walk for need at once there).
func exactSizes(l Limits) []int {
	sizes := fetchSizes(l)
	if l.MaxCompanies <= 0 || l.PerCompany <= 0 {
		return sizes
	}
	full := sizes[len(sizes)-1]
	first := l.MaxCompanies * l.PerCompany
	first += first / 4
	if first >= full {
		return sizes
	}
	return []int{first, full}
}

// fetchSizes are the lengths of ranked list a similarity search asks the vector index for,
// in turn: first what the page shows plus a quarter, then, when per-company caps left that
// list short of a full page, need's head room. The walk's breadth follows the length (ef
// is at least k), so the usual page costs a quarter of the wide search.
func fetchSizes(l Limits) []int {
	full := need(l)
	if l.MaxCompanies > 0 || l.MaxRecords <= 0 {
		return []int{full}
	}
	first := l.MaxRecords
	if l.PerCompany == 0 {
		first += l.Offset
	}
	first += first / 4
	if first >= full {
		return []int{full}
	}
	return []int{first, full}
}

// pageSettled reports whether the page Select makes of ranked is the page it makes of any
// longer list that starts with ranked: the page holds as many contacts as the limits
// allow, or max_companies companies are open and each holds results_by_company contacts
// (Select skips every further contact).
func pageSettled(ranked []Ranked, l Limits) bool {
	n, groups := 0, Select(ranked, l)
	full := l.MaxCompanies > 0 && l.PerCompany > 0 && len(groups) == l.MaxCompanies
	for _, g := range groups {
		n += len(g.Members)
		full = full && len(g.Members) >= l.PerCompany
	}
	return n >= l.total() || full
}

// need is how many ranked contacts a similarity search fetches: enough for the caps, with
// head room when per-company caps skip contacts of full companies.
func need(l Limits) int {
	n := l.total() + l.Offset
	if l.PerCompany > 0 || l.MaxCompanies > 0 {
		n *= 4
	}
	return min(n, 4*CompaniesTotalCap)
}

// queryVector builds the search vector of the similarity inputs: the mean of the
// persona ids' vectors and of the text's vector.
func (s *Service) queryVector(ctx context.Context, sn *snapshot, req Request) ([]float32, map[int64]bool, error) {
	dims := s.embedder.Dims()
	sum := make([]float32, dims)
	inputs := map[int64]bool{}
	for _, id := range req.PersonaIDs {
		i, ok := sn.byID[id]
		if !ok {
			return nil, nil, apperr.Invalid("persona_id", "persona %d does not exist", id)
		}
		inputs[id] = true
		for d, x := range sn.vecs[i] {
			sum[d] += x
		}
	}
	if req.Text != "" {
		vs, err := s.embedder.Embed(ctx, []string{req.Text})
		if err != nil {
			return nil, nil, err
		}
		for d, x := range vs[0] {
			sum[d] += x
		}
	}
	vector.Normalize(sum)
	return sum, inputs, nil
}

// Count answers GET /v1/contacts/count: the contacts passing the filters.
func (s *Service) Count(ctx context.Context, p Params) (int, error) {
	req, err := Validate(p)
	if err != nil {
		return 0, err
	}
	if s.engine != nil {
		return s.countEngine(ctx, req)
	}
	sn, err := s.current(ctx)
	if err != nil {
		return 0, err
	}
	f, err := s.filtersOf(sn, req)
	if err != nil {
		return 0, err
	}
	return len(sn.candidates(&f, nil)), nil
}

// LookupView is the answer of GET /v1/contacts/lookup.
type LookupView struct {
	PersonaID   int64   `json:"persona_id"`
	Name        string  `json:"name"`
	Title       string  `json:"title"`
	Domain      string  `json:"domain"`
	CompanyName string  `json:"company_name"`
	Summary     *string `json:"summary"`
}

// Lookup finds one contact by exactly one of persona id, LinkedIn URL or username, and
// email (case-insensitive). It reads the store, so a contact ingested a moment ago is
// found.
func (s *Service) Lookup(ctx context.Context, personaID int64, linkedin, email string) (LookupView, error) {
	var r contact.Raw
	var err error
	switch {
	case personaID > 0:
		r, err = s.contacts.Get(ctx, personaID)
	case linkedin != "":
		r, err = s.contacts.ByLinkedin(ctx, linkedin)
	default:
		r, err = s.contacts.ByEmail(ctx, email)
	}
	if err != nil {
		if errors.Is(err, apperr.ErrNotFound) {
			return LookupView{}, apperr.NotFound("no contact matches")
		}
		return LookupView{}, err
	}
	v := LookupView{PersonaID: r.PersonaID, Name: r.Name, Title: r.Title, Domain: r.Domain}
	if r.Summary != "" {
		sum := r.Summary
		v.Summary = &sum
	}
	if rec, err := s.companies.Get(ctx, r.Domain); err == nil {
		v.CompanyName = rec.Profile.Name
	} else if !errors.Is(err, apperr.ErrNotFound) {
		return LookupView{}, err
	}
	return v, nil
}
