// Package queriesapp composes the saved-query family (saved queries and exclusion
// lists) and hands the query service to the families that scope by it.
package queriesapp

import (
	"context"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/httpapi/queryhttp"
	"github.com/firmoapi/firmo/shared/query"
)

// Service is the core's saved-query service (contact search resolves inclusion and
// exclusion lists and saves searches through it).
func Service(_ context.Context, c *app.Core) (*query.Service, error) {
	return app.Shared(c, "queriesapp.Service", func() (*query.Service, error) { return query.New(c.Store), nil })
}

// Composer composes the queries family.
func Composer() app.Composer { return app.NewComposer(httpapi.FamilyQueries, Service, routes) }

func routes(s *query.Service) []httpapi.Route { return queryhttp.QueryRoutes(s) }
