// Command company is the Lambda of the company family (profile, certificate history,
// score) behind API Gateway.
package main

import (
	"context"
	"log"
	"os"

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
	lambda.Start(httpadapter.NewV2(a.Handler("company")).ProxyWithContext)
}
