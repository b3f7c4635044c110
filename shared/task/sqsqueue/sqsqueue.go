// Package sqsqueue is the task engine's Queue on Amazon SQS: each record is one
// message whose body is the task.Message JSON, consumed by functions/worker through
// a Lambda event source mapping (with a dead-letter queue behind it).
package sqsqueue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/aws/smithy-go"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/task"
)

// SQS limits of SendMessageBatch.
const (
	maxBatchEntries = 10
	maxBatchBytes   = 256 << 10 // the whole batch's bodies, as for a single message
	maxMessageBytes = 256 << 10
)

// sendParallel bounds the batch calls of one Send in flight: a chunk of 500 records
// is 50 calls, and a workflow step should not take 50 round trips in a row.
const sendParallel = 8

// sendAttempts bounds the tries of the entries SQS refused in a batch (it answers
// some entries failed and others sent; a throttled entry usually goes on a retry).
const sendAttempts = 4

// Queue sends task messages to one SQS queue.
type Queue struct {
	client *sqs.Client
	url    string
	// pause is the wait before retrying refused entries; a field so tests can shorten it.
	pause time.Duration
}

var _ task.Queue = (*Queue)(nil)

// IAMActions are the SQS actions a Queue calls on its queue (SendMessageBatch is
// authorized as sqs:SendMessage). template.yaml grants them to the function that sends
// records (the steps function); TestIAMActions and the template test compare them with
// the code.
var IAMActions = []string{"sqs:SendMessage"}

// PollerIAMActions are the actions Lambda's event source mapping calls with the role
// of the function it delivers the queue's messages to (the AWS Lambda Developer Guide's
// execution-role permissions for SQS; the managed AWSLambdaSQSQueueExecutionRole grants
// the same three, on every queue). No Firmo code calls them; template.yaml grants them
// on the task queue alone to the worker.
var PollerIAMActions = []string{"sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"}

// New returns a Queue on the queue at url.
func New(client *sqs.Client, url string) *Queue {
	return &Queue{client: client, url: url, pause: 200 * time.Millisecond}
}

// Send sends every message, in SendMessageBatch calls of up to 10 entries and 256 KB.
// It returns an error naming how many were not sent; those sent stay sent, which is
// safe because delivery is at least once and Engine.Handle is idempotent (the
// workflow step that called Send is retried and sends the rest again).
func (q *Queue) Send(ctx context.Context, msgs []task.Message) error {
	batches, err := batch(msgs)
	if err != nil {
		return err
	}
	errs := make([]error, len(batches))
	sem := make(chan struct{}, sendParallel)
	var wg sync.WaitGroup
	for i, b := range batches {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = q.sendBatch(ctx, b)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("send %d task messages to SQS: %w", len(msgs), err)
	}
	return nil
}

// batch encodes the messages and groups them into batches SQS accepts.
func batch(msgs []task.Message) ([][]string, error) {
	var out [][]string
	var cur []string
	size := 0
	for _, m := range msgs {
		body, err := json.Marshal(m)
		if err != nil {
			return nil, fmt.Errorf("encode task message %s #%d: %w", m.Ref, m.Index, err)
		}
		if len(body) > maxMessageBytes {
			// Submit bounds a record's input to 64 KB, so this is a bug, not bad input.
			return nil, fmt.Errorf("task message %s #%d is %d bytes, over SQS's %d: %w", m.Ref, m.Index, len(body), maxMessageBytes, apperr.ErrInternal)
		}
		if len(cur) == maxBatchEntries || size+len(body) > maxBatchBytes {
			out = append(out, cur)
			cur, size = nil, 0
		}
		cur = append(cur, string(body))
		size += len(body)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out, nil
}

// sendBatch sends one batch, retrying the entries SQS refused as its sender's fault
// only when they are not (SenderFault false: throttling, an internal error).
func (q *Queue) sendBatch(ctx context.Context, bodies []string) error {
	pending := map[string]string{}
	for i, b := range bodies {
		pending[strconv.Itoa(i)] = b
	}
	for attempt := 1; ; attempt++ {
		entries := make([]sqstypes.SendMessageBatchRequestEntry, 0, len(pending))
		for id, b := range pending {
			entries = append(entries, sqstypes.SendMessageBatchRequestEntry{Id: aws.String(id), MessageBody: aws.String(b)})
		}
		out, err := q.client.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: aws.String(q.url), Entries: entries})
		if err != nil {
			return classify(err)
		}
		for _, s := range out.Successful {
			delete(pending, aws.ToString(s.Id))
		}
		if len(pending) == 0 {
			return nil
		}
		var fatal error
		for _, f := range out.Failed {
			if f.SenderFault {
				fatal = fmt.Errorf("SQS refused a task message: %s %s: %w", aws.ToString(f.Code), aws.ToString(f.Message), apperr.ErrInternal)
			}
		}
		if fatal != nil {
			return fatal
		}
		if attempt >= sendAttempts {
			f := out.Failed[0]
			return fmt.Errorf("%d of %d messages not sent after %d tries (%s): %w", len(pending), len(bodies), attempt, aws.ToString(f.Code), apperr.ErrUnavailable)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(q.pause << (attempt - 1)):
		}
	}
}

// classify marks failures worth retrying (SQS unreachable, throttled, failing) as
// apperr.ErrUnavailable, so the steps Lambda reports them as TransientError.
func classify(err error) error {
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) || apiErr.ErrorFault() == smithy.FaultServer {
		return fmt.Errorf("send message batch: %w: %w", apperr.ErrUnavailable, err)
	}
	switch apiErr.ErrorCode() {
	case "ThrottlingException", "RequestThrottled", "KmsThrottled", "AWS.SimpleQueueService.RequestThrottled":
		return fmt.Errorf("send message batch: %w: %w", apperr.ErrUnavailable, err)
	}
	return fmt.Errorf("send message batch: %w: %w", apperr.ErrInternal, err)
}
