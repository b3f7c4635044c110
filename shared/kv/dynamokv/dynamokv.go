// Package dynamokv is the DynamoDB adapter of the kv.Store port.
//
// Table schema: hash key "pk" (S), range key "sk" (S). The document lives in "d" (B),
// its version in "v" (N), and each counter in a top-level numeric attribute "c_<name>",
// so counters move with atomic ADD updates that never touch the document. Every
// conditional write is a single UpdateItem or DeleteItem with a ConditionExpression:
// no transactions, which the local stand-in (dynalite) does not support.
package dynamokv

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
)

// Attribute names of the table schema.
const (
	attrPK          = "pk"
	attrSK          = "sk"
	attrData        = "d"
	attrVersion     = "v"
	counterPrefix   = "c_"
	tableWaitLimit  = 5 * time.Minute
	tableWaitMin    = 100 * time.Millisecond
	tableWaitMaxGap = 2 * time.Second
)

// Store implements kv.Store on one DynamoDB table.
type Store struct {
	client *dynamodb.Client
	table  string
}

var _ kv.Store = (*Store)(nil)

// IAMActions are the DynamoDB actions a Store calls, on its table only (the table has
// no indexes). template.yaml grants exactly these to every function; its test and
// TestIAMActions compare them with the code.
var IAMActions = []string{"dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:Query"}

// SetupActions are the calls of EnsureTable, which only tests and local stand-ins make
// (deployments create the table in template.yaml): no function is granted them.
var SetupActions = []string{"dynamodb:DescribeTable", "dynamodb:CreateTable"}

// New returns a store on an existing table (see EnsureTable).
func New(client *dynamodb.Client, table string) *Store {
	return &Store{client: client, table: table}
}

// Close implements kv.Store. The client belongs to the caller, so there is nothing to release.
func (s *Store) Close() error { return nil }

// EnsureTable creates the table (on-demand billing) when it does not exist and waits
// until it is ACTIVE. Deployments create the table in the SAM template; this serves
// local stand-ins and tests.
func EnsureTable(ctx context.Context, client *dynamodb.Client, name string) error {
	_, err := client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
	var missing *types.ResourceNotFoundException
	switch {
	case errors.As(err, &missing):
		if err := createTable(ctx, client, name); err != nil {
			return err
		}
	case err != nil:
		return classify(fmt.Sprintf("describe table %s", name), err)
	}
	waiter := dynamodb.NewTableExistsWaiter(client, func(o *dynamodb.TableExistsWaiterOptions) {
		o.MinDelay, o.MaxDelay = tableWaitMin, tableWaitMaxGap
	})
	if err := waiter.Wait(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, tableWaitLimit); err != nil {
		return classify(fmt.Sprintf("wait for table %s", name), err)
	}
	return nil
}

func createTable(ctx context.Context, client *dynamodb.Client, name string) error {
	_, err := client.CreateTable(ctx, &dynamodb.CreateTableInput{
		TableName:   aws.String(name),
		BillingMode: types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String(attrPK), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String(attrSK), AttributeType: types.ScalarAttributeTypeS},
		},
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String(attrPK), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String(attrSK), KeyType: types.KeyTypeRange},
		},
	})
	// Another process may have created it between our describe and create.
	var inUse *types.ResourceInUseException
	if err != nil && !errors.As(err, &inUse) {
		return classify(fmt.Sprintf("create table %s", name), err)
	}
	return nil
}

// Get implements kv.Store.
func (s *Store) Get(ctx context.Context, key kv.Key) (kv.Item, error) {
	if err := kv.ValidateKey(key); err != nil {
		return kv.Item{}, err
	}
	out, err := s.client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName:      aws.String(s.table),
		Key:            keyAttrs(key),
		ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return kv.Item{}, classify("get "+key.String(), err)
	}
	if len(out.Item) == 0 {
		return kv.Item{}, fmt.Errorf("get %s: %w", key, apperr.ErrNotFound)
	}
	return decodeItem(out.Item)
}

// batchGetKeys is BatchGetItem's limit of keys per call.
const batchGetKeys = 100

// GetMany implements kv.Store: BatchGetItem with 100 keys a call (strongly consistent,
// like Get), the keys DynamoDB leaves unprocessed (throttling, the 16 MB answer limit)
// asked again after a growing pause.
func (s *Store) GetMany(ctx context.Context, keys []kv.Key) (map[kv.Key]kv.Item, error) {
	seen := make(map[kv.Key]bool, len(keys))
	var distinct []kv.Key
	for _, k := range keys {
		if err := kv.ValidateKey(k); err != nil {
			return nil, err
		}
		if !seen[k] {
			seen[k] = true
			distinct = append(distinct, k)
		}
	}
	out := make(map[kv.Key]kv.Item, len(distinct))
	for start := 0; start < len(distinct); start += batchGetKeys {
		chunk := distinct[start:min(start+batchGetKeys, len(distinct))]
		req := make([]map[string]types.AttributeValue, len(chunk))
		for i, k := range chunk {
			req[i] = keyAttrs(k)
		}
		pending := map[string]types.KeysAndAttributes{s.table: {Keys: req, ConsistentRead: aws.Bool(true)}}
		for attempt := 0; len(pending) > 0; attempt++ {
			if attempt > 0 {
				if attempt > maxUnprocessedRetries {
					return nil, fmt.Errorf("get %d items: %d keys still unprocessed after %d tries: %w", len(distinct), len(pending[s.table].Keys), attempt, apperr.ErrUnavailable)
				}
				pause := time.Duration(1<<min(attempt-1, 6)) * 25 * time.Millisecond
				select {
				case <-ctx.Done():
					return nil, ctx.Err()
				case <-time.After(pause):
				}
			}
			res, err := s.client.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: pending})
			if err != nil {
				return nil, classify(fmt.Sprintf("get %d items", len(chunk)), err)
			}
			for _, raw := range res.Responses[s.table] {
				it, err := decodeItem(raw)
				if err != nil {
					return nil, err
				}
				out[it.Key] = it
			}
			pending = res.UnprocessedKeys
			if len(pending[s.table].Keys) == 0 {
				pending = nil
			}
		}
	}
	return out, nil
}

// maxUnprocessedRetries bounds the tries of keys BatchGetItem leaves unprocessed (about
// 3 s of pauses in all).
const maxUnprocessedRetries = 8

// Put implements kv.Store.
func (s *Store) Put(ctx context.Context, key kv.Key, data []byte, cond kv.Cond) (int64, error) {
	if err := kv.ValidateKey(key); err != nil {
		return 0, err
	}
	values := map[string]types.AttributeValue{
		":d":    &types.AttributeValueMemberB{Value: nonNil(data)},
		":zero": num(0),
		":one":  num(1),
	}
	var conds []string
	if cond.IfAbsent {
		conds = append(conds, "attribute_not_exists(d)")
	}
	if cond.IfVersion > 0 {
		conds = append(conds, "v = :ver AND attribute_exists(d)")
		values[":ver"] = num(cond.IfVersion)
	}
	in := &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       keyAttrs(key),
		UpdateExpression:          aws.String("SET d = :d, v = if_not_exists(v, :zero) + :one"),
		ExpressionAttributeValues: values,
		ReturnValues:              types.ReturnValueUpdatedNew,
	}
	if len(conds) > 0 {
		in.ConditionExpression = aws.String(strings.Join(conds, " AND "))
	}
	out, err := s.client.UpdateItem(ctx, in)
	if err != nil {
		return 0, classify("put "+key.String(), err)
	}
	v, err := intAttr(out.Attributes, attrVersion)
	if err != nil {
		return 0, fmt.Errorf("put %s: %w", key, err)
	}
	return v, nil
}

// Add implements kv.Store.
func (s *Store) Add(ctx context.Context, key kv.Key, counter string, delta int64, cond kv.AddCond) (int64, error) {
	if err := kv.ValidateKey(key); err != nil {
		return 0, err
	}
	if err := kv.ValidateCounter(counter); err != nil {
		return 0, err
	}
	attr := counterPrefix + counter
	in := &dynamodb.UpdateItemInput{
		TableName:                 aws.String(s.table),
		Key:                       keyAttrs(key),
		UpdateExpression:          aws.String("ADD #c :delta"),
		ExpressionAttributeNames:  map[string]string{"#c": attr},
		ExpressionAttributeValues: map[string]types.AttributeValue{":delta": num(delta)},
		ReturnValues:              types.ReturnValueUpdatedNew,
	}
	if cond.Min != nil {
		expr, need, err := minCondition(*cond.Min, delta)
		if err != nil {
			return 0, fmt.Errorf("add %s.%s: %w", key, counter, err)
		}
		in.ConditionExpression = aws.String(expr)
		in.ExpressionAttributeValues[":need"] = num(need)
	}
	out, err := s.client.UpdateItem(ctx, in)
	if err != nil {
		return 0, classify(fmt.Sprintf("add %s.%s", key, counter), err)
	}
	v, err := intAttr(out.Attributes, attr)
	if err != nil {
		return 0, fmt.Errorf("add %s.%s: %w", key, counter, err)
	}
	return v, nil
}

// minCondition states "counter + delta >= min" as a condition on the stored counter:
// counter >= min - delta. A missing counter counts as 0, so it passes exactly when
// delta >= min. A failed condition writes nothing, so a refused Add never creates the item.
func minCondition(min, delta int64) (expr string, need int64, err error) {
	need = min - delta
	if (delta > 0 && need > min) || (delta < 0 && need < min) {
		return "", 0, fmt.Errorf("min %d with delta %d overflows: %w", min, delta, apperr.ErrInvalid)
	}
	if delta < min {
		return "attribute_exists(#c) AND #c >= :need", need, nil
	}
	return "attribute_not_exists(#c) OR #c >= :need", need, nil
}

// Query implements kv.Store.
//
// DynamoDB may hand back a LastEvaluatedKey although nothing follows, and may stop
// short of Limit at its 1 MB page size. So Query reads until it has one item more than
// the page holds (or the partition ends): Next is set only when that extra item exists.
func (s *Store) Query(ctx context.Context, pk string, opts kv.QueryOptions) (kv.Page, error) {
	if err := kv.ValidateKey(kv.Key{PK: pk, SK: "-"}); err != nil {
		return kv.Page{}, err
	}
	in, err := s.queryInput(pk, opts)
	if err != nil {
		return kv.Page{}, err
	}
	limit := opts.PageSize()
	var items []kv.Item
	for {
		in.Limit = aws.Int32(int32(limit + 1 - len(items)))
		out, err := s.client.Query(ctx, in)
		if err != nil {
			return kv.Page{}, classify("query "+pk, err)
		}
		for _, raw := range out.Items {
			it, err := decodeItem(raw)
			if err != nil {
				return kv.Page{}, fmt.Errorf("query %s: %w", pk, err)
			}
			items = append(items, it)
		}
		if len(items) > limit || len(out.LastEvaluatedKey) == 0 {
			break
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	var page kv.Page
	if len(items) > limit {
		items = items[:limit]
		page.Next = base64.RawURLEncoding.EncodeToString([]byte(items[limit-1].SK))
	}
	page.Items = items
	return page, nil
}

func (s *Store) queryInput(pk string, opts kv.QueryOptions) (*dynamodb.QueryInput, error) {
	keyCond := "pk = :pk"
	values := map[string]types.AttributeValue{":pk": str(pk)}
	if opts.Prefix != "" {
		keyCond += " AND begins_with(sk, :prefix)"
		values[":prefix"] = str(opts.Prefix)
	}
	in := &dynamodb.QueryInput{
		TableName:                 aws.String(s.table),
		KeyConditionExpression:    aws.String(keyCond),
		ExpressionAttributeValues: values,
		ScanIndexForward:          aws.Bool(!opts.Reverse),
		ConsistentRead:            aws.Bool(true),
	}
	if opts.Cursor != "" {
		after, err := decodeCursor(pk, opts)
		if err != nil {
			return nil, err
		}
		in.ExclusiveStartKey = keyAttrs(kv.Key{PK: pk, SK: after})
	}
	return in, nil
}

// decodeCursor reads the sort key a cursor resumes after. DynamoDB rejects a start key
// outside the key condition, so a cursor from another prefix is refused here as invalid.
func decodeCursor(pk string, opts kv.QueryOptions) (string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(opts.Cursor)
	if err != nil {
		return "", fmt.Errorf("query cursor: %w", apperr.ErrInvalid)
	}
	after := string(raw)
	if kv.ValidateKey(kv.Key{PK: pk, SK: after}) != nil || !strings.HasPrefix(after, opts.Prefix) {
		return "", fmt.Errorf("query cursor: %w", apperr.ErrInvalid)
	}
	return after, nil
}

// Delete implements kv.Store.
func (s *Store) Delete(ctx context.Context, key kv.Key, cond kv.Cond) error {
	if err := kv.ValidateKey(key); err != nil {
		return err
	}
	in := &dynamodb.DeleteItemInput{
		TableName: aws.String(s.table),
		Key:       keyAttrs(key),
	}
	if cond.IfVersion > 0 {
		// Only a Put sets v, so this also fails for a missing item, as the port wants.
		in.ConditionExpression = aws.String("v = :ver")
		in.ExpressionAttributeValues = map[string]types.AttributeValue{":ver": num(cond.IfVersion)}
	}
	if _, err := s.client.DeleteItem(ctx, in); err != nil {
		return classify("delete "+key.String(), err)
	}
	return nil
}

func keyAttrs(k kv.Key) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{attrPK: str(k.PK), attrSK: str(k.SK)}
}

func str(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }

func num(n int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(n, 10)}
}

// nonNil keeps an empty document an empty binary value rather than an absent one.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

var errCorrupt = errors.New("dynamokv: malformed item")

func decodeItem(raw map[string]types.AttributeValue) (kv.Item, error) {
	var it kv.Item
	for name, av := range raw {
		switch {
		case name == attrPK || name == attrSK:
			s, ok := av.(*types.AttributeValueMemberS)
			if !ok {
				return kv.Item{}, fmt.Errorf("%w: %s is not a string", errCorrupt, name)
			}
			if name == attrPK {
				it.PK = s.Value
			} else {
				it.SK = s.Value
			}
		case name == attrData:
			b, ok := av.(*types.AttributeValueMemberB)
			if !ok {
				return kv.Item{}, fmt.Errorf("%w: %s is not binary", errCorrupt, name)
			}
			it.Data = b.Value
		case name == attrVersion:
			v, err := intValue(av)
			if err != nil {
				return kv.Item{}, fmt.Errorf("%s: %w", name, err)
			}
			it.Version = v
		case strings.HasPrefix(name, counterPrefix):
			v, err := intValue(av)
			if err != nil {
				return kv.Item{}, fmt.Errorf("%s: %w", name, err)
			}
			if it.Counters == nil {
				it.Counters = map[string]int64{}
			}
			it.Counters[strings.TrimPrefix(name, counterPrefix)] = v
		}
	}
	return it, nil
}

func intAttr(attrs map[string]types.AttributeValue, name string) (int64, error) {
	av, ok := attrs[name]
	if !ok {
		return 0, fmt.Errorf("%w: %s missing from response", errCorrupt, name)
	}
	return intValue(av)
}

func intValue(av types.AttributeValue) (int64, error) {
	n, ok := av.(*types.AttributeValueMemberN)
	if !ok {
		return 0, fmt.Errorf("%w: not a number", errCorrupt)
	}
	v, err := strconv.ParseInt(n.Value, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %v", errCorrupt, err)
	}
	return v, nil
}

// classify wraps an SDK error with the apperr kind callers act on: a failed condition
// is a conflict, throttling and transport failures mean DynamoDB is unavailable, and
// anything else (a missing table, a rejected request) is an internal error.
func classify(op string, err error) error {
	var condFailed *types.ConditionalCheckFailedException
	if errors.As(err, &condFailed) {
		return fmt.Errorf("%s: condition failed: %w", op, apperr.ErrConflict)
	}
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) {
		// No answer from the service: refused connection, DNS, timeout, cancellation.
		return fmt.Errorf("%s: %w: %w", op, apperr.ErrUnavailable, err)
	}
	var resp *awshttp.ResponseError
	serverFault := apiErr.ErrorFault() == smithy.FaultServer ||
		errors.As(err, &resp) && resp.HTTPStatusCode() >= 500
	switch code := apiErr.ErrorCode(); {
	case serverFault, code == "ProvisionedThroughputExceededException", code == "RequestLimitExceeded",
		code == "ThrottlingException", code == "LimitExceededException":
		return fmt.Errorf("%s: %w: %w", op, apperr.ErrUnavailable, err)
	case code == "ValidationException" && strings.Contains(apiErr.ErrorMessage(), "Item size"):
		return fmt.Errorf("%s: %w: %w", op, apperr.ErrTooLarge, err)
	}
	return fmt.Errorf("%s: %w: %w", op, apperr.ErrInternal, err)
}
