// Command datasets is the Lambda of the datasets family (segmentation submit and
// status, append) behind API Gateway. It composes that family alone; the segmentation
// task itself runs in functions/worker.
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/datasetsapp"
)

func main() {
	core, err := app.FromEnv(context.Background(), os.Getenv, datasetsapp.Composer())
	if err != nil {
		log.Fatal(err)
	}
	lambda.Start(core.HTTPProxy())
}
