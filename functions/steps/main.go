// Command steps is the Lambda every Task state of statemachines/task.asl.json invokes:
// prepare, enqueue, check, finalize and fail, per the contract in
// statemachines/README.md. The steps read and write task state only, so it composes
// no endpoint family (a message's provider lane matters to the embedded queue alone).
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/firmoapi/firmo/shared/app"
)

func main() {
	core, err := app.FromEnv(context.Background(), os.Getenv)
	if err != nil {
		log.Fatal(err)
	}
	lambda.Start(core.HandleStep)
}
