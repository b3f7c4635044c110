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

// Composer builds the queries family.
type Composer struct{}

// Family names the family.
func (Composer) Family() httpapi.Family { return httpapi.FamilyQueries }

// Compose adds the family's routes.
func (Composer) Compose(_ context.Context, c *app.Core) error {
	c.Server.Add(queryhttp.QueryRoutes(Service(c))...)
	return nil
}

type serviceKey struct{}

// Service is the core's saved-query service (contact search resolves inclusion and
// exclusion lists and saves searches through it).
func Service(c *app.Core) *query.Service {
	s, _ := app.Shared(c, serviceKey{}, func() (*query.Service, error) { return query.New(c.Store), nil })
	return s
}
