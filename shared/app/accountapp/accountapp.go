// Package accountapp composes the account family: the caller's account and API keys,
// admin app sign-in, credit usage, health and the API reference.
package accountapp

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/httpapi/accounthttp"
	"github.com/firmoapi/firmo/shared/openapi"
)

// Composer composes the account family.
func Composer() app.Composer { return app.NewComposer(httpapi.FamilyAccount, core, routes) }

func core(_ context.Context, c *app.Core) (*app.Core, error) { return c, nil }

// routes are the meta routes (the API reference rendered on first request), the
// account and key routes and usage, over the core's accounts and billing.
func routes(c *app.Core) []httpapi.Route {
	docs := sync.OnceValues(openapi.Docs)
	meta := accounthttp.MetaRoutes(sync.OnceValues(openapi.Document), func() ([]byte, string, error) {
		d, err := docs()
		return d.HTML, d.CSP, err
	})
	account := accounthttp.AccountRoutes(c.Accounts, accounthttp.SessionOptions{TTL: c.Config.SessionTTL, Insecure: c.Config.InsecureCookies})
	return slices.Concat(meta, account, accounthttp.UsageRoutes(c.Billing, time.Now))
}
