// Package emailapp composes the email family: finding one address or a batch (the
// email_find task kind) and polling jobs. The finder verifies candidates over SMTP and
// tries first each company's pattern from the core's pattern book (patternsapp.Book), to
// which it adds every address it proves.
package emailapp

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/patternsapp"
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
		patterns := patternsapp.Book(c)
		finder := emailfind.NewFinder(emailfind.FinderDeps{Checker: Verifier(c), Patterns: patterns}) // the default budgets
		svc, err := emailfind.NewService(emailfind.ServiceDeps{Store: c.Store, Tasks: c.Tasks, Finder: finder, Billing: c.Billing, Orgs: c.Accounts, Seen: patterns, Log: c.Log})
		if err != nil {
			return nil, fmt.Errorf("email finder: %w", err)
		}
		return svc, nil
	})
}

// WorldMail is a second mail system beside the real one that answers for some domains
// only: the local composition's demo world (shared/worldmail, wired by
// shared/app/allapp). It must be set (RouteWorldMail) before the email family is
// composed.
type WorldMail interface {
	// Route returns where the mail of domain is verified when the world holds domain
	// or a parent of it; false for every other domain, and for every domain while no
	// world is served. The same *MailRoute is returned until the world changes.
	Route(domain string) (*MailRoute, bool)
}

// MailRoute is a mail system's DNS server, SMTP port and the allow-list entries that
// admit its mail hosts although they are on loopback.
type MailRoute struct {
	Resolver string // the DNS server, host:port
	Port     int    // the SMTP port of every mail host
	// AllowHosts are allow-list entries ("host" or "host:port", as
	// FIRMO_FETCH_ALLOW_HOSTS) added to the configured ones for this route only.
	AllowHosts []string
	// GreylistWait is the verifier's first wait after a temporary failure; zero: the
	// default.
	GreylistWait time.Duration
}

const worldMailKey = "emailapp.WorldMail"

// worldMailSlot holds the core's world mail (a pointer, so a core without one holds nil).
type worldMailSlot struct{ w WorldMail }

// RouteWorldMail sets the core's world mail (before the email family is composed).
func RouteWorldMail(c *app.Core, w WorldMail) {
	app.Shared(c, worldMailKey, func() (*worldMailSlot, error) { return &worldMailSlot{w}, nil })
}

// Checker verifies addresses over SMTP (smtpverify.Verifier's method).
type Checker interface {
	Check(ctx context.Context, domain string, locals []string, opt smtpverify.Options) smtpverify.Outcome
}

// Verifier is the core's SMTP verifier, shared by the finder and the local
// composition's verification pass of stored contacts. Every domain is verified against
// the real mail system: FIRMO_DNS_RESOLVER (or the system's resolvers) and
// FIRMO_SMTP_PORT, with MX hosts on private or loopback addresses refused unless the
// allow list admits them (README, "Email finding"). When a world mail is set, a domain
// of the world goes to the world's DNS and mail servers instead, by a verifier of its
// own (its own DNS cache, catch-all cache and allow list), so nothing about a world
// domain reaches a resolver outside the process, and the world's loopback mail hosts
// are admitted for world domains only.
func Verifier(c *app.Core) Checker {
	v, _ := app.Shared(c, "emailapp.Verifier", func() (Checker, error) {
		cfg := c.Config
		set := smtpverify.Settings{Resolver: cfg.DNSResolver, Port: cfg.SMTP.Port, HELO: cfg.SMTP.HELO, From: cfg.SMTP.From, AllowHosts: cfg.FetchAllowHosts}
		real := smtpverify.New(set)
		slot, _ := app.Shared(c, worldMailKey, func() (*worldMailSlot, error) { return nil, nil })
		if slot == nil {
			return real, nil
		}
		return &twoWorlds{real: real, world: slot.w, set: set}, nil
	})
	return v
}

// worldPerHost is how many sessions the world's verifier holds at once per MX host name.
const worldPerHost = 16

// twoWorlds verifies a domain of the world through the world's mail and every other
// domain through the real one.
type twoWorlds struct {
	real  *smtpverify.Verifier
	world WorldMail
	set   smtpverify.Settings // the configured settings, the world route's base

	mu    sync.Mutex
	route *MailRoute // the route wv was built for
	wv    *smtpverify.Verifier
}

func (t *twoWorlds) Check(ctx context.Context, domain string, locals []string, opt smtpverify.Options) smtpverify.Outcome {
	if r, ok := t.world.Route(domain); ok {
		return t.worldVerifier(r).Check(ctx, domain, locals, opt)
	}
	return t.real.Check(ctx, domain, locals, opt)
}

// worldVerifier returns the verifier of route r, built once per route.
func (t *twoWorlds) worldVerifier(r *MailRoute) *smtpverify.Verifier {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.route == r && t.wv != nil {
		return t.wv
	}
	set := t.set
	set.Resolver, set.Port, set.GreylistWait = r.Resolver, r.Port, r.GreylistWait
	set.AllowHosts = append(slices.Clip(set.AllowHosts), r.AllowHosts...)
	// The world's servers are the process's own: no gap between sessions, and more of
	// them at once than a real mail host is asked for (its domains share a few MX names).
	set.HostInterval, set.PerHost = -1, worldPerHost
	t.route, t.wv = r, smtpverify.New(set)
	return t.wv
}
