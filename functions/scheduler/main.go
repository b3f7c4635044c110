// Command scheduler is the Lambda an EventBridge schedule invokes to run the scheduled
// reprocessing of company data (rescoring, refreshing stale derived fields), in pages
// that resume where the previous invocation stopped, and then the company-name index
// sync when an OpenSearch cluster is configured.
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"

	"github.com/firmoapi/firmo/shared/app"
)

func main() {
	a, err := app.FromEnv(context.Background(), os.Getenv)
	if err != nil {
		log.Fatal(err)
	}
	lambda.Start(func(ctx context.Context, _ events.EventBridgeEvent) (app.ScheduleReport, error) {
		return a.HandleSchedule(ctx)
	})
}
