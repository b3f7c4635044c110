// Command company is the Lambda of the company family (profile, certificate history,
// score) behind API Gateway.
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
	lambda.Start(a.HTTPProxy("company"))
}
