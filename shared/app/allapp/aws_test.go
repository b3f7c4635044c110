package allapp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	sfntypes "github.com/aws/aws-sdk-go-v2/service/sfn/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/account/accounttest"
	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/kv/dynamokv"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/sfnflow"
	"github.com/firmoapi/firmo/shared/task/tasktest"
	"github.com/firmoapi/firmo/shared/testkit"
	"github.com/firmoapi/firmo/statemachines"
)

// awsStack is the AWS composition on the local stand-ins: dynalite, local-aws-sqs (a
// work queue with a DLQ), the Step Functions shim running the real task.asl.json, and
// the Lambda emulator running the real functions/worker and functions/steps binaries.
type awsStack struct {
	app     *allapp.App
	lambda  *testkit.Lambda
	poller  *testkit.SQSPoller
	queue   testkit.Queue
	sqs     *sqs.Client
	sfn     *sfn.Client
	machine string
	runLog  string
}

// visibility is the work queue's visibility timeout: how long a batch lost with a
// killed worker waits before SQS delivers it again (1,800 s in template.yaml).
const visibility = 3 * time.Second

func startAWSStack(t *testing.T) *awsStack {
	t.Helper()
	ctx := context.Background()
	ddbURL, sqsURL := testkit.Dynalite(t), testkit.SQS(t)
	lam := testkit.NewLambda(t)
	// Retry intervals shortened; the Wait state keeps poll_seconds (FIRMO_TASK_POLL=1s).
	sfnURL := testkit.StepFunctions(t, testkit.StepFunctionsOptions{Lambda: lam.Endpoint(), Retry: 100 * time.Millisecond})
	if err := dynamokv.EnsureTable(ctx, testkit.DynamoClient(t, ddbURL), "firmo"); err != nil {
		t.Fatal(err)
	}
	sq := testkit.SQSClient(t, sqsURL)
	q := testkit.CreateQueueWithDLQ(t, sq, "firmo-tasks", visibility, 5)
	sc := testkit.SFNClient(t, sfnURL)
	def, err := statemachines.Definition("task", map[string]string{"StepsFunctionArn": testkit.FunctionARN("steps")})
	if err != nil {
		t.Fatal(err)
	}
	sm, err := sc.CreateStateMachine(ctx, &sfn.CreateStateMachineInput{
		Name: aws.String("firmo-task"), Definition: aws.String(def), RoleArn: aws.String("arn:aws:iam::123456789012:role/firmo-task"),
	})
	if err != nil {
		t.Fatal(err)
	}
	s := &awsStack{lambda: lam, queue: q, sqs: sq, sfn: sc, machine: aws.ToString(sm.StateMachineArn), runLog: filepath.Join(t.TempDir(), "runs.log")}
	env := map[string]string{
		"FIRMO_BACKEND":           "aws",
		"FIRMO_TABLE":             "firmo",
		"FIRMO_DYNAMODB_ENDPOINT": ddbURL,
		"FIRMO_SQS_ENDPOINT":      sqsURL,
		"FIRMO_SFN_ENDPOINT":      sfnURL,
		"FIRMO_QUEUE_URL":         q.URL,
		"FIRMO_STATE_MACHINE_ARN": s.machine,
		"FIRMO_TASK_POLL":         "1s",
		"FIRMO_TEST_TASK_KINDS":   "true",
		"FIRMO_TEST_RUN_LOG":      s.runLog,
		"FIRMO_LOG_FORMAT":        "json",
	}
	lam.Add(testkit.LambdaFunction{Name: "steps", Binary: testkit.BuildLambda(t, "./functions/steps"), Env: env, Instances: 2, Timeout: 60 * time.Second})
	lam.Add(testkit.LambdaFunction{Name: "worker", Binary: testkit.BuildLambda(t, "./functions/worker"), Env: env, Instances: 4, Timeout: 60 * time.Second})
	s.poller = lam.StartSQS(testkit.SQSEventSource{Client: sq, QueueURL: q.URL, Function: "worker", BatchSize: 10, Pollers: 4, ReportBatchItemFailures: true})

	// The submitting side (an HTTP family's Lambda) in this process, on the same config.
	for k, v := range map[string]string{"AWS_ACCESS_KEY_ID": "firmo-test", "AWS_SECRET_ACCESS_KEY": "firmo-test", "AWS_SESSION_TOKEN": "", "AWS_EC2_METADATA_DISABLED": "true", "AWS_PROFILE": "", "AWS_CONFIG_FILE": os.DevNull, "AWS_SHARED_CREDENTIALS_FILE": os.DevNull} {
		t.Setenv(k, v)
	}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	a, err := allapp.NewAWS(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	s.app = a
	return s
}

// runs counts the processor runs per record key across every worker process.
func (s *awsStack) runs(t *testing.T) map[string]int {
	t.Helper()
	raw, err := os.ReadFile(s.runLog)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, k := range strings.Fields(string(raw)) {
		out[k]++
	}
	return out
}

// TestTasksOnAWS is the acceptance run of the task engine on the AWS composition:
// 1,000 records of the test kind submitted through the engine app.NewAWS builds, the
// real ASL driving the real steps binary, the real worker binary fed by SQS with batch
// item failures; status polled over the generation family's handler until completion,
// every row there once although a worker was killed mid-batch (SQS delivered its batch
// again); then a second task cancelled midway.
func TestTasksOnAWS(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the AWS stand-ins and the Lambda binaries")
	}
	began := time.Now()
	s := startAWSStack(t)
	t.Logf("stand-ins and Lambda binaries ready in %s", time.Since(began))
	ctx := context.Background()
	demo, err := s.app.Accounts.EnsureDemo(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.app.Handler("generation"))
	t.Cleanup(srv.Close)
	c := genClient{t: t, url: srv.URL, key: demo.Key}

	// Task 1: 1,000 records, a worker killed in the middle of its batch, submitted
	// under a route as an HTTP request is: the worker processes run each record under it.
	const route = "POST /v1/test/echo"
	start := time.Now()
	sub, err := s.app.Tasks.Submit(billing.WithRoute(ctx, route), task.Submission{OrgID: demo.Org.ID, Kind: app.TestTaskKind, Records: tasktest.Keys("a", 1000), Field: "domains", Params: json.RawMessage(`{"delay_ms":100}`)})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("submit answered in %s", time.Since(start))
	c.waitInterim(sub.TaskID, 100)
	// On a loaded machine a record seen mid-run may finish before the kill lands; kill
	// again (up to three rounds) until some record has run twice. The check below still
	// fails when no round cut a record short.
	killed := 0
	for round := 0; round < 3; round++ {
		killed += s.killMidRecord(t, c, sub.TaskID)
		if s.waitRerun(t, c, sub.TaskID, 4*visibility) {
			break
		}
		t.Logf("kill round %d cut no record short", round+1)
	}
	done := c.poll(sub.TaskID, 90*time.Second)
	t.Logf("1,000 records completed in %s; %d workers killed; event source %+v", time.Since(start), killed, s.poller.Stats())
	results, _ := done["results"].(map[string]any)
	if done["status"] != "completed" || done["progress"] != 100.0 || done["total_domains"] != 1000.0 || len(results) != 1000 {
		t.Fatalf("status %v, progress %v, total %v, %d results", done["status"], done["progress"], done["total_domains"], len(results))
	}
	runs := s.runs(t)
	reran := 0
	for i := range 1000 {
		k := fmt.Sprintf("a%d", i)
		row, _ := results[k].(map[string]any)
		if row["echo"] != k || row["index"] != float64(i) {
			t.Fatalf("row %s = %v", k, row)
		}
		if row["route"] != route {
			t.Fatalf("row %s ran under route %v in the worker, want the submitting route %q", k, row["route"], route)
		}
		if runs[k] == 0 {
			t.Fatalf("record %s has a row but never ran", k)
		}
		if runs[k] > 1 {
			reran++
		}
	}
	if reran == 0 {
		t.Error("no record ran twice: the kill cut no record short, so redelivery went untested")
	}
	// cost_metadata reports every echo call made (README "Tasks": what was spent on the
	// customer's key): one per row, plus one for each run that finished its call but
	// was killed before its row was written (redelivery ran it again). A run killed
	// during its delay made no call. So the calls lie between the rows and the runs.
	totalRuns := 0
	for i := range 1000 {
		totalRuns += runs[fmt.Sprintf("a%d", i)]
	}
	cost, _ := done["cost_metadata"].(map[string]any)["test/echo-1"].(map[string]any)
	calls, _ := cost["calls"].(float64)
	est, _ := done["estimated_cost"].(float64)
	if calls < 1000 || int(calls) > totalRuns || math.Abs(est-calls/1000) > 1e-9 {
		t.Errorf("cost_metadata %v, estimated_cost %v; want 1,000 to %d calls (rows to runs) at 0.001 each after %d records ran twice", cost, done["estimated_cost"], totalRuns, reran)
	}
	t.Logf("%d records ran more than once (cut short by the kill and delivered again)", reran)
	s.wantExecution(t, sub.TaskID, task.StatusCompleted)

	// Task 2: cancelled midway over DELETE /v1/gen/cancel.
	second, err := s.app.Tasks.Submit(ctx, task.Submission{OrgID: demo.Org.ID, Kind: app.TestTaskKind, Records: tasktest.Keys("c", 1000), Field: "domains", Params: json.RawMessage(`{"delay_ms":100}`)})
	if err != nil {
		t.Fatal(err)
	}
	secondAt := time.Now()
	c.waitInterim(second.TaskID, 50)
	code, cancel := c.do("DELETE", "/v1/gen/cancel/"+second.TaskID)
	if code != 200 || cancel["success"] != true || cancel["status"] != "cancelling" || cancel["task_id"] != second.TaskID {
		t.Fatalf("cancel = %d %v", code, cancel)
	}
	ended := c.poll(second.TaskID, 60*time.Second)
	t.Logf("second task ended %v with %d rows %s after its submit", ended["status"], len(ended["results"].(map[string]any)), time.Since(secondAt))
	kept, _ := ended["results"].(map[string]any)
	if ended["status"] != "cancelled" || len(kept) < 50 || len(kept) >= 1000 {
		t.Fatalf("after cancel: %v with %d rows", ended["status"], len(kept))
	}
	for k, v := range kept {
		if row, _ := v.(map[string]any); row["echo"] != k {
			t.Fatalf("kept row %s = %v", k, v)
		}
	}
	started := 0
	for k, n := range s.runs(t) {
		if strings.HasPrefix(k, "c") && n > 0 {
			started++
		}
	}
	// At most the records in flight at the cancel (4 workers x 10) start without a row.
	if started > len(kept)+40 {
		t.Errorf("%d records of the cancelled task ran for %d kept rows: records kept starting after the cancel", started, len(kept))
	}
	s.wantExecution(t, second.TaskID, task.StatusCancelled)

	// Another organisation's task id is a 404 on status and cancel.
	other := otherOrg(t, s.app)
	for _, req := range [][2]string{{"GET", "/v1/gen/status/" + sub.TaskID}, {"DELETE", "/v1/gen/cancel/" + second.TaskID}} {
		if code, body := (genClient{t: t, url: srv.URL, key: other}).do(req[0], req[1]); code != 404 {
			t.Errorf("%s %s from another organisation = %d %v, want 404", req[0], req[1], code, body)
		}
	}
	// Nothing was dead-lettered: every message ended answered or skipped.
	if visible, inFlight := testkit.QueueDepth(t, s.sqs, s.queue.DLQURL); visible+inFlight != 0 {
		t.Errorf("DLQ holds %d messages, want none", visible+inFlight)
	}
}

// killMidRecord kills the busy worker processes at a moment when some record has
// started running (it is in the run log) but has no row yet, so the kill cuts records
// short and SQS must deliver them again. It returns how many processes it killed.
func (s *awsStack) killMidRecord(t *testing.T, c genClient, taskID string) int {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		interim, _ := c.status(taskID)["interim_results"].(map[string]any)
		midway := 0
		for k := range s.runs(t) {
			if _, done := interim[k]; !done && strings.HasPrefix(k, "a") {
				midway++
			}
		}
		if midway == 0 {
			continue
		}
		if n := s.lambda.KillBusy("worker"); n > 0 {
			return n
		}
	}
	t.Fatal("found no worker in the middle of a record to kill")
	return 0
}

// waitRerun waits up to d for some record of the first task to have run twice (a
// redelivery after a kill), and reports whether one did; it stops early when the task
// has finished.
func (s *awsStack) waitRerun(t *testing.T, c genClient, taskID string, d time.Duration) bool {
	t.Helper()
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		for k, n := range s.runs(t) {
			if n > 1 && strings.HasPrefix(k, "a") {
				return true
			}
		}
		if st, _ := c.status(taskID)["status"].(string); st != "in_progress" {
			return false
		}
	}
	return false
}

// wantExecution checks that the task's Step Functions execution ended SUCCEEDED with
// Finalize's output.
func (s *awsStack) wantExecution(t *testing.T, taskID string, want task.Status) {
	t.Helper()
	var out *sfn.DescribeExecutionOutput
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var err error
		out, err = s.sfn.DescribeExecution(context.Background(), &sfn.DescribeExecutionInput{ExecutionArn: aws.String(sfnflow.ExecutionARN(s.machine, taskID))})
		if err != nil {
			t.Fatal(err)
		}
		if out.Status != sfntypes.ExecutionStatusRunning || time.Now().After(deadline) {
			break
		}
	}
	var final task.FinalizeOutput
	json.Unmarshal([]byte(aws.ToString(out.Output)), &final)
	if out.Status != sfntypes.ExecutionStatusSucceeded || final.Status != want || final.TaskID != taskID {
		t.Errorf("execution %s: %s output %s (%s %s), want SUCCEEDED with status %s", taskID, out.Status, aws.ToString(out.Output), aws.ToString(out.Error), aws.ToString(out.Cause), want)
	}
}

type genClient struct {
	t   *testing.T
	url string
	key string
}

func (c genClient) do(method, path string) (int, map[string]any) {
	c.t.Helper()
	req, _ := http.NewRequest(method, c.url+path, nil)
	req.Header.Set("x-service-key", c.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		c.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	return resp.StatusCode, body
}

func (c genClient) status(id string) map[string]any {
	c.t.Helper()
	code, body := c.do("GET", "/v1/gen/status/"+id)
	if code != 200 {
		c.t.Fatalf("status of %s = %d %v", id, code, body)
	}
	return body
}

// waitInterim waits until n rows of a running task are in interim_results.
func (c genClient) waitInterim(id string, n int) {
	c.t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		body := c.status(id)
		if interim, _ := body["interim_results"].(map[string]any); len(interim) >= n {
			return
		}
		if body["status"] != "in_progress" {
			c.t.Fatalf("task %s is %v before %d rows were in", id, body["status"], n)
		}
	}
	c.t.Fatalf("task %s: fewer than %d rows after 60 s", id, n)
}

// poll reads the status until the task ends, checking that progress only rises.
func (c genClient) poll(id string, timeout time.Duration) map[string]any {
	c.t.Helper()
	last := -1.0
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		body := c.status(id)
		p, _ := body["progress"].(float64)
		if p < last {
			c.t.Fatalf("progress fell from %v to %v", last, p)
		}
		last = p
		switch body["status"] {
		case "completed", "cancelled", "failed":
			return body
		}
	}
	c.t.Fatalf("task %s did not end within %s (progress %v)", id, timeout, last)
	return nil
}

func otherOrg(t *testing.T, a *allapp.App) string {
	t.Helper()
	return accounttest.OrgKey(t, a.Accounts, "Other Org", account.PlanEnterprise, "someone@other.example", account.RoleAdmin)
}
