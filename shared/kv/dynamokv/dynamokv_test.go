package dynamokv_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/dynamokv"
	"github.com/firmoapi/firmo/shared/kv/kvtest"
	"github.com/firmoapi/firmo/shared/testkit"
)

func TestContract(t *testing.T) {
	client := testkit.DynamoClient(t, testkit.Dynalite(t))
	table := fmt.Sprintf("firmo-kv-%d", time.Now().UnixNano())
	ctx := context.Background()
	if err := dynamokv.EnsureTable(ctx, client, table); err != nil {
		t.Fatal(err)
	}
	// A second call finds the table and returns at once.
	if err := dynamokv.EnsureTable(ctx, client, table); err != nil {
		t.Fatalf("EnsureTable on an existing table: %v", err)
	}
	kvtest.Run(t, func(t *testing.T) kv.Store { return dynamokv.New(client, table) })
}

func TestEmptyDocument(t *testing.T) {
	client := testkit.DynamoClient(t, testkit.Dynalite(t))
	ctx := context.Background()
	if err := dynamokv.EnsureTable(ctx, client, "firmo-kv"); err != nil {
		t.Fatal(err)
	}
	s := dynamokv.New(client, "firmo-kv")
	k := kv.Key{PK: "org#1", SK: "empty"}
	if v, err := s.Put(ctx, k, nil, kv.Cond{IfAbsent: true}); err != nil || v != 1 {
		t.Fatalf("Put(nil) = %d, %v", v, err)
	}
	got, err := s.Get(ctx, k)
	if err != nil || len(got.Data) != 0 || got.Version != 1 {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	if _, err := s.Put(ctx, k, []byte("x"), kv.Cond{IfAbsent: true}); !errors.Is(err, apperr.ErrConflict) {
		t.Fatalf("IfAbsent over an empty document: err = %v, want ErrConflict", err)
	}
}

func TestUnreachableEndpointIsUnavailable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now: connections are refused
	client := dynamodb.New(dynamodb.Options{
		Region:           "us-east-1",
		Credentials:      credentials.NewStaticCredentialsProvider("x", "y", ""),
		BaseEndpoint:     aws.String("http://" + addr),
		RetryMaxAttempts: 1,
	})
	s := dynamokv.New(client, "firmo-kv")
	ctx := context.Background()
	if _, err := s.Get(ctx, kv.Key{PK: "a", SK: "b"}); !errors.Is(err, apperr.ErrUnavailable) {
		t.Fatalf("Get: err = %v, want ErrUnavailable", err)
	}
	if _, err := s.Add(ctx, kv.Key{PK: "a", SK: "b"}, "n", 1, kv.AddCond{}); !errors.Is(err, apperr.ErrUnavailable) {
		t.Fatalf("Add: err = %v, want ErrUnavailable", err)
	}
	if err := dynamokv.EnsureTable(ctx, client, "firmo-kv"); !errors.Is(err, apperr.ErrUnavailable) {
		t.Fatalf("EnsureTable: err = %v, want ErrUnavailable", err)
	}
}
