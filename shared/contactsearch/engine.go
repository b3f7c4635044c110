package contactsearch

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/company/contactfields"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/geo"
	"github.com/firmoapi/firmo/shared/query"
	"github.com/firmoapi/firmo/shared/vector"
)

// Engine runs every contact search in an index outside the process (OpenSearch on AWS:
// shared/contactsearch/ossearch). With Deps.Engine the service holds no snapshot: a
// search, a count or a similarity search is a request to the engine, and nothing reads
// every contact (the contact documents are written when contacts and companies change,
// see Prepare).
type Engine interface {
	// Find returns the page of q: company entries in the order of their best-ranked
	// contact, each with its contacts in rank order, exactly as Select makes them of the
	// whole ranked list (similarity order with q.Vector, persona id order without).
	// Contacts carry Similarity in similarity mode.
	Find(ctx context.Context, q EngineQuery) ([]*Entry, error)
	// Nearest returns the vectors of the k contacts nearest q.Vector that q admits,
	// nearest first (consensus searches).
	Nearest(ctx context.Context, q EngineQuery, k int) ([][]float32, error)
	// Count is the number of contacts q admits.
	Count(ctx context.Context, q EngineQuery) (int, error)
	// Vectors returns the stored vectors of ids; an id without a document is absent.
	Vectors(ctx context.Context, ids []int64) (map[int64][]float32, error)
	// SignalDomains runs the company search of icp_prompt's signals (signals.go) over
	// the employers in the index: the matching domains, best first, at most
	// MaxSignalCompanies; nil when no signal has a usable word (no restriction).
	SignalDomains(ctx context.Context, signals []string) ([]string, error)
}

// EngineQuery is a validated search as an Engine runs it.
type EngineQuery struct {
	Filters *Filters
	Scope   *query.Scope // nil: no saved-query scope
	// Vector is the unit-length search vector; nil in filter mode.
	Vector []float32
	// Skip are persona ids never returned (the similarity inputs).
	Skip   []int64
	Limits Limits
}

// FetchSize is how many ranked contacts a search over a flat (not grouped) list reads:
// enough for the page's caps and offset (need).
func (q EngineQuery) FetchSize() int { return need(q.Limits) }

// Similarity turns a cosine into the API reference's 0-100 score.
func Similarity(cos float32) int { return similarity(cos) }

// Indexed is a contact as an outside index stores it: the contact as a search returns it
// (its employer's fields filled in), the employer's entry fields, and the derived forms
// the filters match on. Prepare builds it, so the index's filters mean what Filters.Match
// means.
type Indexed struct {
	Contact contact.Contact
	Company CompanyFields
	// PersonState is the person's full ISO 3166-2 code, "" when unknown.
	PersonState string
	// NameFold, TitleFold and SummaryFold are title.Normalize of the name, title and
	// summary: lowercase words without accents, separated by single spaces. The name
	// filter is a substring of NameFold; a title phrase is a run of TitleFold's words; a
	// summary word is a prefix of one of SummaryFold's words.
	NameFold, TitleFold, SummaryFold string
	Skills                           []string // lowercased, as listed
	HasLinkedin                      bool
	HasMobile                        bool
	// Text is what is embedded: title, skills, summary.
	Text string
}

// CompanyFields are an employer's fields a search filters on and shows in its entry.
type CompanyFields = contactfields.Fields

// CompanyFieldsOf are rec's fields.
func CompanyFieldsOf(rec company.Record) CompanyFields { return contactfields.Of(rec) }

// Prepare is r as an outside index stores it, with co, its employer's fields.
func Prepare(r contact.Raw, co CompanyFields) Indexed {
	c := contact.Derive(r)
	WithCompany(&c, co)
	x := Indexed{Contact: c, Company: co, NameFold: fold(c.Name), TitleFold: fold(c.Title), HasLinkedin: r.LinkedinURL != "", HasMobile: c.HasMobile(), Text: embedText(c)}
	if r.State != "" && r.Country != "" {
		x.PersonState, _ = geo.ResolveState(r.Country, r.State)
	}
	if c.Summary != nil {
		x.SummaryFold = fold(*c.Summary)
	}
	x.Skills = make([]string, len(c.Skills))
	for i, v := range c.Skills {
		x.Skills[i] = strings.ToLower(v)
	}
	return x
}

// WithCompany sets a contact's employer fields from co, as a search returns them.
func WithCompany(c *contact.Contact, co CompanyFields) {
	c.CompanyName, c.Employees, c.RevenueRange = co.Name, co.Employees, co.Revenue
	if c.RevenueRange == "" {
		c.RevenueRange = company.RevenueUnknown
	}
	c.Industry = append([]string{}, co.Industries...)
}

// EntryOf is the result entry of an employer (no contacts yet, no email pattern).
func EntryOf(co CompanyFields) *Entry {
	return entryOf(&companyInfo{Domain: co.Domain, Name: co.Name, Employees: co.Employees, Revenue: co.Revenue,
		IndustryGroups: co.IndustryGroups, Country: co.Country, StateName: co.StateName})
}

// SelectGrouped is Select over company groups already cut to their first
// results_by_company contacts (what a collapsed search returns): members ranked by rank
// (smaller first), ties by persona id. Select over the whole ranked list gives the same
// page whenever groups holds at least the first Limits-total companies of the ranking.
func SelectGrouped(groups []*Entry, rank func(c contact.Contact) float64, l Limits) []*Entry {
	type member struct {
		e *Entry
		c contact.Contact
		r float64
	}
	var all []member
	for _, g := range groups {
		for _, c := range g.Contacts {
			all = append(all, member{g, c, rank(c)})
		}
	}
	sort.SliceStable(all, func(i, j int) bool {
		if all[i].r != all[j].r {
			return all[i].r < all[j].r
		}
		return all[i].c.PersonaID < all[j].c.PersonaID
	})
	ranked := make([]Ranked, len(all))
	for i, m := range all {
		ranked[i] = Ranked{Index: i, Domain: m.c.Domain}
	}
	var out []*Entry
	for _, g := range Select(ranked, l) {
		src := all[g.Members[0]].e
		e := *src
		e.Contacts = make([]contact.Contact, 0, len(g.Members))
		for _, i := range g.Members {
			e.Contacts = append(e.Contacts, all[i].c)
		}
		out = append(out, &e)
	}
	return out
}

// engineFilters are the filters a request runs with on an Engine: filtersOf, with
// icp_prompt's company signals run by the engine's company search.
func (s *Service) engineFilters(ctx context.Context, req Request) (Filters, error) {
	f, err := s.filtersOf(nil, req)
	if err != nil || req.Prompt == nil || len(req.Prompt.Signals) == 0 {
		return f, err
	}
	doms, err := s.engine.SignalDomains(ctx, req.Prompt.Signals)
	if err != nil {
		return f, err
	}
	if doms != nil {
		m := make(set, len(doms)) // empty: no company matches, so no contact does
		for _, d := range doms {
			m[d] = true
		}
		restrictDomains(&f, m)
	}
	return f, nil
}

// engineScope resolves the request's saved queries.
func (s *Service) engineScope(ctx context.Context, orgID string, req Request) (*query.Scope, error) {
	if len(req.Inclusion) == 0 && len(req.Exclusion) == 0 {
		return nil, nil
	}
	if s.scopes == nil {
		return nil, apperr.Invalid("inclusion_query_id", "saved queries are not available")
	}
	sc, err := s.scopes.Scope(ctx, orgID, req.Inclusion, req.Exclusion)
	if err != nil {
		return nil, err
	}
	return &sc, nil
}

// searchEngine is Search on the engine.
func (s *Service) searchEngine(ctx context.Context, orgID string, req Request) (Response, error) {
	req = s.readPrompt(ctx, orgID, req)
	f, err := s.engineFilters(ctx, req)
	if err != nil {
		return Response{}, err
	}
	scope, err := s.engineScope(ctx, orgID, req)
	if err != nil {
		return Response{}, err
	}
	q := EngineQuery{Filters: &f, Scope: scope, Limits: req.Limits}
	if req.Similarity() {
		vec, inputs, err := s.engineVector(ctx, req)
		if err != nil {
			return Response{}, err
		}
		q.Vector = vec
		if !req.Params.IncludeSearchContacts {
			q.Skip = inputs
		}
		if req.Consensus > 1 {
			near, err := s.engine.Nearest(ctx, q, req.Consensus-1)
			if err != nil {
				return Response{}, err
			}
			sum := append([]float32(nil), vec...)
			for _, v := range near {
				for d, x := range v {
					sum[d] += x
				}
			}
			vector.Normalize(sum)
			q.Vector = sum
		}
	}
	entries, err := s.engine.Find(ctx, q)
	if err != nil {
		return Response{}, err
	}
	resp := Response{Results: entries, TotalDomains: len(entries)}
	for _, e := range entries {
		if s.patterns != nil {
			p, ok := s.patterns.Pattern(ctx, e.Domain)
			setPattern(e, p, ok)
		}
		resp.TotalContacts += len(e.Contacts)
	}
	return resp, nil
}

// engineVector is queryVector on the engine: the persona ids' stored vectors and the
// text's.
func (s *Service) engineVector(ctx context.Context, req Request) ([]float32, []int64, error) {
	sum := make([]float32, s.embedder.Dims())
	var inputs []int64
	if len(req.PersonaIDs) > 0 {
		vecs, err := s.engine.Vectors(ctx, req.PersonaIDs)
		if err != nil {
			return nil, nil, err
		}
		for _, id := range req.PersonaIDs {
			v, ok := vecs[id]
			if !ok {
				return nil, nil, apperr.Invalid("persona_id", "persona %d does not exist", id)
			}
			inputs = append(inputs, id)
			for d, x := range v {
				if d < len(sum) {
					sum[d] += x
				}
			}
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

// countEngine is Count on the engine.
func (s *Service) countEngine(ctx context.Context, req Request) (int, error) {
	f, err := s.engineFilters(ctx, req)
	if err != nil {
		return 0, err
	}
	return s.engine.Count(ctx, EngineQuery{Filters: &f, Limits: req.Limits})
}

// Indexer writes contact documents to an outside index (ossearch.Index satisfies it).
type Indexer interface {
	PutContacts(ctx context.Context, docs []Indexed, vecs [][]float32) error
}

// IndexContacts prepares raws with their employers' fields (read once per domain from
// companies), embeds them and writes them through ix: the pipeline's write of changed
// contacts (see Deps.Engine). It reads no other contact.
func IndexContacts(ctx context.Context, ix Indexer, companies interface {
	Get(ctx context.Context, domain string) (company.Record, error)
}, emb interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}, raws []contact.Raw) error {
	cos := map[string]CompanyFields{}
	docs := make([]Indexed, 0, len(raws))
	texts := make([]string, 0, len(raws))
	for _, r := range raws {
		co, ok := cos[r.Domain]
		if !ok {
			rec, err := companies.Get(ctx, r.Domain)
			switch {
			case err == nil:
				co = CompanyFieldsOf(rec)
			case errors.Is(err, apperr.ErrNotFound):
				co = CompanyFields{Domain: r.Domain}
			default:
				return fmt.Errorf("index contacts: company %s: %w", r.Domain, err)
			}
			cos[r.Domain] = co
		}
		x := Prepare(r, co)
		docs = append(docs, x)
		texts = append(texts, x.Text)
	}
	var vecs [][]float32
	for start := 0; start < len(texts); start += embedBatch {
		vs, err := emb.Embed(ctx, texts[start:min(start+embedBatch, len(texts))])
		if err != nil {
			return fmt.Errorf("index contacts: embed: %w", err)
		}
		vecs = append(vecs, vs...)
	}
	return ix.PutContacts(ctx, docs, vecs)
}
