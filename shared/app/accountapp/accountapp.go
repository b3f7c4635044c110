// Package accountapp composes the account family: the caller's account and API keys,
// admin app sign-in, credit usage, health and the API reference.
package accountapp

import (
	"context"
	"sync"
	"time"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/httpapi/accounthttp"
	"github.com/firmoapi/firmo/shared/openapi"
)

// Composer builds the account family.
type Composer struct{}

// Family names the family.
func (Composer) Family() httpapi.Family { return httpapi.FamilyAccount }

// Compose adds the family's routes.
func (Composer) Compose(_ context.Context, c *app.Core) error {
	c.Server.Add(accounthttp.MetaRoutes(sync.OnceValues(openapi.Document), sync.OnceValues(openapi.HTML))...)
	c.Server.Add(accounthttp.AccountRoutes(c.Accounts, accounthttp.SessionOptions{TTL: c.Config.SessionTTL, Insecure: c.Config.InsecureCookies})...)
	c.Server.Add(accounthttp.UsageRoutes(c.Billing, time.Now)...)
	return nil
}
