package ratelimit_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
		// The API reference's CRM figures win over a route's own base.
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

// TestREADMELimitTable keeps the README's rate-limit table equal to the policy.
func TestREADMELimitTable(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	plans := []account.Plan{account.PlanFree, account.PlanStarter, account.PlanPro, account.PlanEnterprise}
	rows := map[string]string{ // README label -> route pattern
		"`GET /v1/crm/connections`":              "GET /v1/crm/connections",
		"`GET /v1/crm/{provider}/authorize`":     "GET /v1/crm/{provider}/authorize",
		"`POST /v1/crm/{provider}/suppress`":     "POST /v1/crm/{provider}/suppress",
		"`DELETE /v1/crm/{provider}/connection`": "DELETE /v1/crm/{provider}/connection",
		"every other endpoint":                   "GET /v1/anything-else",
	}
	for label, pattern := range rows {
		var cells []string
		for _, line := range strings.Split(string(raw), "\n") {
			if strings.HasPrefix(line, "| "+label+" |") {
				cells = strings.Split(strings.Trim(line, "| "), " | ")
			}
		}
		if len(cells) != 6 {
			t.Errorf("README.md has no rate-limit row %s", label)
			continue
		}
		if cells[1] != strconv.Itoa(ratelimit.Base(pattern, 0)) {
			t.Errorf("README.md: base of %s = %s, policy says %d", label, cells[1], ratelimit.Base(pattern, 0))
		}
		for i, p := range plans {
			if want := strconv.Itoa(ratelimit.Limit(p, pattern, 0)); cells[2+i] != want {
				t.Errorf("README.md: %s on %s = %s, policy says %s", label, p, cells[2+i], want)
			}
		}
	}
}
