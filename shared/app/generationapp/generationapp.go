// Package generationapp composes the generation family: batch research
// (/v1/gen/process and /v1/gen/process-personas, task kinds gen_process and
// gen_process_personas) and ICP validation (/v1/validate/icp, kinds validate_icp and
// native_icp) with the organisations' LLM integrations and search providers,
// contact generation (/v1/contacts/discover/generate, kind contact_generate), the
// model list, and the status and cancel endpoints of every task.
package generationapp

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/companyapp"
	"github.com/firmoapi/firmo/shared/app/integrationsapp"
	"github.com/firmoapi/firmo/shared/app/patternsapp"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/contactgen"
	"github.com/firmoapi/firmo/shared/dnsmx"
	"github.com/firmoapi/firmo/shared/emailpattern"
	"github.com/firmoapi/firmo/shared/fetch"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/httpapi/generationhttp"
	"github.com/firmoapi/firmo/shared/icpfit"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/patternbook"
	"github.com/firmoapi/firmo/shared/research"
	"github.com/firmoapi/firmo/shared/task"
)

// Composer composes the generation family. Options add what only some compositions
// have (FindEmailsWith).
func Composer(opts ...Option) app.Composer {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	return app.NewComposer(httpapi.FamilyGeneration, func(ctx context.Context, c *app.Core) (services, error) {
		if o.finder != nil {
			useFinder(c, &lazyFinder{core: c, build: o.finder})
		}
		return build(ctx, c)
	}, routes)
}

// Option configures the generation family's composer.
type Option func(*options)

type options struct {
	finder func(context.Context, *app.Core) (contactgen.EmailFinder, error)
}

// FindEmailsWith gives contact generation's find_emails the email finder that build
// makes on the core (emailapp.ContactFinderOn, in a composition that also composes the
// email family: the local process and the worker Lambda). It is built on the first
// find, once. Without this option such rows answer email_status error.
func FindEmailsWith[F contactgen.EmailFinder](build func(context.Context, *app.Core) (F, error)) Option {
	return func(o *options) {
		o.finder = func(ctx context.Context, c *app.Core) (contactgen.EmailFinder, error) { return build(ctx, c) }
	}
}

// lazyFinder builds the email finder on its first use, once, shared by concurrent
// callers.
type lazyFinder struct {
	core  *app.Core
	build func(context.Context, *app.Core) (contactgen.EmailFinder, error)
	once  sync.Once
	f     contactgen.EmailFinder
	err   error
}

func (l *lazyFinder) FindEmail(ctx context.Context, first, last, domain string) (status, email string) {
	l.once.Do(func() { l.f, l.err = l.build(context.WithoutCancel(ctx), l.core) })
	if l.err != nil {
		l.core.Log.ErrorContext(ctx, "contact generation: build the email finder", "err", l.err)
		return "error", ""
	}
	return l.f.FindEmail(ctx, first, last, domain)
}

// services are what the family's routes serve: research, the model list (the
// organisations' LLM integrations), task status and cancel (the engine).
type services struct {
	research     *research.Service
	generate     *contactgen.Service
	integrations *integration.Service
	tasks        *task.Engine
}

func build(ctx context.Context, c *app.Core) (services, error) {
	r, err := Research(ctx, c)
	if err != nil {
		return services{}, err
	}
	g, err := ContactGen(ctx, c)
	if err != nil {
		return services{}, err
	}
	providers, err := integrationsapp.Build(ctx, c, integrationsapp.OpenOnly())
	return services{research: r, generate: g, integrations: providers.Integrations, tasks: c.Tasks}, err
}

func routes(s services) []httpapi.Route {
	return slices.Concat(generationhttp.GenerationRoutes(s.tasks), generationhttp.ProcessRoutes(s.research), generationhttp.GenerateRoutes(s.generate),
		generationhttp.ValidateRoutes(s.research), generationhttp.ModelRoutes(s.integrations))
}

// ContactGen is the core's contact generation service, built on first use: it
// registers the contact_generate kind on the task engine. Pages come from the company
// store, else through the guarded client; the email finder is the one the composer's
// FindEmailsWith option gave the core.
func ContactGen(ctx context.Context, c *app.Core) (*contactgen.Service, error) {
	return app.Shared(c, "generationapp.ContactGen", func() (*contactgen.Service, error) {
		providers, err := integrationsapp.Build(ctx, c, integrationsapp.OpenOnly())
		if err != nil {
			return nil, err
		}
		companies, err := companyapp.Build(c)
		if err != nil {
			return nil, err
		}
		slot := finderSlot(c)
		return contactgen.New(contactgen.Deps{Tasks: c.Tasks, Integrations: providers.Integrations, Searchers: providers.SearchProviders,
			Companies: contactgen.CompanyData{Svc: companies.Service}, Fetch: crawler(c, companies),
			Finder: slot.get, Patterns: bookPatterns{patternsapp.Book(c)}, Billing: c.Billing, Orgs: c.Accounts, Log: c.Log})
	})
}

// crawler is contact generation's page fetcher: the guarded client on ports 80 and 443
// (and allow-listed test hosts), resolving names with FIRMO_FETCH_DNS_RESOLVER when
// set, robots.txt honoured, one request at a time per host. In the local composition
// a demo-world domain is never fetched (worldPages): its pages are read only from the
// store, and its name is asked of no resolver.
func crawler(c *app.Core, companies *companyapp.Pipeline) contactgen.Fetcher {
	o := fetch.Options{AllowHosts: c.Config.FetchAllowHosts, WebPortsOnly: true}
	if c.Config.FetchDNS != "" {
		o.Resolver = fetch.DNSServer(c.Config.FetchDNS)
	}
	k := fetch.NewCrawler(fetch.New(o), fetch.CrawlOptions{})
	if companies.WorldZone == nil {
		return k
	}
	return worldPages{zone: companies.WorldZone, next: k}
}

// worldPages refuses to fetch a page of a demo-world domain (or of a host under one)
// before any name is resolved: the world's pages are read only from the store.
type worldPages struct {
	zone dnsmx.Zone
	next *fetch.Crawler
}

// errWorldPage says why a demo-world page that is not in the store is not fetched.
const errWorldPage = "a demo-world domain's pages are read only from the store"

func (w worldPages) Get(ctx context.Context, rawURL string) (*fetch.Response, error) {
	if u, err := url.Parse(rawURL); err == nil && w.inWorld(u.Hostname()) {
		return nil, &apperr.Error{Kind: apperr.ErrBadRequest, Code: fetch.CodeRefused, Message: fmt.Sprintf("not fetching %s: %s", u.Redacted(), errWorldPage)}
	}
	return w.next.Get(ctx, rawURL)
}

func (w worldPages) Origin(host string) string { return w.next.Origin(host) }

// inWorld reports whether host or a domain above it is one of the world's.
func (w worldPages) inWorld(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	for h := host; h != ""; {
		if _, ok := w.zone.Answer(h); ok {
			return true
		}
		_, rest, found := strings.Cut(h, ".")
		if !found {
			break
		}
		h = rest
	}
	return false
}

// bookPatterns serves the result's pattern fields from the core's pattern book, the
// one contact search's email_pattern and the email finder read.
type bookPatterns struct{ b *patternbook.Book }

func (p bookPatterns) EmailPattern(ctx context.Context, dom string) (contactgen.Pattern, bool, error) {
	l, ok := p.b.Pattern(ctx, dom)
	if !ok {
		return contactgen.Pattern{}, false, nil
	}
	ev := contactgen.PatternEvidence{Fit: l.Evidence.Fit, Contradict: l.Evidence.Contradict, Examples: []contactgen.PatternExample{}}
	for _, x := range l.Evidence.Examples {
		ev.Examples = append(ev.Examples, contactgen.PatternExample{Email: x.Email, Source: x.Source})
	}
	return contactgen.Pattern{Template: l.Address(), Confidence: l.Confidence, Guess: l.Guess, Evidence: ev}, true, nil
}

func (p bookPatterns) Record(ctx context.Context, dom, name, email, source string) error {
	return p.b.Record(ctx, emailpattern.Observation{Domain: dom, Name: name, Email: email, Source: source})
}

// finder holds the email finder contact generation's find_emails uses.
type finder struct {
	mu sync.Mutex
	f  contactgen.EmailFinder
}

func (s *finder) get() contactgen.EmailFinder {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.f
}

func finderSlot(c *app.Core) *finder {
	s, _ := app.Shared(c, "generationapp.finder", func() (*finder, error) { return &finder{}, nil })
	return s
}

// useFinder gives contact generation's find_emails the email finder.
func useFinder(c *app.Core, f contactgen.EmailFinder) {
	s := finderSlot(c)
	s.mu.Lock()
	s.f = f
	s.mu.Unlock()
}

// Research is the core's batch research service, built on first use: it registers the
// research kinds on the task engine. Company profiles and pages come from the company
// pipeline (pages without text are extracted on the way), persona records from the
// contact store.
func Research(ctx context.Context, c *app.Core) (*research.Service, error) {
	return app.Shared(c, "generationapp.Research", func() (*research.Service, error) {
		providers, err := integrationsapp.Build(ctx, c, integrationsapp.OpenOnly())
		if err != nil {
			return nil, err
		}
		companies, err := companyapp.Build(c)
		if err != nil {
			return nil, err
		}
		return research.New(research.Deps{Tasks: c.Tasks, Integrations: providers.Integrations, Searchers: providers.SearchProviders,
			Companies: research.CompanyData{Svc: companies.Service}, Contacts: contactData{contact.NewStore(c.Store)}, Billing: c.Billing, Orgs: c.Accounts,
			ICPModels: icpfit.NewLoader(c.Config.ICPModelPath), Log: c.Log})
	})
}

// contactData serves /gen/process-personas records from the contact store. Contacts
// are shared reference data, so the organisation does not scope them.
type contactData struct{ store *contact.Store }

func (c contactData) Contact(ctx context.Context, _ string, personaID int64) (research.Contact, error) {
	r, err := c.store.Get(ctx, personaID)
	if err != nil {
		return research.Contact{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Name: %s\nTitle: %s\nCompany domain: %s\n", r.Name, r.Title, r.Domain)
	if r.Country != "" {
		fmt.Fprintf(&b, "Location: %s %s\n", r.Country, r.State)
	}
	if len(r.Skills) > 0 {
		fmt.Fprintf(&b, "Skills: %s\n", strings.Join(r.Skills, ", "))
	}
	if r.JobstartDate != "" {
		fmt.Fprintf(&b, "In current role since: %s\n", r.JobstartDate)
	}
	if r.Summary != "" {
		fmt.Fprintf(&b, "Summary: %s\n", r.Summary)
	}
	return research.Contact{PersonaID: r.PersonaID, Name: r.Name, Title: r.Title, LinkedInURL: r.LinkedinURL,
		Summary: r.Summary, Profile: b.String(), Domain: r.Domain}, nil
}
