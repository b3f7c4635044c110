// Command queries is the Lambda of the saved-query family (list, exclusion lists,
// rename and tag, delete) behind API Gateway. It composes that family alone.
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/queriesapp"
)

func main() {
	core, err := app.FromEnv(context.Background(), os.Getenv, queriesapp.Composer())
	if err != nil {
		log.Fatal(err)
	}
	lambda.Start(core.HTTPProxy())
}
