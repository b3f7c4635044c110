package testkit

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// delivery is one line of the echo function's ECHO_LOG: a record it handled.
type delivery struct {
	body    string
	receive int
	at      time.Time
}

func readDeliveries(t *testing.T, path string) []delivery {
	t.Helper()
	raw, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []delivery
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			continue
		}
		n, _ := strconv.Atoi(f[1])
		ms, _ := strconv.ParseInt(f[2], 10, 64)
		out = append(out, delivery{body: f[0], receive: n, at: time.UnixMilli(ms)})
	}
	return out
}

func byBody(ds []delivery) map[string][]delivery {
	m := map[string][]delivery{}
	for _, d := range ds {
		m[d.body] = append(m[d.body], d)
	}
	return m
}

func sendBodies(t *testing.T, c *sqs.Client, url string, bodies ...string) {
	t.Helper()
	var entries []sqstypes.SendMessageBatchRequestEntry
	for i, b := range bodies {
		entries = append(entries, sqstypes.SendMessageBatchRequestEntry{Id: aws.String(strconv.Itoa(i)), MessageBody: aws.String(b)})
	}
	out, err := c.SendMessageBatch(context.Background(), &sqs.SendMessageBatchInput{QueueUrl: aws.String(url), Entries: entries})
	if err != nil || len(out.Failed) > 0 {
		t.Fatalf("send: %v %+v", err, out)
	}
}

func TestSQSEventSource(t *testing.T) {
	c := SQSClient(t, SQS(t))
	bin := BuildLambda(t, "./shared/testkit/testdata/echo")

	t.Run("only the reported item comes back, then goes to the DLQ", func(t *testing.T) {
		q := CreateQueueWithDLQ(t, c, "partial", time.Second, 2)
		log := filepath.Join(t.TempDir(), "deliveries")
		l := NewLambda(t)
		l.Add(LambdaFunction{Name: "worker", Binary: bin, Env: map[string]string{"ECHO_LOG": log}})
		sendBodies(t, c, q.URL, "a", "b", "fail", "c", "d")
		p := l.StartSQS(SQSEventSource{Client: c, QueueURL: q.URL, Function: "worker", ReportBatchItemFailures: true})

		// maxReceiveCount 2: "fail" is handled twice, then SQS moves it to the DLQ.
		waitFor(t, 15*time.Second, func() bool { return len(byBody(readDeliveries(t, log))["fail"]) == 2 })
		dlq := receiveAll(t, c, q.DLQURL, 10*time.Second, 1)
		if len(dlq) != 1 || aws.ToString(dlq[0].Body) != "fail" {
			t.Fatalf("DLQ holds %v, want the one failing message", bodiesOf(dlq))
		}
		p.Stop()

		got := byBody(readDeliveries(t, log))
		for _, b := range []string{"a", "b", "c", "d"} {
			if len(got[b]) != 1 || got[b][0].receive != 1 {
				t.Errorf("%q handled %+v, want exactly once on its first receive", b, got[b])
			}
		}
		fails := got["fail"]
		if fails[0].receive != 1 || fails[1].receive != 2 {
			t.Errorf("fail receive counts %d, %d; want 1 then 2", fails[0].receive, fails[1].receive)
		}
		if gap := fails[1].at.Sub(fails[0].at); gap < 900*time.Millisecond {
			t.Errorf("failed message came back after %s, before the 1s visibility timeout", gap)
		}
		if v, f := QueueDepth(t, c, q.URL); v+f != 0 {
			t.Errorf("queue still holds %d visible + %d in flight", v, f)
		}
	})

	t.Run("a worker killed mid-batch loses nothing", func(t *testing.T) {
		q := CreateQueueWithDLQ(t, c, "crash", time.Second, 5)
		log := filepath.Join(t.TempDir(), "deliveries")
		l := NewLambda(t)
		// "slow" records sleep on their first receive, long enough to be killed.
		l.Add(LambdaFunction{Name: "worker", Binary: bin, Env: map[string]string{"ECHO_LOG": log, "SLOW_MS": "20000"}})
		bodies := []string{"slow-1", "slow-2", "slow-3", "slow-4"}
		sendBodies(t, c, q.URL, bodies...)
		p := l.StartSQS(SQSEventSource{Client: c, QueueURL: q.URL, Function: "worker", ReportBatchItemFailures: true})

		waitFor(t, 10*time.Second, func() bool { return l.Busy("worker") == 1 })
		if n := l.KillBusy("worker"); n != 1 {
			t.Fatalf("killed %d, want 1", n)
		}
		waitFor(t, 15*time.Second, func() bool { return len(readDeliveries(t, log)) >= len(bodies) })
		p.Stop()

		got := byBody(readDeliveries(t, log))
		for _, b := range bodies {
			if len(got[b]) != 1 || got[b][0].receive < 2 {
				t.Errorf("%q handled %+v, want exactly once, on a redelivery", b, got[b])
			}
		}
		if st := p.Stats(); st.Failed < 1 || st.Deleted != int64(len(bodies)) {
			t.Errorf("stats %+v, want at least one failed batch and %d deletions", st, len(bodies))
		}
		if v, f := QueueDepth(t, c, q.URL); v+f != 0 {
			t.Errorf("queue still holds %d visible + %d in flight", v, f)
		}
	})
}

func receiveAll(t *testing.T, c *sqs.Client, url string, timeout time.Duration, want int) []sqstypes.Message {
	t.Helper()
	var got []sqstypes.Message
	deadline := time.Now().Add(timeout)
	for len(got) < want && time.Now().Before(deadline) {
		out, err := c.ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{QueueUrl: aws.String(url), MaxNumberOfMessages: 10})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, out.Messages...)
	}
	return got
}

func bodiesOf(ms []sqstypes.Message) []string {
	var out []string
	for _, m := range ms {
		out = append(out, aws.ToString(m.Body))
	}
	return out
}
