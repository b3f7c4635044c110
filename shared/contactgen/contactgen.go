// Package contactgen is contact generation (POST /v1/contacts/discover/generate): for
// each domain, the people the company's own pages list, as generated contact rows, on
// the task engine (kind contact_generate, read at GET /v1/gen/status/{task_id}).
//
// context_mode (website, profile, domain) decides what each domain's engine reads
// besides the search results: context.go has the full meaning of each mode. In short:
// website crawls the company's site (and gives the LLM engine the stored profile),
// profile gives the stored profile instead of the crawl (its company name shapes the
// queries; only the search hits' pages on the company's host are read), domain gives
// only the domain (only the search hits' pages on the company's host are read).
//
// The native engine (integration_id "native", or omitted when the organisation has no
// LLM integration) is keyless and never invents a person. Per domain it
//
//  1. runs the organisation's search provider (always on here) with queries shaped by
//     icp_text (and, in profile mode, the stored company name): 1, 3 or 5 of them for
//     search_context_size low, medium or high;
//  2. reads the company's pages: in website mode the homepage, the people pages it
//     links to (team, about, leadership, management, contact, imprint in the world's
//     languages) and the search hits on the company's own host; in profile and domain
//     modes the search hits on the company's host alone. A page the company store
//     holds is read from there (the demo world's pages are); any other is fetched
//     through the guarded client;
//  3. extracts people (shared/people): schema.org Person in JSON-LD and microdata,
//     hCards and the people of team pages in any common layout, each with the URL it
//     was found on (source_url), titles verbatim (degrees off), department and
//     seniority from shared/title;
//  4. keeps every person found (match_status "match"; a person the page lists
//     without a title has a null title), the most senior first,
//     up to max_contacts_per_domain. People listed only on an out-of-date page (its
//     copyright year two or more years behind the company's newest page) are left
//     out with a warning: such pages list people who have left. The native engine
//     validates no title in any mode: icp_text (and the profile) shape only what is
//     searched for;
//  5. with find_emails, runs each row with a name and no email through the email
//     finder before the domain completes; found addresses bill under the finder's
//     rules (billing.KindEmail, 90-day dedupe); nothing else bills.
//
// An LLM integration (a UUID, or the organisation's default) selects the LLM engine
// (llmengine.go): the same pages, read by the model in two calls. The first extracts
// the rows in a JSON schema; a row naming someone no page read shows is dropped and
// counted in a warning. The second validates every title of the domain against
// icp_text in one batched call (a JSON schema of title -> match or no_match and a
// reason): match_status comes from it (title_validation llm); when it fails the rows
// are kept with match_status "unknown" and a warning. Both calls are in
// cost_metadata as for batch research.
package contactgen

import (
	"context"
	"log/slog"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/fetch"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/websearch"
)

// Kind is the task kind.
const Kind = "contact_generate"

// Columns are the column_name of a contact generation task.
// ResponseType is the response_format.response_type of a contact generation run: each
// domain's result is a list of contact rows with the pattern fields beside it.
const ResponseType = "contacts"

var Columns = []string{"name", "title", "department", "seniority", "email", "linkedin_url", "skills", "phone",
	"email_pattern", "email_pattern_confidence", "email_pattern_guess"}

// Tasks is the part of the task engine contact generation uses; task.Engine
// implements it.
type Tasks interface {
	Submit(ctx context.Context, s task.Submission) (task.Submitted, error)
	Kinds() *task.Registry
}

// Integrations resolves LLM integrations; integration.Service implements it.
type Integrations interface {
	Resolve(ctx context.Context, org, integrationID string) (integration.Integration, llm.Client, error)
}

// Searchers resolves search providers; websearch.Service implements it.
type Searchers interface {
	Resolve(ctx context.Context, org, providerID string) (websearch.Provider, websearch.Searcher, error)
}

// Companies reads what Firmo holds about a company: its stored pages and its
// profile (context for the profile and website context modes, and the country
// national phone numbers are read in); both answer apperr.ErrNotFound when nothing is
// held. company.Service implements it through CompanyData.
type Companies interface {
	Pages(ctx context.Context, domain string) ([]company.Page, error)
	Profile(ctx context.Context, domain string) (company.Profile, error)
}

// Fetcher fetches a page through the guarded outbound client; *fetch.Client
// implements it.
type Fetcher interface {
	Get(ctx context.Context, rawURL string) (*fetch.Response, error)
}

// EmailFinder finds one person's address at a domain, proven over SMTP: status is
// the finder's (found, not_found, catch_all, ...), email the address when found. The
// email family's finder implements it through emailapp.ContactFinder (this package
// does not link the SMTP verifier: the generation Lambda serves no find).
type EmailFinder interface {
	FindEmail(ctx context.Context, first, last, domain string) (status, email string)
}

// Pattern is a domain's email pattern as a result shows it.
type Pattern struct {
	Template   string  // "{first}.{last}"
	Confidence float64 // 0-1
	Guess      string  // an example for a hypothetical person
	// Evidence is what the pattern was learned from (email_pattern_evidence): how
	// many known addresses fit it, how many contradict it, and examples with their
	// sources.
	Evidence PatternEvidence
}

// PatternEvidence is the email_pattern_evidence of a result.
type PatternEvidence struct {
	Fit        int              `json:"fit"`
	Contradict int              `json:"contradict"`
	Examples   []PatternExample `json:"examples"`
}

// PatternExample is one known address behind a pattern and where it was seen.
type PatternExample struct {
	Email  string `json:"email"`
	Source string `json:"source"`
}

// Patterns gives a domain's learned email pattern (false when none is known) and
// learns from the addresses pages show (source is where: "page:<url>").
type Patterns interface {
	EmailPattern(ctx context.Context, domain string) (Pattern, bool, error)
	Record(ctx context.Context, domain, name, email, source string) error
}

// Biller charges found addresses, under the route in ctx (the task engine puts the
// submitting route there), at the exact per-record rate on the task's tab;
// billing.Service implements it.
type Biller interface {
	Accrue(ctx context.Context, org account.Org, kind billing.Kind, taskID string, records ...string) error
}

// Orgs reads an organisation (its plan prices a charge); account.Service implements it.
type Orgs interface {
	GetOrg(ctx context.Context, id string) (account.Org, error)
}

// Deps are the services contact generation uses. Fetch and Patterns may be nil: no
// live fetches (stored pages only), no pattern fields. Finder is asked for the email
// finder when a task with find_emails runs (the finder may be composed after this
// service); a nil func or a nil finder answers every row email_status "error".
type Deps struct {
	Tasks        Tasks
	Integrations Integrations
	Searchers    Searchers
	Companies    Companies
	Fetch        Fetcher
	Finder       func() EmailFinder
	Patterns     Patterns
	Billing      Biller
	Orgs         Orgs
	Log          *slog.Logger
}

// Service submits and answers contact generation tasks.
type Service struct{ d Deps }

// recordTimeout bounds one domain: the searches, up to maxFetches page fetches and,
// with find_emails, the finder's verify budget (finds run side by side).
const recordTimeout = 5 * time.Minute

// New makes the service and registers its kind on the engine.
func New(d Deps) (*Service, error) {
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	s := &Service{d: d}
	err := d.Tasks.Kinds().Register(task.Kind{Name: Kind, Processor: processor{s: s}, Columns: Columns, Timeout: recordTimeout,
		StatusRoutes: []string{task.GenStatusRoute}})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// CompanyData adapts company.Service to Companies.
type CompanyData struct{ Svc *company.Service }

// Pages returns the pages the company store holds for a domain.
func (c CompanyData) Pages(ctx context.Context, dom string) ([]company.Page, error) {
	return c.Svc.Store().Pages(ctx, dom)
}

// Profile returns a domain's stored profile.
func (c CompanyData) Profile(ctx context.Context, dom string) (company.Profile, error) {
	return c.Svc.Profile(ctx, dom)
}
