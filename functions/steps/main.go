// Command steps is the Lambda every Task state of statemachines/task.asl.json invokes:
// prepare, enqueue, check, finalize and fail, per the contract in
// statemachines/README.md.
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/config"
)

func main() {
	cfg, err := config.Load(os.Getenv)
	if err != nil {
		log.Fatal(err)
	}
	a, err := app.NewAWS(context.Background(), cfg, app.NewLogger(cfg, os.Stderr))
	if err != nil {
		log.Fatal(err)
	}
	lambda.Start(a.HandleStep)
}
