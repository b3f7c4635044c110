package companyhttp

import (
	"context"
	"net/http"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/httpapi"
)

// CompanyService is what the company family's lookups need. company.Service
// implements it. Domains arrive as the caller typed them; the service normalizes them
// (URL, www. and subdomain forms all reach the registrable domain's record).
type CompanyService interface {
	Profile(ctx context.Context, domain string) (company.Profile, error)
	History(ctx context.Context, domain string, max int) (string, []company.Certificate, error)
	Score(ctx context.Context, domain string) (company.ScoreAnswer, error)
}

// companyLookupRate is the per-minute base rate limit of the single-domain lookups
// (before the plan multiplier): they are cheap reads of one stored record, meant to be
// called once per row of a user's list.
const companyLookupRate = 3000

type companyAPI struct{ svc CompanyService }

// CompanyRoutes are the company family's single-domain lookups: profile, certificate
// history and score.
func CompanyRoutes(svc CompanyService) []httpapi.Route {
	a := &companyAPI{svc: svc}
	const fam = httpapi.FamilyCompany
	return []httpapi.Route{
		{Method: "GET", Path: "/v1/bizdata", Family: fam, RateLimit: companyLookupRate, Handle: a.bizdata},
		{Method: "GET", Path: "/v1/history", Family: fam, RateLimit: companyLookupRate, Handle: a.history},
		{Method: "GET", Path: "/v1/score", Family: fam, RateLimit: companyLookupRate, Handle: a.score},
	}
}

func (a *companyAPI) bizdata(w http.ResponseWriter, r *http.Request) error {
	q, err := httpapi.ParseQuery(r.URL.Query(), "domain")
	if err != nil {
		return err
	}
	dom, err := q.Required("domain")
	if err != nil {
		return err
	}
	p, err := a.svc.Profile(r.Context(), dom)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, p)
	return nil
}

// History limits of the API reference.
const (
	historyMin     = 100
	historyMax     = 10000
	historyDefault = 1000
)

// HistoryAnswer is the body of GET /v1/history.
type HistoryAnswer struct {
	Domain       string                `json:"domain"`
	Certificates []company.Certificate `json:"certificates"`
}

func (a *companyAPI) history(w http.ResponseWriter, r *http.Request) error {
	q, err := httpapi.ParseQuery(r.URL.Query(), "domain", "max_records")
	if err != nil {
		return err
	}
	dom, err := q.Required("domain")
	if err != nil {
		return err
	}
	max, err := q.Int("max_records", historyDefault, historyMin, historyMax)
	if err != nil {
		return err
	}
	root, certs, err := a.svc.History(r.Context(), dom, max)
	if err != nil {
		return err
	}
	if certs == nil {
		certs = []company.Certificate{}
	}
	httpapi.WriteJSON(w, http.StatusOK, HistoryAnswer{Domain: root, Certificates: certs})
	return nil
}

func (a *companyAPI) score(w http.ResponseWriter, r *http.Request) error {
	q, err := httpapi.ParseQuery(r.URL.Query(), "domain")
	if err != nil {
		return err
	}
	dom, err := q.Required("domain")
	if err != nil {
		return err
	}
	s, err := a.svc.Score(r.Context(), dom)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, s)
	return nil
}
