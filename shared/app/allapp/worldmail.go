package allapp

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/emailapp"
	"github.com/firmoapi/firmo/shared/contactverify"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/world"
	"github.com/firmoapi/firmo/shared/worldmail"
)

// worldMail is the local composition's demo world mail (shared/worldmail): the world's
// DNS and SMTP servers on loopback. Its Compose starts them and routes the email
// verifier there (resolver, SMTP port, and the world's MX host names admitted on that
// port through the verifier's allow list), before the email family is composed. On
// AWS there is none.
type worldMail struct {
	srv *worldmail.Server
}

func (m *worldMail) Family() httpapi.Family { return httpapi.FamilyEmail }

func (m *worldMail) Compose(_ context.Context, c *app.Core) error {
	srv, err := worldmail.Start(worldmail.Options{})
	if err != nil {
		return fmt.Errorf("demo world mail: %w", err)
	}
	c.OnClose(srv.Close)
	m.srv = srv
	emailapp.RouteMail(c, emailapp.MailRoute{Resolver: srv.Resolver(), Port: srv.Port(), AllowHosts: srv.AllowHosts,
		GreylistWait: 2 * srv.GreylistDelay()})
	return nil
}

// set serves w's mail (no-op without the world mail).
func (m *worldMail) set(w *world.World) {
	if m != nil && m.srv != nil {
		m.srv.Set(w)
	}
}

// WorldMail is the demo world's mail servers; nil on AWS.
func (a *App) WorldMail() *worldmail.Server {
	if a.mail == nil {
		return nil
	}
	return a.mail.srv
}

// EmailChecks is the verification pass of stored contacts' addresses
// (shared/contactverify) on the core's verifier.
func (a *App) EmailChecks() *contactverify.Pass {
	p, _ := app.Shared(a.Core, "allapp.EmailChecks", func() (*contactverify.Pass, error) {
		return contactverify.New(contactverify.Deps{Contacts: a.Contacts, Store: a.Core.Store, Checker: emailapp.Verifier(a.Core), Log: a.Core.Log}), nil
	})
	return p
}

// StartEmailChecks runs the verification pass now and then every interval until ctx
// ends or stop is called (stop waits for the run in progress to stop). Each run checks
// only addresses without a kept verdict, so a restart resumes where the last run
// stopped. `firmo serve` starts it once the server is ready: it never delays readiness.
func (a *App) StartEmailChecks(ctx context.Context, every time.Duration, log *slog.Logger) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			start := time.Now()
			rep, err := a.EmailChecks().Run(ctx)
			switch {
			case err != nil && ctx.Err() == nil:
				log.Error("email verification of contacts", "err", err)
			case rep.Checked > 0 || rep.Updated > 0:
				log.Info("email verification of contacts", "contacts", rep.Contacts, "checked", rep.Checked, "validated", rep.Validated,
					"reused", rep.Reused, "pending", rep.Pending, "updated", rep.Updated, "took", time.Since(start).Round(time.Millisecond).String())
			}
			if every <= 0 {
				return
			}
			t := time.NewTimer(every)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
		}
	}()
	return func() {
		cancel()
		wg.Wait()
	}
}
