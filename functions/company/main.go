// Command company is the Lambda of the company family (profile, certificate history,
// score, extraction, industries, name matching) behind API Gateway. It composes that
// family alone.
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/companyapp"
)

func main() {
	core, err := app.FromEnv(context.Background(), os.Getenv, &companyapp.Composer{})
	if err != nil {
		log.Fatal(err)
	}
	lambda.Start(core.HTTPProxy())
}
