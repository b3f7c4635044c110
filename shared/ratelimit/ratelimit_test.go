package ratelimit_test

import (
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/ratelimit"
)

func TestLimit(t *testing.T) {
	for _, c := range []struct {
		plan      account.Plan
		pattern   string
		routeBase int
		want      int
	}{
		{account.PlanFree, "GET /v1/crm/connections", 0, 20},
		{account.PlanStarter, "GET /v1/crm/connections", 0, 40},
		{account.PlanPro, "GET /v1/crm/{provider}/authorize", 0, 50},
		{account.PlanEnterprise, "POST /v1/crm/{provider}/suppress", 0, 100},
		{account.PlanFree, "DELETE /v1/crm/{provider}/connection", 0, 10},
		// The spec's CRM figures win over a route's own base.
		{account.PlanFree, "POST /v1/crm/{provider}/suppress", 1000, 5},
		{account.PlanFree, "GET /v1/score", 0, ratelimit.DefaultBase},
		{account.PlanEnterprise, "GET /v1/score", 0, 20 * ratelimit.DefaultBase},
		{account.PlanPro, "POST /v1/contacts/discover", 30, 150},
		{account.Plan("UNKNOWN"), "GET /v1/score", 0, ratelimit.DefaultBase},
	} {
		t.Run(string(c.plan)+" "+c.pattern, func(t *testing.T) {
			if got := ratelimit.Limit(c.plan, c.pattern, c.routeBase); got != c.want {
				t.Errorf("Limit = %d, want %d", got, c.want)
			}
		})
	}
}

func TestDecide(t *testing.T) {
	start := time.Date(2030, 1, 1, 12, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		count         int64
		limit         int
		wantAllowed   bool
		wantRemaining int
	}{{1, 5, true, 4}, {5, 5, true, 0}, {6, 5, false, 0}, {100, 5, false, 0}} {
		d := ratelimit.Decide(c.count, c.limit, start)
		if d.Allowed != c.wantAllowed || d.Remaining != c.wantRemaining || d.Limit != c.limit || !d.Reset.Equal(start.Add(time.Minute)) {
			t.Errorf("Decide(%d, %d) = %+v", c.count, c.limit, d)
		}
	}
	d := ratelimit.Decide(9, 5, start)
	if got := d.RetryAfter(start.Add(45 * time.Second)); got != 15*time.Second {
		t.Errorf("RetryAfter = %v, want 15s", got)
	}
	if got := d.RetryAfter(start.Add(59*time.Second + 900*time.Millisecond)); got != time.Second {
		t.Errorf("RetryAfter near the reset = %v, want the 1s floor", got)
	}
}
