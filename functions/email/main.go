// Command email is the Lambda of the email family (find one address or a batch, poll
// jobs) behind API Gateway. The jobs themselves run on the task engine's workers.
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/emailapp"
)

func main() {
	core, err := app.FromEnv(context.Background(), os.Getenv, emailapp.Composer())
	if err != nil {
		log.Fatal(err)
	}
	lambda.Start(core.HTTPProxy())
}
