package app

import (
	"context"
	"os"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/firmoapi/firmo/shared/config"
)

// FromEnv loads the configuration once from the environment and builds the composition
// it selects, logging to stderr: the first two steps of every Lambda main.
func FromEnv(ctx context.Context, getenv config.Getenv) (*App, error) {
	cfg, err := config.Load(getenv)
	if err != nil {
		return nil, err
	}
	return New(ctx, cfg, NewLogger(cfg, os.Stderr))
}

// HTTPProxy is the API Gateway HTTP API (payload 2.0) handler of one endpoint family:
// the family's http.Handler behind aws-lambda-go-api-proxy.
func (a *App) HTTPProxy(family string) func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	return httpadapter.NewV2(a.Handler(family)).ProxyWithContext
}
