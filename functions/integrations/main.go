// Command integrations is the Lambda of the integrations family (LLM integrations and
// web search providers) behind API Gateway. It composes that family alone.
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/integrationsapp"
	"github.com/firmoapi/firmo/shared/secret/kmssecret"
)

func main() {
	core, err := app.FromEnv(context.Background(), os.Getenv, integrationsapp.Composer(integrationsapp.Sealing{Name: "sealer", New: kmssecret.NewSealer}))
	if err != nil {
		log.Fatal(err)
	}
	lambda.Start(core.HTTPProxy())
}
