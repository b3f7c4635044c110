// Command email is the Lambda of the email family (find one address or a batch, poll
// jobs) behind API Gateway. The jobs themselves run on the task engine's workers.
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
	lambda.Start(httpadapter.NewV2(a.Handler("email")).ProxyWithContext)
}
