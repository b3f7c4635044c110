// Package datasetsapp composes the datasets family: segmentation (POST /v1/segment, a
// task kind, and its status) and append (POST /v1/append), both over uploads read by
// shared/upload.
package datasetsapp

import (
	"context"
	"fmt"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/embedding"
	"github.com/firmoapi/firmo/shared/app/queriesapp"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/dataset"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/httpapi/datasetshttp"
	"github.com/firmoapi/firmo/shared/segment"
	"github.com/firmoapi/firmo/shared/upload"
)

// Services are the family's services.
type Services struct {
	// Segments is segmentation; its task kind is registered on the core's engine.
	Segments *segment.Service
	// Append computes the append datasets (POST /v1/append).
	Append datasetshttp.AppendDeps
	// Uploads bounds the uploads parsed at once.
	Uploads *upload.Gate
}

// Build returns the core's datasets services, building them on first use:
// segmentation over the company store, with the embedder contact search uses
// (shared/app/embedding) and the saved queries, its kind registered on the engine
// (functions/worker composes this family to run it).
func Build(ctx context.Context, c *app.Core) (Services, error) {
	return app.Shared(c, "datasetsapp.Build", func() (Services, error) { return build(ctx, c) })
}

// Composer composes the datasets family.
func Composer() app.Composer { return app.NewComposer(httpapi.FamilyDatasets, Build, routes) }

func build(ctx context.Context, c *app.Core) (Services, error) {
	emb, err := embedding.Build(ctx, c)
	if err != nil {
		return Services{}, err
	}
	queries, err := queriesapp.Service(ctx, c)
	if err != nil {
		return Services{}, err
	}
	seg := segment.New(segment.Deps{Tasks: c.Tasks, Store: c.Store, Companies: company.NewKVStore(c.Store),
		Queries: queries, Embedder: emb.Text, Billing: c.Billing})
	if err := c.Tasks.Kinds().Register(seg.Kind()); err != nil {
		return Services{}, fmt.Errorf("register segmentation: %w", err)
	}
	// Append reads the company store; growth scores with the pipeline's default
	// constants (a Deriver without extractor or classifier loads nothing).
	uploads, err := UploadGate(c)
	if err != nil {
		return Services{}, err
	}
	appendDeps := datasetshttp.AppendDeps{Queries: queries, Billing: c.Billing, Uploads: uploads,
		Datasets: dataset.New(dataset.Deps{Store: company.NewKVStore(c.Store), Scorer: company.NewDeriver(company.DeriverDeps{})})}
	return Services{Segments: seg, Append: appendDeps, Uploads: uploads}, nil
}

// UploadGate is the core's one upload gate (shared/upload): every family that parses
// uploads (datasets, company's bulk match) takes its slots from it, so the process
// parses at most upload.PerCore uploads per core at once.
func UploadGate(c *app.Core) (*upload.Gate, error) {
	return app.Shared(c, "upload.Gate", func() (*upload.Gate, error) { return upload.NewGate(0), nil })
}

func routes(s Services) []httpapi.Route {
	routes := datasetshttp.SegmentRoutes(s.Segments, s.Uploads)
	routes = append(routes, datasetshttp.AppendRoutes(s.Append)...)
	return routes
}
