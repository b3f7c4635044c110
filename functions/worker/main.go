// Command worker is the Lambda the task queue's SQS event source invokes: it answers
// each record of the batch with the task engine and reports the ones to deliver again
// (ReportBatchItemFailures).
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
	lambda.Start(a.HandleSQS)
}
