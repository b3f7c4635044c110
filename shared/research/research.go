// Package research runs batch research on the task engine: one prompt over many
// companies (kind gen_process, POST /v1/gen/process) or many contacts (kind
// gen_process_personas, POST /v1/gen/process-personas), one isolated LLM call per
// record with the context its context_mode names. ICP validation (POST
// /v1/validate/icp) is one of its runs: validate_icp asks the LLM whether each company
// fits an ideal customer profile (icp.go), and native_icp, on both endpoints with
// integration_id native-icp, scores each company with the native ICP-fit model
// (native.go).
//
// Per record:
//
//  1. the context: the company profile and homepage text (website), the profile
//     (profile) or the domain name only (domain); for contacts the ContactSource;
//  2. web search, when asked: search_context_size low, medium or high runs 1, 3 or 5
//     queries built from the prompt and the company's name and domain on the
//     organisation's search provider; results are appended to the context. Without a
//     search provider, a model with built-in search searches itself;
//  3. previous_discogen_data for the record, appended to the context;
//  4. the free-text part of the query goes to the LLM (one column, or a JSON object
//     when the query labels several free-text fields); typed parts (see typedcol) go to
//     the typed-judgment provider, one judgment per typed column.
//
// include_x_search is accepted and passed on as a flag: microblog search exists for
// one vendor's models only, and none of the adapters here (openai, anthropic, custom)
// offers it, so it is a no-op with a task warning.
//
// Costs: each LLM call adds to cost_metadata["<provider>/<model>"] (calls, search_calls,
// tokens as the server reported them, est_cost_usd from the llm price table); search
// provider queries add to cost_metadata.search_provider; typed judgments are folded into
// estimated_cost only, as the API reference says.
package research

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/icpfit"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/websearch"
)

// Task kinds (KindICP and KindNativeICP: icp.go, native.go).
const (
	KindCompanies = "gen_process"
	KindPersonas  = "gen_process_personas"
)

// Tasks is the part of the task engine research uses; task.Engine implements it.
type Tasks interface {
	Submit(ctx context.Context, s task.Submission) (task.Submitted, error)
	Kinds() *task.Registry
}

// Integrations resolves LLM integrations; integration.Service implements it.
type Integrations interface {
	// Resolve returns the generative client of integrationID or of the default; a typed
	// integration named explicitly comes back with a nil client (typed-only run).
	Resolve(ctx context.Context, org, integrationID string) (integration.Integration, llm.Client, error)
	// Judge returns the oldest typed integration an admin created; none is an
	// apperr.ErrNotFound.
	Judge(ctx context.Context, org string) (integration.Integration, llm.Judge, error)
}

// Searchers resolves search providers; websearch.Service implements it.
type Searchers interface {
	Resolve(ctx context.Context, org, providerID string) (websearch.Provider, websearch.Searcher, error)
}

// Companies reads company data; CompanyData adapts company.Service.
type Companies interface {
	Profile(ctx context.Context, domain string) (company.Profile, error)
	// Record is the whole record (profile and derived fields such as homepage
	// vendors), which the native ICP-fit model reads.
	Record(ctx context.Context, domain string) (company.Record, error)
	HomeText(ctx context.Context, domain string) (string, error)
}

// Contact is what a persona record's context is built from.
type Contact struct {
	PersonaID   int64
	Name        string
	Title       string
	LinkedInURL string
	Summary     string
	// Profile is the full contact profile as text (skills, experience, location...).
	Profile string
	// Domain is the employer's domain, "" when unknown.
	Domain string
}

// ContactSource finds contacts by persona id (contact search, issue 4). Until it
// exists, NoContacts answers every persona "not found".
type ContactSource interface {
	Contact(ctx context.Context, org string, personaID int64) (Contact, error)
}

// Biller charges a task's records, under the route in ctx (the task engine puts the
// submitting route there), at the exact per-record rate in batches (Accrue);
// billing.Service implements it.
type Biller interface {
	Accrue(ctx context.Context, org account.Org, kind billing.Kind, taskID string, records ...string) error
}

// Orgs reads an organisation (its plan prices a charge); account.Service implements it.
type Orgs interface {
	GetOrg(ctx context.Context, id string) (account.Org, error)
}

// Deps are the services research uses. Contacts may be nil (every persona is then
// "contact not found").
type Deps struct {
	Tasks        Tasks
	Integrations Integrations
	Searchers    Searchers
	Companies    Companies
	Contacts     ContactSource
	Billing      Biller
	Orgs         Orgs
	// ICPModels loads the native ICP-fit model on first use; nil means the model
	// embedded in shared/icpfit.
	ICPModels ICPModels
	Log       *slog.Logger
}

// Service submits and answers batch research tasks.
type Service struct {
	d Deps
}

// recordTimeout bounds one record: a few searches plus one LLM call and the judgments.
const recordTimeout = 4 * time.Minute

// New makes the service and registers its two kinds on the engine.
func New(d Deps) (*Service, error) {
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.ICPModels == nil {
		d.ICPModels = icpfit.NewLoader("")
	}
	s := &Service{d: d}
	kinds := []task.Kind{
		{Name: KindCompanies, Processor: processor{s: s, kind: KindCompanies}, Columns: []string{AnswerLabel}},
		{Name: KindPersonas, Processor: processor{s: s, kind: KindPersonas}, Columns: []string{AnswerLabel}},
		{Name: KindICP, Processor: processor{s: s, kind: KindICP}, Columns: ICPColumns},
	}
	for _, k := range append(kinds, s.nativeKinds()...) {
		if k.Timeout == 0 {
			k.Timeout = recordTimeout
		}
		k.StatusRoutes = []string{task.GenStatusRoute}
		if err := d.Tasks.Kinds().Register(k); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// params are a task's stored parameters: everything a record needs, decided once at
// submission.
type params struct {
	Query         string   `json:"query"`
	Mode          string   `json:"context_mode"`
	IntegrationID string   `json:"integration_id,omitempty"` // "" = the default
	TypedOnly     bool     `json:"typed_only,omitempty"`
	Prompt        string   `json:"prompt"` // the free-text part sent to the LLM
	Fields        []field  `json:"fields,omitempty"`
	Typed         []column `json:"typed,omitempty"`
	Confidence    bool     `json:"include_confidence,omitempty"`
	// Search: SearchQueries > 0 runs the organisation's search provider; BuiltinSearch
	// asks the model's own search tool instead.
	SearchProviderID string `json:"search_provider_id,omitempty"`
	SearchQueries    int    `json:"search_queries,omitempty"`
	BuiltinSearch    bool   `json:"builtin_search,omitempty"`
	IncludeXSearch   bool   `json:"include_x_search,omitempty"`
	// Criteria are a native-icp run's, read from the ICP text once at submission.
	Criteria *icpfit.Criteria `json:"criteria,omitempty"`
}

// field is one generative column.
type field struct {
	Key   string `json:"key"`
	Label string `json:"label"`
}

// column is one typed column as a record needs it.
type column struct {
	Key      string   `json:"key"`
	Label    string   `json:"label"`
	Kind     string   `json:"kind"`
	Question string   `json:"question"`
	Options  []string `json:"options,omitempty"`
}

func decodeParams(raw json.RawMessage) (params, error) {
	var p params
	err := json.Unmarshal(raw, &p)
	return p, err
}
