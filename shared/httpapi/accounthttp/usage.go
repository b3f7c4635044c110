package accounthttp

import (
	"context"
	"net/http"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/httpapi"
)

// UsageService is what the usage endpoint needs. billing.Service implements it.
type UsageService interface {
	Usage(ctx context.Context, orgID string, from, to time.Time) (billing.Usage, error)
	Balance(ctx context.Context, orgID string) (int64, error)
}

// defaultUsageDays is the span of a usage report without from.
const defaultUsageDays = 30

// UsageRoutes is GET /v1/account/usage (family account): credits and records by day
// and by endpoint, from the ledger.
func UsageRoutes(svc UsageService, now func() time.Time) []httpapi.Route {
	u := &usageAPI{svc: svc, now: now}
	return []httpapi.Route{{Method: "GET", Path: "/v1/account/usage", Family: httpapi.FamilyAccount, Handle: u.get}}
}

type usageAPI struct {
	svc UsageService
	now func() time.Time
}

// UsageView is the answer of GET /v1/account/usage.
type UsageView struct {
	billing.Usage
	CreditBalance int64 `json:"credit_balance"`
}

func (u *usageAPI) get(w http.ResponseWriter, r *http.Request) error {
	q, err := httpapi.ParseQuery(r.URL.Query(), "from", "to")
	if err != nil {
		return err
	}
	today := u.now().UTC().Truncate(24 * time.Hour)
	to, err := date(q, "to", today)
	if err != nil {
		return err
	}
	from, err := date(q, "from", to.AddDate(0, 0, -(defaultUsageDays-1)))
	if err != nil {
		return err
	}
	p := httpapi.Caller(r)
	usage, err := u.svc.Usage(r.Context(), p.Org.ID, from, to)
	if err != nil {
		return err
	}
	bal, err := u.svc.Balance(r.Context(), p.Org.ID)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, UsageView{Usage: usage, CreditBalance: bal})
	return nil
}

// date reads a YYYY-MM-DD parameter.
func date(q httpapi.Query, name string, def time.Time) (time.Time, error) {
	s, err := q.String(name)
	if err != nil || s == "" {
		return def, err
	}
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		return time.Time{}, apperr.Invalid(name, "%s must be a date YYYY-MM-DD, not %q", name, s)
	}
	return t, nil
}
