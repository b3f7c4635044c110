package awsiam_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/awsiam"
)

func TestSourceCalls(t *testing.T) {
	calls, err := awsiam.SourceCalls("testdata/fake")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"dynamodb:DescribeTable", // NewTableExistsWaiter
		"dynamodb:GetItem",
		"dynamodb:Query", // NewQueryPaginator
		"dynamodb:UpdateItem",
		"es:ESHttpPost",   // SearchReq
		"es:ESHttpPut",    // IndicesCreateReq
		"sqs:SendMessage", // SendMessageBatch is authorized as SendMessage
	}
	if got := calls.Actions(); !slices.Equal(got, want) {
		t.Errorf("actions = %v, want %v", got, want)
	}
	if got := strings.Join(calls["dynamodb:GetItem"], ","); got != "fake.go:19" {
		t.Errorf("GetItem found at %q, want fake.go:19", got)
	}
}

func TestCheckReportsBothWays(t *testing.T) {
	rec := &recorder{}
	awsiam.Check(rec, "testdata/fake", []string{"dynamodb:GetItem", "dynamodb:DeleteItem"}, []string{"dynamodb:DescribeTable"})
	msgs := strings.Join(rec.errors, "\n")
	for _, want := range []string{"dynamodb:UpdateItem (fake.go:20)", "IAMActions lists dynamodb:DeleteItem"} {
		if !strings.Contains(msgs, want) {
			t.Errorf("Check's errors lack %q:\n%s", want, msgs)
		}
	}
	if strings.Contains(msgs, "GetItem") || strings.Contains(msgs, "DescribeTable") {
		t.Errorf("Check reported a listed action that is called:\n%s", msgs)
	}
}

// recorder is a testing.TB that keeps errors instead of failing.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatal(args ...any) { panic(args) }
