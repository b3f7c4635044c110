// Command account is the Lambda of the account family (account, keys, sign-in, health,
// API reference) behind API Gateway.
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/config"
)

func main() {
	cfg, err := config.Load(os.Getenv)
	if err != nil {
		log.Fatal(err)
	}
	a, err := app.New(context.Background(), cfg, app.NewLogger(cfg, os.Stderr))
	if err != nil {
		log.Fatal(err)
	}
	lambda.Start(proxy(a))
}

// proxy serves HTTP API (payload 2.0) events with the account family's routes.
func proxy(a *app.App) func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	return httpadapter.NewV2(a.Handler("account")).ProxyWithContext
}
