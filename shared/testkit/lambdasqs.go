package testkit

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// SQSEventSource maps a queue to a function the way a Lambda event source mapping does.
type SQSEventSource struct {
	Client   *sqs.Client
	QueueURL string
	Function string
	// BatchSize is the most messages per invocation, 1 to 10; default 10.
	BatchSize int
	// Pollers is how many receive-invoke loops run at once, so how many batches can
	// be in flight; default 1. Give the function as many Instances.
	Pollers int
	// ReportBatchItemFailures is FunctionResponseTypes: [ReportBatchItemFailures]:
	// only the messages the function names in batchItemFailures stay on the queue.
	ReportBatchItemFailures bool
}

// SQSStats counts what an event source did.
type SQSStats struct {
	Batches  int64 // invocations made
	Failed   int64 // invocations that failed as a whole (error, crash, timeout, bad answer)
	Deleted  int64 // messages deleted after success
	Returned int64 // messages left for redelivery
}

// SQSPoller is a running event source; see Lambda.StartSQS.
type SQSPoller struct {
	stop                               context.CancelFunc
	wg                                 sync.WaitGroup
	once                               sync.Once
	batches, failed, deleted, returned atomic.Int64
}

// Stop ends polling and waits for the batches in flight to settle.
func (p *SQSPoller) Stop() {
	p.once.Do(func() {
		p.stop()
		p.wg.Wait()
	})
}

// Stats returns the counters so far.
func (p *SQSPoller) Stats() SQSStats {
	return SQSStats{Batches: p.batches.Load(), Failed: p.failed.Load(), Deleted: p.deleted.Load(), Returned: p.returned.Load()}
}

// StartSQS polls the queue and invokes the function with events.SQSEvent batches until
// the test ends or Stop. As with Lambda: a successful batch is deleted, except the
// messages named in batchItemFailures when ReportBatchItemFailures is set; a failed
// invocation (error, crash, timeout) deletes nothing, so its messages come back after
// the queue's visibility timeout, and the queue's redrive policy moves a message that
// keeps failing to its DLQ.
//
// Receives never wait (WaitTimeSeconds 0): local-aws-sqs holds a long poll open until
// the batch is full, and may hand out a message again within the same poll once its
// visibility lapses. A short poll still gathers what arrives within about 40 ms.
func (l *Lambda) StartSQS(src SQSEventSource) *SQSPoller {
	l.t.Helper()
	if src.BatchSize <= 0 || src.BatchSize > 10 {
		src.BatchSize = 10
	}
	if src.Pollers <= 0 {
		src.Pollers = 1
	}
	if _, err := l.function(src.Function); err != nil {
		l.t.Fatalf("sqs event source: %v", err)
	}
	arn, err := queueARN(context.Background(), src.Client, src.QueueURL)
	if err != nil {
		l.t.Fatalf("sqs event source: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &SQSPoller{stop: cancel}
	for i := 0; i < src.Pollers; i++ {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for ctx.Err() == nil {
				if !p.pollOnce(ctx, l, src, arn) {
					sleepCtx(ctx, 50*time.Millisecond)
				}
			}
		}()
	}
	l.t.Cleanup(p.Stop)
	return p
}

// pollOnce receives one batch and runs it; it reports whether there was one.
func (p *SQSPoller) pollOnce(ctx context.Context, l *Lambda, src SQSEventSource, arn string) bool {
	out, err := src.Client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{
		QueueUrl:            aws.String(src.QueueURL),
		MaxNumberOfMessages: int32(src.BatchSize),
		//lint:ignore SA1019 local-aws-sqs reads only the older AttributeNames field.
		AttributeNames:              []sqstypes.QueueAttributeName{"All"},
		MessageSystemAttributeNames: []sqstypes.MessageSystemAttributeName{"All"},
		MessageAttributeNames:       []string{"All"},
	})
	if err != nil || len(out.Messages) == 0 {
		return false
	}
	event := sqsEvent(out.Messages, arn)
	payload, _ := json.Marshal(event)
	p.batches.Add(1)
	// The invocation outlives a Stop: a batch in flight settles as it would on AWS.
	resp, err := l.Invoke(context.Background(), src.Function, payload)
	if err != nil {
		p.failed.Add(1)
		p.returned.Add(int64(len(event.Records)))
		l.logf(src.Function, "[sqs] batch of %d failed, left for redelivery: %v", len(event.Records), err)
		return true
	}
	keep, ok := failedItems(resp, event, src.ReportBatchItemFailures)
	if !ok {
		p.failed.Add(1)
		l.logf(src.Function, "[sqs] batch of %d: unusable batchItemFailures answer %.200s; whole batch left for redelivery", len(event.Records), resp)
	}
	var del []sqstypes.DeleteMessageBatchRequestEntry
	for i, m := range event.Records {
		if keep[m.MessageId] {
			continue
		}
		del = append(del, sqstypes.DeleteMessageBatchRequestEntry{Id: aws.String(strconv.Itoa(i)), ReceiptHandle: aws.String(m.ReceiptHandle)})
	}
	p.returned.Add(int64(len(event.Records) - len(del)))
	if len(del) > 0 {
		res, err := src.Client.DeleteMessageBatch(context.Background(), &sqs.DeleteMessageBatchInput{QueueUrl: aws.String(src.QueueURL), Entries: del})
		switch {
		case err != nil:
			l.logf(src.Function, "[sqs] delete %d messages: %v", len(del), err)
		default:
			p.deleted.Add(int64(len(res.Successful)))
			for _, f := range res.Failed {
				l.logf(src.Function, "[sqs] delete message: %s %s", aws.ToString(f.Code), aws.ToString(f.Message))
			}
		}
	}
	return true
}

// failedItems reads the function's answer: the message ids to keep on the queue, or
// ok=false when the answer names no usable item (Lambda then retries the whole batch).
func failedItems(resp []byte, event events.SQSEvent, report bool) (keep map[string]bool, ok bool) {
	keep = map[string]bool{}
	if !report {
		return keep, true
	}
	all := func() map[string]bool {
		for _, m := range event.Records {
			keep[m.MessageId] = true
		}
		return keep
	}
	var answer events.SQSEventResponse
	if len(resp) == 0 || string(resp) == "null" {
		return keep, true
	}
	if err := json.Unmarshal(resp, &answer); err != nil {
		return all(), false
	}
	ids := map[string]bool{}
	for _, m := range event.Records {
		ids[m.MessageId] = true
	}
	for _, f := range answer.BatchItemFailures {
		if !ids[f.ItemIdentifier] {
			return all(), false
		}
		keep[f.ItemIdentifier] = true
	}
	return keep, true
}

func sqsEvent(msgs []sqstypes.Message, arn string) events.SQSEvent {
	var ev events.SQSEvent
	for _, m := range msgs {
		rec := events.SQSMessage{
			MessageId:              aws.ToString(m.MessageId),
			ReceiptHandle:          aws.ToString(m.ReceiptHandle),
			Body:                   aws.ToString(m.Body),
			Md5OfBody:              aws.ToString(m.MD5OfBody),
			Md5OfMessageAttributes: aws.ToString(m.MD5OfMessageAttributes),
			Attributes:             m.Attributes,
			MessageAttributes:      map[string]events.SQSMessageAttribute{},
			EventSourceARN:         arn,
			EventSource:            "aws:sqs",
			AWSRegion:              StandinRegion,
		}
		for k, v := range m.MessageAttributes {
			rec.MessageAttributes[k] = events.SQSMessageAttribute{
				StringValue:      v.StringValue,
				BinaryValue:      v.BinaryValue,
				StringListValues: v.StringListValues,
				BinaryListValues: v.BinaryListValues,
				DataType:         aws.ToString(v.DataType),
			}
		}
		ev.Records = append(ev.Records, rec)
	}
	return ev
}

// logf writes an emulator note into a function's log.
func (l *Lambda) logf(name, format string, args ...any) {
	fn, err := l.function(name)
	if err != nil {
		return
	}
	fmt.Fprintf(fn.log, format+"\n", args...)
}

func sleepCtx(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
