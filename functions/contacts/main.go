// Command contacts is the Lambda of the contacts family (contact search, count, lookup,
// legacy list) behind API Gateway.
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/firmoapi/firmo/shared/app"
)

func main() {
	a, err := app.FromEnv(context.Background(), os.Getenv)
	if err != nil {
		log.Fatal(err)
	}
	lambda.Start(a.HTTPProxy("contacts"))
}
