// Package emailapp composes the email family: finding one address or a batch (the
// email_find task kind) and polling jobs. The finder verifies candidates over SMTP and
// tries first each company's pattern learned from the contact store.
package emailapp

import (
	"context"
	"fmt"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/emailfind"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/httpapi/emailhttp"
	"github.com/firmoapi/firmo/shared/smtpverify"
)

// Composer composes the email family.
func Composer() app.Composer { return app.NewComposer(httpapi.FamilyEmail, Service, routes) }

func routes(s *emailfind.Service) []httpapi.Route { return emailhttp.EmailRoutes(s) }

// Service is the core's email finder and its jobs (registering the email_find kind on
// the task engine), built on first use.
func Service(_ context.Context, c *app.Core) (*emailfind.Service, error) {
	return app.Shared(c, "emailapp.Service", func() (*emailfind.Service, error) {
		cfg := c.Config
		// MX hosts on private or loopback addresses are refused unless the fetch allow
		// list admits them (README, "Email finding").
		verifier := smtpverify.New(smtpverify.Settings{Resolver: cfg.DNSResolver, Port: cfg.SMTP.Port, HELO: cfg.SMTP.HELO, From: cfg.SMTP.From, AllowHosts: cfg.FetchAllowHosts})
		patterns := newLearnedPatterns(contact.NewStore(c.Store))
		finder := emailfind.NewFinder(emailfind.FinderDeps{Checker: verifier, Patterns: patterns}) // the default budgets
		svc, err := emailfind.NewService(emailfind.ServiceDeps{Store: c.Store, Tasks: c.Tasks, Finder: finder, Billing: c.Billing, Orgs: c.Accounts, Log: c.Log})
		if err != nil {
			return nil, fmt.Errorf("email finder: %w", err)
		}
		return svc, nil
	})
}
