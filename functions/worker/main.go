// Command worker is the Lambda the task queue's SQS event source invokes: it answers
// each record of the batch with the task engine and reports the ones to deliver again
// (ReportBatchItemFailures). It composes the families whose task kinds it runs: email
// (email_find), generation (gen_process, gen_process_personas, validate_icp,
// native_icp, and contact_generate, whose find_emails runs the email family's
// finder), company (bulkmatch), crm (crm_suppress) and datasets (segment).
package main

import (
	"context"
	"log"
	"os"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/companyapp"
	"github.com/firmoapi/firmo/shared/app/crmapp"
	"github.com/firmoapi/firmo/shared/app/datasetsapp"
	"github.com/firmoapi/firmo/shared/app/emailapp"
	"github.com/firmoapi/firmo/shared/app/generationapp"
)

func main() {
	core, err := app.FromEnv(context.Background(), os.Getenv, emailapp.Composer(),
		generationapp.Composer(generationapp.FindEmailsWith(emailapp.ContactFinderOn)), // contact generation's find_emails
		&companyapp.Composer{}, crmapp.Composer(), datasetsapp.Composer())
	if err != nil {
		log.Fatal(err)
	}
	lambda.Start(core.HandleSQS)
}
