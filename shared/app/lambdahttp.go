package app

import (
	"context"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"
)

// HTTPProxy is the API Gateway HTTP API (payload 2.0) handler of the composed
// families: their http.Handler behind aws-lambda-go-api-proxy.
func (c *Core) HTTPProxy() func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	return httpadapter.NewV2(c.Handler()).ProxyWithContext
}
