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

// MailRoute sends the verifier to other DNS and mail servers than the configured ones:
// the local composition's demo world mail (shared/worldmail, wired by
// shared/app/allapp). It must be set (RouteMail) before the email family is composed.
type MailRoute struct {
	Resolver string // the DNS server, host:port
	Port     int    // the SMTP port of every mail host
	// AllowHosts lists the allow-list entries that admit the route's mail hosts ("host"
	// or "host:port", as FIRMO_FETCH_ALLOW_HOSTS), added to the configured ones. It is
	// called when the verifier is first used (the hosts may be known only once the demo
	// world is loaded), and again while it returns none.
	AllowHosts func() []string
	// GreylistWait is the verifier's first wait after a temporary failure; zero: the
	// default.
	GreylistWait time.Duration
}

const routeKey = "emailapp.MailRoute"

// RouteMail sets the core's mail route (before the email family is composed).
func RouteMail(c *app.Core, r MailRoute) {
	app.Shared(c, routeKey, func() (*MailRoute, error) { return &r, nil })
}

// Checker verifies addresses over SMTP (smtpverify.Verifier's method).
type Checker interface {
	Check(ctx context.Context, domain string, locals []string, opt smtpverify.Options) smtpverify.Outcome
}

// Verifier is the core's SMTP verifier, shared by the finder and the local
// composition's verification pass of stored contacts. MX hosts on private or loopback
// addresses are refused unless the allow list admits them (README, "Email finding"):
// the configured list, plus the mail route's hosts when one is set.
func Verifier(c *app.Core) Checker {
	v, _ := app.Shared(c, "emailapp.Verifier", func() (Checker, error) {
		cfg := c.Config
		set := smtpverify.Settings{Resolver: cfg.DNSResolver, Port: cfg.SMTP.Port, HELO: cfg.SMTP.HELO, From: cfg.SMTP.From, AllowHosts: cfg.FetchAllowHosts}
		route, _ := app.Shared(c, routeKey, func() (*MailRoute, error) { return nil, nil })
		if route == nil {
			return smtpverify.New(set), nil
		}
		set.Resolver, set.Port, set.GreylistWait = route.Resolver, route.Port, route.GreylistWait
		set.HostInterval = -1 // the route's servers are the composition's own
		return &routedVerifier{set: set, hosts: route.AllowHosts}, nil
	})
	return v
}

// routedVerifier builds the verifier on first use, once the route's hosts are known.
type routedVerifier struct {
	set   smtpverify.Settings
	hosts func() []string

	mu sync.Mutex
	v  *smtpverify.Verifier
}

func (r *routedVerifier) Check(ctx context.Context, domain string, locals []string, opt smtpverify.Options) smtpverify.Outcome {
	return r.verifier().Check(ctx, domain, locals, opt)
}

func (r *routedVerifier) verifier() *smtpverify.Verifier {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.v != nil {
		return r.v
	}
	set := r.set
	extra := r.hosts()
	set.AllowHosts = append(slices.Clip(set.AllowHosts), extra...)
	v := smtpverify.New(set)
	if len(extra) > 0 {
		r.v = v
	}
	return v
}
