// Command account is the Lambda of the account family (account, keys, sign-in, usage,
// health, API reference) behind API Gateway. It composes that family alone.
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/accountapp"
)

func main() {
	core, err := app.FromEnv(context.Background(), os.Getenv, accountapp.Composer())
	if err != nil {
		log.Fatal(err)
	}
	lambda.Start(core.HTTPProxy())
}
