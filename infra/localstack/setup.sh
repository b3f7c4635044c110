#!/usr/bin/env bash
# Creates what template.yaml would on LocalStack's free services (DynamoDB, SQS, KMS,
# Step Functions), with the names infra/localstack/sam-env.json points the functions
# at. Run once after `localstack start -d`; README "Running the functions with SAM and
# LocalStack" has the whole flow. Needs the AWS CLI (any credentials do for LocalStack).
set -euo pipefail
cd "$(dirname "$0")/../.."
EP=${LOCALSTACK_ENDPOINT:-http://localhost:4566}
aws() { command aws --endpoint-url "$EP" --region us-east-1 "$@"; }
export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test

aws dynamodb create-table --table-name firmo \
  --attribute-definitions AttributeName=pk,AttributeType=S AttributeName=sk,AttributeType=S \
  --key-schema AttributeName=pk,KeyType=HASH AttributeName=sk,KeyType=RANGE \
  --billing-mode PAY_PER_REQUEST >/dev/null || true
dlq=$(aws sqs create-queue --queue-name firmo-tasks-dlq --query QueueUrl --output text)
dlq_arn=$(aws sqs get-queue-attributes --queue-url "$dlq" --attribute-names QueueArn --query Attributes.QueueArn --output text)
aws sqs create-queue --queue-name firmo-tasks --attributes \
  "{\"VisibilityTimeout\":\"1800\",\"RedrivePolicy\":\"{\\\"deadLetterTargetArn\\\":\\\"$dlq_arn\\\",\\\"maxReceiveCount\\\":\\\"5\\\"}\"}" >/dev/null
key=$(aws kms create-key --query KeyMetadata.KeyId --output text)
aws kms create-alias --alias-name alias/firmo --target-key-id "$key" 2>/dev/null || true
# The state machine's Task states call the steps function deployed on LocalStack's
# Lambda (or any function ARN you substitute here).
def=$(sed 's|${StepsFunctionArn}|arn:aws:lambda:us-east-1:000000000000:function:firmo-steps|g' statemachines/task.asl.json)
aws stepfunctions create-state-machine --name firmo-task --definition "$def" \
  --role-arn arn:aws:iam::000000000000:role/firmo-task >/dev/null 2>&1 || true
echo "LocalStack ready at $EP: table firmo, queue firmo-tasks (DLQ firmo-tasks-dlq), key alias/firmo, state machine firmo-task"
