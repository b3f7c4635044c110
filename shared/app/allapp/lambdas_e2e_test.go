package allapp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sfn"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/kv/dynamokv"
	"github.com/firmoapi/firmo/shared/testkit"
	"github.com/firmoapi/firmo/statemachines"
)

// lambdaStack is the AWS composition on the stand-ins with every function it needs run
// as its real bootstrap: dynalite, local-aws-sqs (task queue and DLQ), the Step
// Functions shim running statemachines/task.asl.json, local-kms, the runtime-API
// emulator, each function with the environment template.yaml gives it.
type lambdaStack struct {
	lam *testkit.Lambda
	key string // the demo organisation's API key
}

// e2eFunctions are the functions the acceptance run starts: emulator name -> template
// logical id.
var e2eFunctions = map[string]string{
	"account":      "AccountFunction",
	"generation":   "GenerationFunction",
	"integrations": "IntegrationsFunction",
	"queries":      "QueriesFunction",
	"crm":          "CrmFunction",
	"email":        "EmailFunction",
	"contacts":     "ContactsFunction",
	"company":      "CompanyFunction",
	"datasets":     "DatasetsFunction",
	"scheduler":    "SchedulerFunction",
	"worker":       "WorkerFunction",
	"steps":        "StepsFunction",
}

func startLambdaStack(t *testing.T, extra map[string]string) *lambdaStack {
	t.Helper()
	ctx := context.Background()
	tpl := loadTemplate(t)
	ddbURL, sqsURL := testkit.Dynalite(t), testkit.SQS(t)
	kms := testkit.LocalKMS(t)
	lam := testkit.NewLambda(t)
	sfnURL := testkit.StepFunctions(t, testkit.StepFunctionsOptions{Lambda: lam.Endpoint(), Retry: 100 * time.Millisecond})
	ddb := testkit.DynamoClient(t, ddbURL)
	if err := dynamokv.EnsureTable(ctx, ddb, "firmo"); err != nil {
		t.Fatal(err)
	}
	sq := testkit.SQSClient(t, sqsURL)
	q := testkit.CreateQueueWithDLQ(t, sq, "firmo-tasks", 30*time.Second, 5)
	def, err := statemachines.Definition("task", map[string]string{"StepsFunctionArn": testkit.FunctionARN("steps")})
	if err != nil {
		t.Fatal(err)
	}
	sm, err := testkit.SFNClient(t, sfnURL).CreateStateMachine(ctx, &sfn.CreateStateMachineInput{
		Name: aws.String("firmo-task"), Definition: aws.String(def), RoleArn: aws.String("arn:aws:iam::123456789012:role/firmo-task"),
	})
	if err != nil {
		t.Fatal(err)
	}
	refs := stackRefs{"AWS::Region": testkit.StandinRegion, "AWS::AccountId": testkit.StandinAccount, "AWS::Partition": "aws", "AWS::StackName": "firmo-e2e"}
	for id, res := range pairs(tpl.resources) {
		switch scalar(mapGet(res, "Type")) {
		case "AWS::DynamoDB::Table":
			refs[id], refs[id+".Arn"] = "firmo", "arn:aws:dynamodb:"+testkit.StandinRegion+":"+testkit.StandinAccount+":table/firmo"
		case "AWS::Serverless::StateMachine", "AWS::StepFunctions::StateMachine":
			refs[id], refs[id+".Arn"], refs[id+".Name"] = aws.ToString(sm.StateMachineArn), aws.ToString(sm.StateMachineArn), "firmo-task"
		case "AWS::KMS::Key":
			refs[id], refs[id+".Arn"], refs[id+".KeyId"] = kms.KeyARN, kms.KeyARN, kms.KeyARN
		case "AWS::OpenSearchService::Domain":
			// No OpenSearch runs here: the stack's domain is an address where nothing
			// listens, so name matching and contact search fail as a domain that is down
			// does (rows answer with an error cell, searches 503).
			refs[id+".DomainEndpoint"], refs[id+".Arn"] = "127.0.0.1:9", "arn:aws:es:"+testkit.StandinRegion+":"+testkit.StandinAccount+":domain/firmo"
		case "AWS::SQS::Queue":
			if strings.Contains(strings.ToLower(id), "dead") || strings.Contains(strings.ToLower(id), "dlq") {
				refs[id], refs[id+".Arn"], refs[id+".QueueName"] = q.DLQURL, q.DLQARN, "firmo-tasks-dlq"
			} else {
				refs[id], refs[id+".Arn"], refs[id+".QueueName"] = q.URL, q.ARN, "firmo-tasks"
			}
		}
	}
	standins := map[string]string{
		"FIRMO_DYNAMODB_ENDPOINT": ddbURL, "FIRMO_SQS_ENDPOINT": sqsURL, "FIRMO_SFN_ENDPOINT": sfnURL, "FIRMO_KMS_ENDPOINT": kms.Endpoint,
		"FIRMO_TASK_POLL": "1s",
	}
	for name, id := range e2eFunctions {
		env := functionEnv(t, tpl, id, refs)
		for k, v := range standins {
			env[k] = v
		}
		for k, v := range extra {
			env[k] = v
		}
		instances := 1
		if name == "worker" {
			instances = 3
		}
		lam.Add(testkit.LambdaFunction{Name: name, Binary: testkit.BuildLambda(t, "./functions/"+name), Env: env, Instances: instances, Timeout: 2 * time.Minute})
	}
	lam.StartSQS(testkit.SQSEventSource{Client: sq, QueueURL: q.URL, Function: "worker", BatchSize: 10, Pollers: 2, ReportBatchItemFailures: true})
	accounts := account.New(dynamokv.New(ddb, "firmo"))
	demo, err := accounts.EnsureDemo(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	return &lambdaStack{lam: lam, key: demo.Key}
}

// TestEndToEndOnAWS is the AWS path's acceptance run through the real bootstraps: an
// LLM integration created (its key sealed through the KMS API of local-kms), batch
// research submitted and completed by the steps and worker functions; an email found
// over SMTP as a job; a bulk match completed.
func TestEndToEndOnAWS(t *testing.T) {
	if testing.Short() {
		t.Skip("starts every AWS stand-in and the twelve Lambda binaries")
	}
	llmSrv := newOpenAICompatible(t)
	pf := testkit.StartPostfix(t, testkit.PostfixConfig{Mailboxes: []string{"jane.doe@strict.example.com"}})
	dns := testkit.StartDNS(t, testkit.DNSZone{
		MX: map[string][]testkit.DNSMX{"strict.example.com": {{Pref: 10, Host: "mx.example.net"}}},
		A:  map[string][]string{"mx.example.net": {"127.0.0.1"}},
	})
	s := startLambdaStack(t, map[string]string{
		// The LLM stand-in, and the loopback Postfix for the email Lambda's SMTP verifier.
		"FIRMO_FETCH_ALLOW_HOSTS": strings.TrimPrefix(llmSrv.URL, "http://") + ",127.0.0.1:" + fmt.Sprint(pf.Port),
		"FIRMO_DNS_RESOLVER":      dns.Addr, "FIRMO_SMTP_PORT": fmt.Sprint(pf.Port),
	})

	t.Run("every sample event drives its function", func(t *testing.T) { sampleEvents(t, s) })

	t.Run("batch research with a KMS-sealed key", func(t *testing.T) {
		code, created := callFunction(t, s.lam, "integrations", jsonRequest("POST", "/v1/llm-providers/config", s.key,
			fmt.Sprintf(`{"integration_name":"e2e","provider":"custom","model_name":"test-model","api_key":"sk-e2e-secret-0123456789","base_url":%q}`, llmSrv.URL+"/v1")))
		if code != 201 && code != 200 {
			t.Fatalf("create integration = %d %v", code, created)
		}
		if in, _ := created["integration"].(map[string]any); in == nil || fmt.Sprint(in["api_key"]) != "*****" {
			t.Fatalf("created integration = %v, want its api_key shown as *****", created)
		}
		code, sub := callFunction(t, s.lam, "generation", jsonRequest("POST", "/v1/gen/process", s.key,
			`{"domains":["alpha.example.com","beta.example.com","gamma.example.com"],"query":"What do they sell?"}`))
		if code != 200 && code != 202 {
			t.Fatalf("gen/process = %d %v", code, sub)
		}
		id := fmt.Sprint(sub["task_id"])
		done := pollFunction(t, s.lam, "generation", jsonRequest("GET", "/v1/gen/status/"+id, s.key, ""), 2*time.Minute,
			func(b map[string]any) bool { return b["status"] != "in_progress" })
		if done["status"] != "completed" || !strings.Contains(fmt.Sprint(done), "They sell things.") {
			t.Fatalf("research task = %v, want completed with the model's answers", done)
		}
	})

	t.Run("email find as a job", func(t *testing.T) {
		code, sub := callFunction(t, s.lam, "email", jsonRequest("POST", "/v1/email/find", s.key,
			`{"first_name":"Jane","last_name":"Doe","domain":"strict.example.com"}`))
		if code != 200 && code != 202 {
			t.Fatalf("email/find = %d %v", code, sub)
		}
		job := pollFunction(t, s.lam, "email", jsonRequest("GET", "/v1/email/jobs/"+fmt.Sprint(sub["job_id"]), s.key, ""), 2*time.Minute,
			func(b map[string]any) bool { return b["status"] == "completed" || b["status"] == "failed" })
		if job["status"] != "completed" || !strings.Contains(fmt.Sprint(job), "jane.doe@strict.example.com") {
			t.Fatalf("email job = %v, want completed with jane.doe@strict.example.com", job)
		}
	})

	t.Run("bulk match", func(t *testing.T) {
		code, sub := callFunction(t, s.lam, "company", multipartRequest(t, "/v1/bulkmatch", s.key, "Company\nAcme Robotics\nBlue Harbor Logistics\n", map[string]string{"name_column": "Company"}))
		if code != 200 && code != 202 {
			t.Fatalf("bulkmatch = %d %v", code, sub)
		}
		done := pollFunction(t, s.lam, "company", jsonRequest("GET", "/v1/bulkmatch/status/"+fmt.Sprint(sub["task_id"]), s.key, ""), 2*time.Minute,
			func(b map[string]any) bool { return b["status"] != "in_progress" })
		if done["status"] != "completed" {
			t.Fatalf("bulk match task = %v, want completed", done)
		}
	})
}

// sampleStatus is what each API Gateway sample event of events/ answers on the stack
// (the demo key of the files replaced by the stack's). The contacts count asks a
// search index that is down here (503) or answers (200).
var sampleStatus = map[string][]int{
	"account-get.json": {200}, "account-get-bearer.json": {200}, "account-get-nokey.json": {401},
	"account-keys-post.json": {201}, "account-keys-list.json": {200}, "account-healthz.json": {200},
	"account-openapi.json": {200}, "account-unknown-route.json": {404}, "account-wrong-method.json": {405},
	"generation-models.json": {200}, "generation-status-unknown.json": {404},
	"integrations-llm-providers.json": {200}, "queries-saved.json": {200}, "crm-connections.json": {200},
	"email-job-unknown.json": {404}, "contacts-count.json": {200, 503}, "company-score.json": {200, 404},
	"datasets-segment-status-unknown.json": {404},
}

// sampleEvents feeds every file of events/ to the function its name starts with
// (events/<function>-*.json), through the function's real binary under the Lambda
// emulator: an HTTP event must get its expected status in a well-formed answer, an SQS
// batch a batch response, a step or a schedule an answer or a named error (never a
// crash). Every function has at least one sample.
func sampleEvents(t *testing.T, s *lambdaStack) {
	dir := filepath.Join(repoRoot(t), "events")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		fn, _, _ := strings.Cut(e.Name(), "-")
		if _, ok := e2eFunctions[fn]; !ok {
			t.Errorf("events/%s: its name names no function (events/<function>-<what>.json)", e.Name())
			continue
		}
		covered[fn] = true
		raw, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		payload := []byte(strings.ReplaceAll(string(raw), "evt-demo-key-0123456789abcdef", s.key))
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		out, err := s.lam.Invoke(ctx, fn, payload)
		cancel()
		var fe *testkit.FunctionError
		if errors.As(err, &fe) && !strings.HasPrefix(fe.Type, "Runtime.") && fn != "account" && !strings.Contains(string(raw), `"routeKey"`) {
			continue // a step or a schedule refusing its input by a named error (PermanentError, ...)
		}
		if err != nil {
			t.Errorf("events/%s on %s: %v", e.Name(), fn, err)
			continue
		}
		switch {
		case strings.Contains(string(raw), `"routeKey"`):
			var resp events.APIGatewayV2HTTPResponse
			if err := json.Unmarshal(out, &resp); err != nil || resp.StatusCode == 0 {
				t.Errorf("events/%s on %s: not an HTTP API response: %.200s", e.Name(), fn, out)
				continue
			}
			if want := sampleStatus[e.Name()]; !slices.Contains(want, resp.StatusCode) {
				t.Errorf("events/%s on %s: status %d, want one of %v (add the file to sampleStatus): %.300s", e.Name(), fn, resp.StatusCode, want, resp.Body)
			}
		case fn == "worker":
			var resp events.SQSEventResponse
			if err := json.Unmarshal(out, &resp); err != nil || !strings.Contains(string(out), "batchItemFailures") {
				t.Errorf("events/%s on worker: not an SQS batch response: %.200s", e.Name(), out)
			}
		}
	}
	for fn := range e2eFunctions {
		if !covered[fn] {
			t.Errorf("no sample event for %s in events/ (events/%s-<what>.json)", fn, fn)
		}
	}
}
