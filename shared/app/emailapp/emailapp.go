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

// Composer builds the email family. After Compose, Service is set.
type Composer struct {
	Service *emailfind.Service
}

// Family names the family.
func (*Composer) Family() httpapi.Family { return httpapi.FamilyEmail }

var _ app.Composer = (*Composer)(nil)

// Compose builds the email finder and its jobs (registering the email_find kind) and
// adds the family's routes.
func (f *Composer) Compose(_ context.Context, c *app.Core) error {
	cfg := c.Config
	verifier := smtpverify.New(smtpverify.Settings{Resolver: cfg.DNSResolver, Port: cfg.SMTP.Port, HELO: cfg.SMTP.HELO, From: cfg.SMTP.From})
	patterns := newLearnedPatterns(contact.NewStore(c.Store))
	finder := emailfind.NewFinder(emailfind.FinderDeps{Checker: verifier, Patterns: patterns}) // the default budgets
	svc, err := emailfind.NewService(emailfind.ServiceDeps{Store: c.Store, Tasks: c.Tasks, Finder: finder, Billing: c.Billing, Orgs: c.Accounts, Log: c.Log})
	if err != nil {
		return fmt.Errorf("email finder: %w", err)
	}
	f.Service = svc
	c.Server.Add(emailhttp.EmailRoutes(svc)...)
	return nil
}
