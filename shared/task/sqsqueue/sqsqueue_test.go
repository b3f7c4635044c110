package sqsqueue_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/sqsqueue"
	"github.com/firmoapi/firmo/shared/testkit"
)

// receiveAll drains the queue until want messages arrived or the timeout passed.
func receiveAll(t *testing.T, c *sqs.Client, url string, want int) map[string]task.Message {
	t.Helper()
	got := map[string]task.Message{}
	deadline := time.Now().Add(15 * time.Second)
	for len(got) < want && time.Now().Before(deadline) {
		out, err := c.ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{QueueUrl: aws.String(url), MaxNumberOfMessages: 10, VisibilityTimeout: 60})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range out.Messages {
			var tm task.Message
			if err := json.Unmarshal([]byte(aws.ToString(m.Body)), &tm); err != nil {
				t.Fatalf("body %.100s is not a task message: %v", aws.ToString(m.Body), err)
			}
			if _, dup := got[tm.Key]; dup {
				t.Fatalf("message %s received twice", tm.Key)
			}
			got[tm.Key] = tm
		}
		if len(out.Messages) == 0 {
			time.Sleep(20 * time.Millisecond)
		}
	}
	return got
}

func TestSend(t *testing.T) {
	c := testkit.SQSClient(t, testkit.SQS(t))
	ref := task.Ref{OrgID: "org-a", TaskID: "t-1"}
	big := json.RawMessage(`"` + strings.Repeat("x", 60<<10) + `"`)
	for _, tc := range []struct {
		name string
		msgs func() []task.Message
	}{
		// 23 small messages: batches of 10, 10 and 3.
		{"count batches", func() []task.Message {
			var ms []task.Message
			for i := range 23 {
				ms = append(ms, task.Message{Ref: ref, Index: i, Key: fmt.Sprintf("k%d", i), Input: json.RawMessage(`{"n":1}`), Provider: "p"})
			}
			return ms
		}},
		// Six 60 KB messages are over SQS's 256 KB per batch: they must be split by size.
		{"byte batches", func() []task.Message {
			var ms []task.Message
			for i := range 6 {
				ms = append(ms, task.Message{Ref: ref, Index: i, Key: fmt.Sprintf("big%d", i), Input: big})
			}
			return ms
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := testkit.CreateQueue(t, c, strings.ReplaceAll(tc.name, " ", "-"), nil)
			want := tc.msgs()
			if err := sqsqueue.New(c, url).Send(context.Background(), want); err != nil {
				t.Fatal(err)
			}
			got := receiveAll(t, c, url, len(want))
			if len(got) != len(want) {
				t.Fatalf("received %d messages, want %d", len(got), len(want))
			}
			for _, w := range want {
				g := got[w.Key]
				if g.Ref != w.Ref || g.Index != w.Index || g.Provider != w.Provider || string(g.Input) != string(w.Input) {
					t.Errorf("message %s: got %+v, want %+v", w.Key, clip(g), clip(w))
				}
			}
		})
	}

	t.Run("missing queue is an error", func(t *testing.T) {
		err := sqsqueue.New(c, "http://127.0.0.1:1/123456789012/nope").Send(context.Background(), []task.Message{{Ref: ref, Key: "a"}})
		if err == nil {
			t.Fatal("send to a missing queue succeeded")
		}
	})
	t.Run("unreachable SQS is unavailable", func(t *testing.T) {
		dead := testkit.SQSClient(t, "http://127.0.0.1:1")
		err := sqsqueue.New(dead, "http://127.0.0.1:1/123456789012/q").Send(context.Background(), []task.Message{{Ref: ref, Key: "a"}})
		if !errors.Is(err, apperr.ErrUnavailable) {
			t.Fatalf("got %v, want apperr.ErrUnavailable (the steps Lambda retries it)", err)
		}
	})
}

func clip(m task.Message) task.Message {
	if len(m.Input) > 40 {
		m.Input = m.Input[:40]
	}
	return m
}
