// Package fake calls AWS and OpenSearch the ways Firmo's adapters do, for awsiam's test.
package fake

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"
)

type store struct {
	client *dynamodb.Client
	queue  *sqs.Client
	os     *opensearchapi.Client
}

func (s *store) calls(ctx context.Context, in *dynamodb.UpdateItemInput) {
	_, _ = s.client.GetItem(ctx, &dynamodb.GetItemInput{})
	_, _ = s.client.UpdateItem(ctx, in)
	_ = dynamodb.NewTableExistsWaiter(s.client)
	_ = dynamodb.NewQueryPaginator(s.client, &dynamodb.QueryInput{})
	_, _ = s.queue.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{})
	_, _ = s.os.Indices.Create(ctx, opensearchapi.IndicesCreateReq{Index: "x"})
	_, _ = s.os.Search(ctx, &opensearchapi.SearchReq{})
}
