package research

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/domain"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/typedcol"
	"github.com/firmoapi/firmo/shared/websearch"
)

// Context modes.
const (
	ModeWebsite = "website"
	ModeProfile = "profile"
	ModeDomain  = "domain"

	ModeFull           = "full"
	ModeCompany        = "company"
	ModeProfileSummary = "profile_summary"
	ModeNameOnly       = "name_only"
)

var (
	companyModes = []string{ModeWebsite, ModeProfile, ModeDomain}
	personaModes = []string{ModeFull, ModeCompany, ModeProfile, ModeProfileSummary, ModeNameOnly}
)

// Search depths: queries per record.
var searchDepth = map[string]int{"low": 1, "medium": 3, "high": 5}

// Integration ids with a meaning of their own.
const (
	NativeICP = "native-icp"
	native    = "native"
)

// Error codes of this package's 400s (the API reference's where it names them).
const (
	CodeTypedNoTypedColumns = "TYPED_NO_TYPED_COLUMNS"
	CodeNativeNotAllowed    = "native_not_allowed"
	CodeNoWebSearch         = "web_search_unavailable"
	CodeICPHeadings         = "icp_headings_missing"
)

// AnswerLabel is the column of a query whose free text carries no labels.
const AnswerLabel = "Answer"

// maxQueryBytes bounds the prompt run per record.
const maxQueryBytes = 32 << 10

// Options are the parameters both endpoints share.
type Options struct {
	Query             string
	IntegrationID     string
	WebSearch         bool
	SearchProviderID  string
	SearchContextSize string
	IncludeXSearch    bool
	TypedColumns      bool
	IncludeConfidence bool
	ContextMode       string
	// Previous is previous_discogen_data: record key -> data appended to its context.
	Previous map[string]json.RawMessage
}

// CompanyRequest is a POST /v1/gen/process body.
type CompanyRequest struct {
	Options
	Domains []string
}

// PersonaRequest is a POST /v1/gen/process-personas body.
type PersonaRequest struct {
	Options
	PersonaIDs []int64
}

// SubmitCompanies validates and submits a company research task.
func (s *Service) SubmitCompanies(ctx context.Context, orgID string, r CompanyRequest) (task.Submitted, error) {
	if r.ContextMode == "" {
		r.ContextMode = ModeWebsite
	}
	if err := checkEnum("context_mode", r.ContextMode, companyModes); err != nil {
		return task.Submitted{}, err
	}
	keys, err := domainKeys(r.Domains)
	if err != nil {
		return task.Submitted{}, err
	}
	if r.IntegrationID == NativeICP {
		return s.submitNative(ctx, orgID, nativeRequest{Text: r.Query, TextField: "query", Mode: r.ContextMode, WebSearch: r.WebSearch, Keys: keys})
	}
	prev, err := previousByKey(r.Previous, func(k string) (string, error) { return domain.Normalize(k) })
	if err != nil {
		return task.Submitted{}, err
	}
	return s.submit(ctx, orgID, KindCompanies, "domains", keys, prev, r.Options)
}

// SubmitPersonas validates and submits a contact research task.
func (s *Service) SubmitPersonas(ctx context.Context, orgID string, r PersonaRequest) (task.Submitted, error) {
	if r.ContextMode == "" {
		r.ContextMode = ModeProfile
	}
	if err := checkEnum("context_mode", r.ContextMode, personaModes); err != nil {
		return task.Submitted{}, err
	}
	if len(r.PersonaIDs) == 0 || len(r.PersonaIDs) > task.MaxRecords {
		return task.Submitted{}, apperr.Invalid("persona_ids", "give 1 to %d persona_ids; got %d", task.MaxRecords, len(r.PersonaIDs))
	}
	keys := make([]string, len(r.PersonaIDs))
	for i, id := range r.PersonaIDs {
		if id <= 0 {
			return task.Submitted{}, apperr.Invalid(fmt.Sprintf("persona_ids[%d]", i), "a persona id is a positive integer; got %d", id)
		}
		keys[i] = strconv.FormatInt(id, 10)
	}
	if r.IntegrationID == NativeICP {
		return task.Submitted{}, apperr.BadRequest(CodeNativeNotAllowed, "native-icp is only available on /v1/gen/process; pass an LLM integration UUID.")
	}
	prev, err := previousByKey(r.Previous, func(k string) (string, error) {
		id, err := strconv.ParseInt(strings.TrimSpace(k), 10, 64)
		if err != nil || id <= 0 {
			return "", errors.New("not a persona id")
		}
		return strconv.FormatInt(id, 10), nil
	})
	if err != nil {
		return task.Submitted{}, err
	}
	return s.submit(ctx, orgID, KindPersonas, "persona_ids", keys, prev, r.Options)
}

// domainKeys normalizes submitted domains to record keys (the registrable domain); a
// bad one is a 422 naming domains[i]. Duplicates stay: the engine merges them.
func domainKeys(domains []string) ([]string, error) {
	if len(domains) == 0 || len(domains) > task.MaxRecords {
		return nil, apperr.Invalid("domains", "give 1 to %d domains; got %d", task.MaxRecords, len(domains))
	}
	keys := make([]string, len(domains))
	for i, d := range domains {
		n, err := domain.NormalizeField(fmt.Sprintf("domains[%d]", i), d)
		if err != nil {
			return nil, err
		}
		keys[i] = n
	}
	return keys, nil
}

func (s *Service) submit(ctx context.Context, orgID, kind, recordField string, keys []string, prev map[string]json.RawMessage, o Options) (task.Submitted, error) {
	p, sub, err := s.plan(ctx, orgID, o)
	if err != nil {
		return task.Submitted{}, err
	}
	return s.enqueue(ctx, orgID, kind, recordField, keys, prev, p, sub)
}

// enqueue stores a planned task on the engine: every kind of this package submits
// through it.
func (s *Service) enqueue(ctx context.Context, orgID, kind, recordField string, keys []string, prev map[string]json.RawMessage, p params, sub task.Submission) (task.Submitted, error) {
	raw, err := json.Marshal(p)
	if err != nil {
		return task.Submitted{}, err
	}
	records := make([]task.Input, len(keys))
	for i, k := range keys {
		records[i] = task.Input{Key: k, Data: prev[k]}
	}
	sub.OrgID, sub.Kind, sub.Records, sub.Field, sub.Params = orgID, kind, records, recordField, raw
	// total_domains echoes the records sent (README, Batch research): the engine
	// counts them before it merges duplicates, which it reports in a warning.
	return s.d.Tasks.Submit(ctx, sub)
}

// plan checks the shared options against the organisation's integrations and search
// providers and decides the task's columns and parameters.
func (s *Service) plan(ctx context.Context, orgID string, o Options) (params, task.Submission, error) {
	var sub task.Submission
	if strings.TrimSpace(o.Query) == "" {
		return params{}, sub, apperr.Invalid("query", "query must be a non-empty prompt")
	}
	if len(o.Query) > maxQueryBytes {
		return params{}, sub, apperr.Invalid("query", "query is %d bytes; the limit is %d", len(o.Query), maxQueryBytes)
	}
	if o.SearchContextSize == "" {
		o.SearchContextSize = "low"
	}
	if _, ok := searchDepth[o.SearchContextSize]; !ok {
		return params{}, sub, apperr.Invalid("search_context_size", "search_context_size must be one of low, medium, high; got %q", o.SearchContextSize)
	}
	if err := checkIDs(o); err != nil {
		return params{}, sub, err
	}
	integ, client, err := s.d.Integrations.Resolve(ctx, orgID, o.IntegrationID)
	if err != nil {
		return params{}, sub, err
	}
	p := params{Query: o.Query, Mode: o.ContextMode, IntegrationID: integ.ID, Confidence: o.TypedColumns && o.IncludeConfidence, IncludeXSearch: o.IncludeXSearch}
	p.TypedOnly = client == nil // a typed integration named explicitly
	split := typedcol.Detect(o.Query)
	typed := o.TypedColumns || p.TypedOnly
	if typed && len(split.Typed) == 0 {
		return params{}, sub, apperr.BadRequest(CodeTypedNoTypedColumns, "typed columns were requested but the query contains no yes/no, fixed-set or scale judgment.")
	}
	rf := &task.ResponseFormat{ResponseType: "free_text", Description: o.Query, FieldLabels: map[string]string{}, TypedColumns: []task.TypedColumn{}}
	var cols []string
	if !p.TypedOnly {
		free := split.Free
		if !typed {
			free = []typedcol.FreePart{{Text: o.Query}}
			p.Prompt = o.Query
		} else {
			p.Prompt = split.FreeText()
		}
		p.Fields = fields(free)
		if len(p.Fields) > 1 {
			rf.ResponseType = "json"
		}
		for _, f := range p.Fields {
			rf.FieldLabels[f.Key] = f.Label
			cols = append(cols, f.Label)
		}
	}
	if typed {
		for _, c := range split.Typed {
			if _, generative := rf.FieldLabels[c.Key]; generative {
				c.Key += "_typed" // never both generative and typed
			}
			rf.TypedColumns = append(rf.TypedColumns, task.TypedColumn{Key: c.Key, Label: c.Label, Kind: c.Kind, Instructions: c.Instructions, Criteria: c.Criteria})
			p.Typed = append(p.Typed, column{Key: c.Key, Label: c.Label, Kind: c.Kind, Question: c.Instructions, Options: c.Options})
			cols = append(cols, c.Label)
			if p.Confidence {
				cols = append(cols, ConfidenceLabel(c.Label))
			}
		}
		if p.TypedOnly {
			rf.ResponseType = "typed"
		}
	}
	if o.WebSearch && !p.TypedOnly {
		if err := s.planSearch(ctx, orgID, o, &p, integ.SupportsWebSearch); err != nil {
			return params{}, sub, err
		}
	}
	if o.IncludeXSearch {
		sub.Warnings = append(sub.Warnings, fmt.Sprintf("include_x_search applies to one vendor's models with microblog search only; %s/%s has none, so it was ignored.", integ.Provider, integ.Model))
	}
	if o.IncludeConfidence && !o.TypedColumns && !p.TypedOnly {
		sub.Warnings = append(sub.Warnings, "include_confidence has no effect without typed_columns true.")
	}
	sub.ColumnName = task.Columns(cols...)
	sub.ResponseFormat = rf
	return p, sub, nil
}

// checkIDs checks the form of integration_id and search_provider_id.
func checkIDs(o Options) error {
	switch {
	case o.IntegrationID == native:
		return apperr.BadRequest(CodeNativeNotAllowed, "integration_id native is only available on contact generation; pass an LLM integration UUID.")
	case o.IntegrationID != "" && !isUUID(o.IntegrationID):
		return apperr.Invalid("integration_id", "integration_id must be an integration UUID or native-icp")
	case o.SearchProviderID != "" && !isUUID(o.SearchProviderID):
		return apperr.Invalid("search_provider_id", "search_provider_id must be a search provider UUID")
	}
	return nil
}

// planSearch picks the organisation's search provider, or the model's own search when
// none is configured; neither is a 400.
func (s *Service) planSearch(ctx context.Context, orgID string, o Options, p *params, builtin bool) error {
	prov, _, err := s.d.Searchers.Resolve(ctx, orgID, o.SearchProviderID)
	if err == nil {
		p.SearchProviderID, p.SearchQueries = prov.ID, searchDepth[o.SearchContextSize]
		return nil
	}
	var ae *apperr.Error
	if o.SearchProviderID == "" && errors.As(err, &ae) && ae.Code == websearch.CodeNoProvider {
		if builtin {
			p.BuiltinSearch = true
			return nil
		}
		return &apperr.Error{Kind: apperr.ErrBadRequest, Code: CodeNoWebSearch, Field: "web_search",
			Message: "web_search is true but the organisation has no search provider and the model has no built-in search; add one at /v1/search-providers or use a model with web search."}
	}
	return err
}

// fields names the generative columns: when every free-text part is labelled
// ("Founders: who founded it?") and there are at least two, each label is a field of a
// JSON answer; otherwise the answer is one column, AnswerLabel. No free text, no field.
func fields(free []typedcol.FreePart) []field {
	if len(free) == 0 {
		return nil
	}
	answer := []field{{Key: "answer", Label: AnswerLabel}}
	var out []field
	seen := map[string]bool{}
	for _, f := range free {
		if f.Label == "" {
			return answer
		}
		if k := keyOf(f.Label); !seen[k] {
			seen[k] = true
			out = append(out, field{Key: k, Label: f.Label})
		}
	}
	if len(out) < 2 {
		return answer
	}
	return out
}

var nonKey = regexp.MustCompile(`[^a-z0-9]+`)

func keyOf(label string) string {
	k := strings.Trim(nonKey.ReplaceAllString(strings.ToLower(label), "_"), "_")
	if k == "" {
		return "field"
	}
	return k
}

// ConfidenceLabel is the confidence column beside a typed column.
func ConfidenceLabel(label string) string { return label + " confidence" }

func checkEnum(fieldName, v string, allowed []string) error {
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return apperr.Invalid(fieldName, "%s must be one of %s; got %q", fieldName, strings.Join(allowed, ", "), v)
}

func isUUID(s string) bool {
	_, err := uuid.Parse(s)
	return err == nil && len(s) == 36
}

// previousByKey normalises previous_discogen_data's keys to record keys.
func previousByKey(in map[string]json.RawMessage, norm func(string) (string, error)) (map[string]json.RawMessage, error) {
	out := make(map[string]json.RawMessage, len(in))
	for k, v := range in {
		n, err := norm(k)
		if err != nil {
			return nil, apperr.Invalid("previous_discogen_data."+k, "previous_discogen_data is keyed by record (domain or persona id); %q is not one", k)
		}
		if len(v) > task.MaxInputBytes {
			return nil, apperr.Invalid("previous_discogen_data."+k, "the entry is %d bytes; the limit is %d", len(v), task.MaxInputBytes)
		}
		out[n] = v
	}
	return out, nil
}
