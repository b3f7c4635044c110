// Command contacts is the Lambda of the contacts family (contact search, count, lookup,
// legacy list) behind API Gateway. It composes that family alone.
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/contactsapp"
)

func main() {
	core, err := app.FromEnv(context.Background(), os.Getenv, contactsapp.Composer())
	if err != nil {
		log.Fatal(err)
	}
	lambda.Start(core.HTTPProxy())
}
