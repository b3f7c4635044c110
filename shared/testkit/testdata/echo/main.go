// Command echo is a tiny Lambda function for the emulator's tests; it goes through
// aws-lambda-go's real runtime client like every Firmo function.
//
// A plain payload is answered with {"echo": <payload>, "function", "request_id", "pid",
// "started", "finished"} unless it asks for trouble: {"sleep_ms": n} sleeps first,
// {"fail": "transient"|"permanent"} returns a TransientError or PermanentError, and
// {"exit": true} exits the process.
//
// An SQS event ({"Records": [...]}) is a batch: a record whose body starts with
// "slow" sleeps SLOW_MS on its first receive, every record with body "fail" is
// reported in batchItemFailures, and every record is appended to ECHO_LOG as
// "<body>\t<ApproximateReceiveCount>\t<unix ms>" once the whole batch is done.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-lambda-go/lambda"
	"github.com/aws/aws-lambda-go/lambdacontext"
)

// TransientError and PermanentError are named so that Step Functions Retry and
// Catch can tell them apart (aws-lambda-go reports the type name as errorType).
type TransientError struct{ Msg string }

func (e *TransientError) Error() string { return e.Msg }

type PermanentError struct{ Msg string }

func (e *PermanentError) Error() string { return e.Msg }

type request struct {
	Records []events.SQSMessage `json:"Records"`
	SleepMS int                 `json:"sleep_ms"`
	Fail    string              `json:"fail"`
	Exit    bool                `json:"exit"`
}

func handle(ctx context.Context, raw json.RawMessage) (any, error) {
	var req request
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, err
	}
	if req.Records != nil {
		return batch(req.Records)
	}
	started := time.Now()
	time.Sleep(time.Duration(req.SleepMS) * time.Millisecond)
	switch {
	case req.Exit:
		os.Exit(3)
	case req.Fail == "transient":
		return nil, &TransientError{"try again"}
	case req.Fail == "permanent":
		return nil, &PermanentError{"will not work"}
	}
	lc, _ := lambdacontext.FromContext(ctx)
	return map[string]any{"echo": raw, "function": lambdacontext.FunctionName, "request_id": lc.AwsRequestID, "pid": os.Getpid(),
		"started": started.UnixNano(), "finished": time.Now().UnixNano()}, nil
}

func batch(records []events.SQSMessage) (events.SQSEventResponse, error) {
	var resp events.SQSEventResponse
	slow, _ := strconv.Atoi(os.Getenv("SLOW_MS"))
	var lines strings.Builder
	for _, m := range records {
		count := m.Attributes["ApproximateReceiveCount"]
		if strings.HasPrefix(m.Body, "slow") && count == "1" {
			time.Sleep(time.Duration(slow) * time.Millisecond)
		}
		if m.Body == "fail" {
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: m.MessageId})
		}
		fmt.Fprintf(&lines, "%s\t%s\t%d\n", m.Body, count, time.Now().UnixMilli())
	}
	f, err := os.OpenFile(os.Getenv("ECHO_LOG"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return resp, err
	}
	defer f.Close()
	_, err = f.WriteString(lines.String())
	return resp, err
}

func main() { lambda.Start(handle) }
