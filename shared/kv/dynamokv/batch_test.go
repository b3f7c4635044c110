package dynamokv_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/dynamokv"
	"github.com/firmoapi/firmo/shared/testkit"
)

// throttlingHTTP sits between the client and dynalite and, on the first withhold
// BatchGetItem answers, moves every other returned item into UnprocessedKeys, as
// DynamoDB does when it throttles part of a batch (dynalite never does).
type throttlingHTTP struct {
	mu        sync.Mutex
	withhold  int
	batchGets int
	next      *http.Client
}

func (h *throttlingHTTP) Do(r *http.Request) (*http.Response, error) {
	res, err := h.next.Do(r)
	if err != nil || r.Header.Get("X-Amz-Target") != "DynamoDB_20120810.BatchGetItem" || res.StatusCode != http.StatusOK {
		return res, err
	}
	h.mu.Lock()
	h.batchGets++
	throttle := h.batchGets <= h.withhold
	h.mu.Unlock()
	if !throttle {
		return res, nil
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return nil, err
	}
	var out struct {
		Responses       map[string][]map[string]json.RawMessage
		UnprocessedKeys map[string]map[string]any
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, err
	}
	out.UnprocessedKeys = map[string]map[string]any{}
	for table, items := range out.Responses {
		var kept []map[string]json.RawMessage
		var keys []map[string]json.RawMessage
		for i, it := range items {
			if i%2 == 0 {
				kept = append(kept, it)
			} else {
				keys = append(keys, map[string]json.RawMessage{"pk": it["pk"], "sk": it["sk"]})
			}
		}
		out.Responses[table] = kept
		if len(keys) > 0 {
			out.UnprocessedKeys[table] = map[string]any{"Keys": keys, "ConsistentRead": true}
		}
	}
	body, err = json.Marshal(out)
	if err != nil {
		return nil, err
	}
	res.Header.Del("X-Amz-Crc32") // the body changed
	res.Header.Set("Content-Length", strconv.Itoa(len(body)))
	res.ContentLength = int64(len(body))
	res.Body = io.NopCloser(bytes.NewReader(body))
	return res, nil
}

// TestGetManyRetriesUnprocessedKeys: keys BatchGetItem leaves unprocessed are asked
// again until every item is read.
func TestGetManyRetriesUnprocessedKeys(t *testing.T) {
	endpoint := testkit.Dynalite(t)
	h := &throttlingHTTP{withhold: 3, next: &http.Client{}}
	client := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider("firmo-test", "firmo-test", ""),
		BaseEndpoint: aws.String(endpoint),
		HTTPClient:   h,
	})
	ctx := context.Background()
	table := fmt.Sprintf("firmo-batch-%d", time.Now().UnixNano())
	if err := dynamokv.EnsureTable(ctx, client, table); err != nil {
		t.Fatal(err)
	}
	s := dynamokv.New(client, table)
	var keys []kv.Key
	for i := range 150 {
		k := kv.Key{PK: "p", SK: fmt.Sprintf("k%03d", i)}
		if _, err := s.Put(ctx, k, []byte(k.SK), kv.Cond{}); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	got, err := s.GetMany(ctx, keys)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(keys) {
		t.Fatalf("GetMany read %d of %d items with unprocessed keys in the first answers", len(got), len(keys))
	}
	for _, k := range keys {
		if string(got[k].Data) != k.SK {
			t.Fatalf("GetMany[%s] = %q", k, got[k].Data)
		}
	}
	if h.batchGets <= 2 {
		t.Fatalf("%d BatchGetItem calls: the unprocessed keys were not asked again", h.batchGets)
	}
}
