package queryhttp

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/query"
)

// QueryService is what the saved-query family needs. query.Service implements it.
type QueryService interface {
	List(ctx context.Context, orgID string, limit, offset int) ([]query.Query, int, error)
	CreateExclusionList(ctx context.Context, orgID string, by query.Actor, name string, domains []string, personaIDs []int64) (query.Query, error)
	Patch(ctx context.Context, orgID, id string, by query.Actor, name *string, tags *[]string) (query.Query, error)
	Delete(ctx context.Context, orgID, id string, by query.Actor) error
}

// QueryRoutes are the saved-query family (Lambda "queries"). Listing, creating
// exclusion lists and updating need the STARTER plan or higher, as the API reference says;
// deleting is open to every plan. Members change their own queries, admins any.
func QueryRoutes(svc QueryService) []httpapi.Route {
	a := &queryAPI{svc: svc}
	const fam = httpapi.FamilyQueries
	return []httpapi.Route{
		{Method: "GET", Path: "/v1/queries/saved", Family: fam, Handle: a.list},
		{Method: "POST", Path: "/v1/queries/exclusion-list", Family: fam, Handle: a.createExclusionList, MaxBody: ExclusionListMaxBody},
		{Method: "PATCH", Path: "/v1/queries/{query_id}", Family: fam, Handle: a.patch},
		{Method: "DELETE", Path: "/v1/queries/{query_id}", Family: fam, Handle: a.delete},
	}
}

type queryAPI struct{ svc QueryService }

// ExclusionListMaxBody bounds the body of POST /v1/queries/exclusion-list: it admits
// query.MaxEntries domains of the longest length a domain name may have (253
// characters) and query.MaxEntries persona ids of 19 digits, each with its quotes,
// comma and some white space, plus room for the name. The server's default limit
// (FIRMO_MAX_BODY_BYTES, 1 MB) holds about 4,000 such domains.
const ExclusionListMaxBody = query.MaxEntries*(maxDomainLen+entrySlack) + query.MaxEntries*(maxPersonaIDLen+entrySlack) + 64<<10

const (
	maxDomainLen    = 253 + 2 // a domain name (domain.Normalize's limit) in quotes
	maxPersonaIDLen = 19      // the digits of the largest int64
	entrySlack      = 8       // a comma and white space (", ", indentation)
)

func actor(p account.Principal) query.Actor {
	return query.Actor{UserID: p.User.ID, UserName: p.User.Email, Admin: p.User.Role == account.RoleAdmin}
}

// SavedQueryView is a saved query as the API shows it. domains holds at most the first
// query.PreviewDomains domains; domain_count is the full count.
type SavedQueryView struct {
	QueryID      string          `json:"query_id"`
	QueryName    string          `json:"query_name"`
	Action       string          `json:"action"`
	UserName     string          `json:"user_name"`
	MTime        time.Time       `json:"mtime"`
	Domains      []string        `json:"domains"`
	DomainCount  int             `json:"domain_count"`
	PersonaCount int             `json:"persona_count"`
	QueryParams  json.RawMessage `json:"query_params"`
	Tags         []string        `json:"tags"`
}

func savedQueryView(q query.Query) SavedQueryView {
	v := SavedQueryView{QueryID: q.ID, QueryName: q.Name, Action: q.Action, UserName: q.UserName, MTime: q.MTime,
		Domains: q.Preview, DomainCount: q.DomainCount, PersonaCount: q.PersonaCount, QueryParams: q.Params, Tags: q.Tags}
	if v.Domains == nil {
		v.Domains = []string{}
	}
	if v.Tags == nil {
		v.Tags = []string{}
	}
	if len(v.QueryParams) == 0 {
		v.QueryParams = json.RawMessage(`{}`)
	}
	return v
}

func (a *queryAPI) list(w http.ResponseWriter, r *http.Request) error {
	p := httpapi.Caller(r)
	if err := p.RequirePlan(account.PlanStarter); err != nil {
		return err
	}
	q, err := httpapi.ParseQuery(r.URL.Query(), "max_records", "offset")
	if err != nil {
		return err
	}
	limit, err := q.Int("max_records", 100, 1, 1000)
	if err != nil {
		return err
	}
	offset, err := q.Int("offset", 0, 0, math.MaxInt32)
	if err != nil {
		return err
	}
	qs, total, err := a.svc.List(r.Context(), p.Org.ID, limit, offset)
	if err != nil {
		return err
	}
	out := make([]SavedQueryView, 0, len(qs))
	for _, q := range qs {
		out = append(out, savedQueryView(q))
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"results": out, "count": total})
	return nil
}

type exclusionListRequest struct {
	QueryName  *string  `json:"query_name"`
	Domains    []string `json:"domains"`
	PersonaIDs []int64  `json:"persona_ids"`
}

// ExclusionListView is the answer of POST /v1/queries/exclusion-list.
type ExclusionListView struct {
	QueryID      string `json:"query_id"`
	QueryName    string `json:"query_name"`
	DomainCount  int    `json:"domain_count"`
	PersonaCount int    `json:"persona_count"`
	Truncated    bool   `json:"truncated"`
	Message      string `json:"message,omitempty"`
}

func (a *queryAPI) createExclusionList(w http.ResponseWriter, r *http.Request) error {
	p := httpapi.Caller(r)
	if err := p.RequirePlan(account.PlanStarter); err != nil {
		return err
	}
	if _, err := httpapi.ParseQuery(r.URL.Query()); err != nil {
		return err
	}
	var req exclusionListRequest
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		return err
	}
	name := ""
	if req.QueryName != nil {
		name = *req.QueryName
	}
	q, err := a.svc.CreateExclusionList(r.Context(), p.Org.ID, actor(p), name, req.Domains, req.PersonaIDs)
	if err != nil {
		return err
	}
	v := ExclusionListView{QueryID: q.ID, QueryName: q.Name, DomainCount: q.DomainCount, PersonaCount: q.PersonaCount, Truncated: q.Truncated}
	if q.Truncated {
		v.Message = fmt.Sprintf("Lists are capped at %d entries each: the list was truncated and keeps %d domains and %d persona ids.", query.MaxEntries, q.DomainCount, q.PersonaCount)
	}
	httpapi.WriteJSON(w, http.StatusCreated, v)
	return nil
}

type patchQueryRequest struct {
	QueryName *string   `json:"query_name"`
	Tags      *[]string `json:"tags"`
}

func (a *queryAPI) patch(w http.ResponseWriter, r *http.Request) error {
	p := httpapi.Caller(r)
	if err := p.RequirePlan(account.PlanStarter); err != nil {
		return err
	}
	if _, err := httpapi.ParseQuery(r.URL.Query()); err != nil {
		return err
	}
	var req patchQueryRequest
	if err := httpapi.DecodeJSON(r, &req); err != nil {
		return err
	}
	q, err := a.svc.Patch(r.Context(), p.Org.ID, r.PathValue("query_id"), actor(p), req.QueryName, req.Tags)
	if err != nil {
		return err
	}
	tags := q.Tags
	if tags == nil {
		tags = []string{}
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"query_id": q.ID, "query_name": q.Name, "tags": tags})
	return nil
}

func (a *queryAPI) delete(w http.ResponseWriter, r *http.Request) error {
	p := httpapi.Caller(r)
	if _, err := httpapi.ParseQuery(r.URL.Query()); err != nil {
		return err
	}
	id := r.PathValue("query_id")
	if err := a.svc.Delete(r.Context(), p.Org.ID, id, actor(p)); err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]string{"message": "Saved query deleted.", "query_id": id})
	return nil
}
