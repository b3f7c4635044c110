// Command scheduler is the Lambda an EventBridge schedule invokes to run the scheduled
// reprocessing of company data (rescoring, refreshing stale derived fields), in pages
// that resume where the previous invocation stopped, and then the company-name index
// sync when an OpenSearch cluster is configured. It composes the company family.
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/firmoapi/firmo/shared/app/companyapp"
)

func main() {
	handle, err := companyapp.Scheduler(context.Background(), os.Getenv)
	if err != nil {
		log.Fatal(err)
	}
	lambda.Start(handle)
}
