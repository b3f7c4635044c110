package app

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/kv/dynamokv"
	"github.com/firmoapi/firmo/shared/ratelimit/kvlimit"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/sfnflow"
	"github.com/firmoapi/firmo/shared/task/sqsqueue"
)

// AWSBackend is the backend of the AWS composition (or of its local stand-ins when the
// endpoints in cfg.AWS are set): items in DynamoDB, records through the SQS queue
// (functions/worker consumes it), tasks as Step Functions executions (functions/steps),
// rate limits counted in DynamoDB so every Lambda instance sees the same counts. A
// function without FIRMO_QUEUE_URL or FIRMO_STATE_MACHINE_ARN serves status and cancel
// but refuses submissions (503). No request is made here.
func AWSBackend(ctx context.Context, cfg config.Config) (Backend, error) {
	awsCfg, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithRegion(cfg.AWS.Region))
	if err != nil {
		return Backend{}, fmt.Errorf("load AWS configuration: %w", err)
	}
	ddb := dynamodb.NewFromConfig(awsCfg, func(o *dynamodb.Options) {
		if cfg.AWS.DynamoDBEndpoint != "" {
			o.BaseEndpoint = aws.String(cfg.AWS.DynamoDBEndpoint)
		}
	})
	store := dynamokv.New(ddb, cfg.AWS.Table)
	b := Backend{Store: store, Tasks: lambdaTaskOptions(), Limiter: kvlimit.New(store, time.Now), AWS: &awsCfg}
	if cfg.AWS.QueueURL != "" {
		client := sqs.NewFromConfig(awsCfg, func(o *sqs.Options) {
			if cfg.AWS.SQSEndpoint != "" {
				o.BaseEndpoint = aws.String(cfg.AWS.SQSEndpoint)
			}
		})
		b.Queue = sqsqueue.New(client, cfg.AWS.QueueURL)
	}
	if cfg.AWS.StateMachineARN != "" {
		client := sfn.NewFromConfig(awsCfg, func(o *sfn.Options) {
			if cfg.AWS.SFNEndpoint != "" {
				o.BaseEndpoint = aws.String(cfg.AWS.SFNEndpoint)
			}
		})
		b.Flow = sfnflow.New(client, cfg.AWS.StateMachineARN, cfg.AWS.TaskPoll)
	}
	return b, nil
}

// lambdaTaskOptions bound a record's work well within the worker's 300 s timeout
// (template.yaml) less the 20 s HandleSQS keeps before the deadline: three attempts of
// at most 85 s each, whatever a kind's own timeout (research 4 minutes, contact
// generation 5), with at most 10 s between them is 275 s; a retry that no longer fits
// gives the record back to the queue at once (task.ErrNoTimeLeft). Further retries are
// SQS redeliveries (visibility timeout 1,800 s, six times the function timeout as AWS
// advises), then the DLQ; a redelivered record replays the model calls an earlier run
// finished (kept in the task store) rather than calling again. A record whose messages
// are lost or dead-lettered is enqueued again by the workflow's progress check after
// StallAfter (15 minutes by default) and answered with an error cell in the end.
func lambdaTaskOptions() task.Options {
	return task.Options{
		RecordTimeout:    75 * time.Second,
		MaxRecordTimeout: 85 * time.Second,
		Retry:            task.RetryPolicy{Attempts: 3, Base: time.Second, Max: 10 * time.Second},
	}
}

// FromEnv loads the configuration once from the environment and builds the AWS
// composition of the given families, logging to stderr: the first steps of every
// Lambda's main.
func FromEnv(ctx context.Context, getenv config.Getenv, families ...Composer) (*Core, error) {
	cfg, err := config.Load(getenv)
	if err != nil {
		return nil, err
	}
	return NewAWS(ctx, cfg, NewLogger(cfg, os.Stderr), families...)
}

// NewAWS builds the AWS composition of the given families.
func NewAWS(ctx context.Context, cfg config.Config, log *slog.Logger, families ...Composer) (*Core, error) {
	b, err := AWSBackend(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return Build(ctx, Deps{Config: cfg, Log: log, Backend: b}, families...)
}
