package allapp

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/emailapp"
	"github.com/firmoapi/firmo/shared/contactverify"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/world"
	"github.com/firmoapi/firmo/shared/worldmail"
)

// worldMail is the local composition's demo world mail (shared/worldmail): the world's
// DNS and SMTP servers on loopback, started when a world is first served (seeded, or
// found in the store at start-up): with no world there is no world mail. Its Compose
// routes the email verifier's world domains there (emailapp.RouteWorldMail) before the
// email family is composed; every other domain is verified against the real DNS and
// mail. On AWS there is none.
type worldMail struct {
	mu    sync.Mutex
	srv   *worldmail.Server
	route atomic.Pointer[emailapp.MailRoute] // nil until a world is served
	cur   atomic.Pointer[worldmail.Server]
}

func (m *worldMail) Family() httpapi.Family { return httpapi.FamilyEmail }

func (m *worldMail) Compose(_ context.Context, c *app.Core) error {
	c.OnClose(m.close)
	emailapp.RouteWorldMail(c, m)
	return nil
}

// Route is the world's mail route when domain (or a parent of it) is the world's
// (emailapp.WorldMail).
func (m *worldMail) Route(domain string) (*emailapp.MailRoute, bool) {
	srv, r := m.cur.Load(), m.route.Load()
	if srv == nil || r == nil || !srv.Owns(domain) {
		return nil, false
	}
	return r, true
}

// set serves w's mail, starting the servers the first time (no-op without the world
// mail, on AWS).
func (m *worldMail) set(w *world.World) error {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.srv == nil {
		srv, err := worldmail.Start(worldmail.Options{})
		if err != nil {
			return fmt.Errorf("demo world mail: %w", err)
		}
		m.srv = srv
	}
	m.srv.Set(w)
	m.route.Store(&emailapp.MailRoute{Resolver: m.srv.Resolver(), Port: m.srv.Port(), AllowHosts: m.srv.AllowHosts(),
		GreylistWait: 2 * m.srv.GreylistDelay()})
	m.cur.Store(m.srv)
	return nil
}

func (m *worldMail) close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cur.Store(nil)
	if m.srv == nil {
		return nil
	}
	return m.srv.Close()
}

// WorldMail is the demo world's mail servers; nil on AWS and before a world is served.
func (a *App) WorldMail() *worldmail.Server {
	if a.mail == nil {
		return nil
	}
	return a.mail.cur.Load()
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
