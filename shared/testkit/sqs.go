package testkit

import (
	"context"
	"encoding/json"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

// localSQSVersion is the SQS stand-in of README's Tests section.
const localSQSVersion = "2.0.2"

// SQS starts local-aws-sqs (in memory) on a free loopback port for the life of the
// test and returns its endpoint URL. Like Dynalite, it installs the npm package into
// <repo>/.tools on first use and skips the test without node and npm (fails it under
// FIRMO_REQUIRE_STANDINS=1). infra/standins/sqs.mjs is the launcher.
func SQS(t testing.TB) (endpoint string) {
	t.Helper()
	NodeTool(t, "local-aws-sqs", localSQSVersion, "")
	script := repoFile(t, "infra/standins/sqs.mjs")
	tools := repoFile(t, ".tools")
	addr := startStandin(t, "local-aws-sqs", func(port int) *exec.Cmd {
		return exec.Command("node", script, "--port", strconv.Itoa(port), "--host", "127.0.0.1", "--tools", tools)
	})
	return "http://" + addr
}

// SQSClient returns an SQS client for a stand-in endpoint with dummy credentials.
func SQSClient(t testing.TB, endpoint string) *sqs.Client {
	t.Helper()
	return sqs.New(sqs.Options{
		Region:       StandinRegion,
		Credentials:  credentials.NewStaticCredentialsProvider("firmo-test", "firmo-test", ""),
		BaseEndpoint: aws.String(endpoint),
	})
}

// Queue names a queue and its dead-letter queue.
type Queue struct {
	URL, ARN       string
	DLQURL, DLQARN string
}

// CreateQueueWithDLQ creates the queue name and name-dlq, with a redrive policy that
// moves a message to the DLQ after maxReceives receives, and the given visibility
// timeout (whole seconds, at least 1): the shape of every work queue in template.yaml.
func CreateQueueWithDLQ(t testing.TB, c *sqs.Client, name string, visibility time.Duration, maxReceives int) Queue {
	t.Helper()
	var q Queue
	q.DLQURL = CreateQueue(t, c, name+"-dlq", nil)
	q.DLQARN = QueueARN(t, c, q.DLQURL)
	redrive, _ := json.Marshal(map[string]any{"deadLetterTargetArn": q.DLQARN, "maxReceiveCount": maxReceives})
	q.URL = CreateQueue(t, c, name, map[string]string{
		"VisibilityTimeout": strconv.Itoa(max(1, int(visibility.Round(time.Second)/time.Second))),
		"RedrivePolicy":     string(redrive),
	})
	q.ARN = QueueARN(t, c, q.URL)
	return q
}

// CreateQueue creates a standard queue with the given attributes and returns its URL.
func CreateQueue(t testing.TB, c *sqs.Client, name string, attrs map[string]string) string {
	t.Helper()
	out, err := c.CreateQueue(context.Background(), &sqs.CreateQueueInput{QueueName: aws.String(name), Attributes: attrs})
	if err != nil {
		t.Fatalf("create queue %s: %v", name, err)
	}
	return aws.ToString(out.QueueUrl)
}

// QueueARN reads a queue's ARN.
func QueueARN(t testing.TB, c *sqs.Client, url string) string {
	t.Helper()
	arn, err := queueARN(context.Background(), c, url)
	if err != nil {
		t.Fatalf("queue ARN of %s: %v", url, err)
	}
	return arn
}

func queueARN(ctx context.Context, c *sqs.Client, url string) (string, error) {
	out, err := c.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{
		QueueUrl:       aws.String(url),
		AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameQueueArn},
	})
	if err != nil {
		return "", err
	}
	return out.Attributes[string(sqstypes.QueueAttributeNameQueueArn)], nil
}

// QueueDepth returns a queue's visible and in-flight (received, not yet deleted)
// message counts.
func QueueDepth(t testing.TB, c *sqs.Client, url string) (visible, inFlight int) {
	t.Helper()
	out, err := c.GetQueueAttributes(context.Background(), &sqs.GetQueueAttributesInput{
		QueueUrl: aws.String(url),
		AttributeNames: []sqstypes.QueueAttributeName{
			sqstypes.QueueAttributeNameApproximateNumberOfMessages,
			sqstypes.QueueAttributeNameApproximateNumberOfMessagesNotVisible,
		},
	})
	if err != nil {
		t.Fatalf("queue depth of %s: %v", url, err)
	}
	visible, _ = strconv.Atoi(out.Attributes[string(sqstypes.QueueAttributeNameApproximateNumberOfMessages)])
	inFlight, _ = strconv.Atoi(out.Attributes[string(sqstypes.QueueAttributeNameApproximateNumberOfMessagesNotVisible)])
	return visible, inFlight
}
