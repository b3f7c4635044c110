// Command queries is the Lambda of the saved-query family (list, exclusion lists,
// rename and tag, delete) behind API Gateway.
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
	lambda.Start(a.HTTPProxy("queries"))
}
