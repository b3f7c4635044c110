// Command generation is the Lambda of the generation family (batch research, models,
// task status and cancel) behind API Gateway. It composes that family alone.
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/generationapp"
)

func main() {
	core, err := app.FromEnv(context.Background(), os.Getenv, generationapp.Composer())
	if err != nil {
		log.Fatal(err)
	}
	lambda.Start(core.HTTPProxy())
}
