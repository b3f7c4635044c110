// Command crm is the Lambda of the CRM family (connections over OAuth 2.0, probes,
// suppression snapshots, removal) behind API Gateway. It composes that family alone;
// the snapshots themselves run on the worker.
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/crmapp"
)

func main() {
	core, err := app.FromEnv(context.Background(), os.Getenv, crmapp.Composer())
	if err != nil {
		log.Fatal(err)
	}
	lambda.Start(core.HTTPProxy())
}
