// Package companyapp composes the company family: company profiles, certificate
// history and score, page extraction, the industry list, company-name matching and
// bulk matching (a task kind), and the scheduled reprocessing that functions/scheduler
// runs (HandleSchedule).
package companyapp

import (
	"context"
	"io"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/fetch"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/httpapi/companyhttp"
	"github.com/firmoapi/firmo/shared/namematch"
	"github.com/firmoapi/firmo/shared/osclient"
)

// OpenNameIndex opens an embedded company-name index in dir.
type OpenNameIndex func(dir string) (namematch.Index, io.Closer, error)

// Composer builds the company family. After Compose its methods seed, reprocess and
// sync the name index (firmo serve, functions/scheduler).
type Composer struct {
	// NameIndex opens the embedded name index used when no OpenSearch cluster is
	// configured; the local composition passes the bleve index, a Lambda nothing (its
	// matching then answers 503 naming the setting), so Lambdas do not link bleve.
	NameIndex OpenNameIndex

	core     *app.Core
	pipeline *Pipeline
	names    nameParts
}

// Family names the family.
func (*Composer) Family() httpapi.Family { return httpapi.FamilyCompany }

// Compose builds the company pipeline and matching and adds the family's routes and
// the bulk-match task kind.
func (f *Composer) Compose(ctx context.Context, c *app.Core) error {
	p, err := Build(c)
	if err != nil {
		return err
	}
	cluster, err := osclient.Open(ctx, c.Config.OpenSearch, c.AWS)
	if err != nil {
		return err
	}
	names, err := buildNames(c, cluster, p.Service.Store(), f.NameIndex)
	if err != nil {
		return err
	}
	f.core, f.pipeline, f.names = c, p, names
	c.Server.Add(companyhttp.CompanyRoutes(p.Service)...)
	// Page extraction (STARTER plan and up) fetches through the guarded client and
	// prefers the homepage the company store holds; the industry list is static.
	// Names resolve through FIRMO_FETCH_DNS_RESOLVER when it is set.
	fo := fetch.Options{AllowHosts: c.Config.FetchAllowHosts}
	if c.Config.FetchDNS != "" {
		fo.Resolver = fetch.DNSServer(c.Config.FetchDNS)
	}
	c.Server.Add(companyhttp.ExtractRoutes(fetch.New(fo), p.Extractor, p.Service)...)
	c.Server.Add(companyhttp.IndustryRoutes()...)
	c.Server.Add(companyhttp.MatchRoutes(names.matcher, names.bulk, c.Billing)...)
	return nil
}

// Pipeline returns the company pipeline (after Compose).
func (f *Composer) Pipeline() *Pipeline { return f.pipeline }

var _ app.Composer = (*Composer)(nil)
