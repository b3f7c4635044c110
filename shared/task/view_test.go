package task

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
)

func TestWarningsDeduplicatedRecentBounded(t *testing.T) {
	t0 := time.UnixMilli(1_000_000)
	task := Task{Warnings: []Warning{{Message: "old", At: t0}, {Message: "again", At: t0}}}
	rows := []rowDoc{
		{At: t0.Add(time.Second).UnixMilli(), Warnings: []string{"again", "b"}},
		{At: t0.Add(2 * time.Second).UnixMilli(), Warnings: []string{"a"}},
	}
	// "again" happened at t0 and t0+1s: it is kept once, at its most recent time.
	if got, want := warnings(task, rows), []string{"old", "again", "b", "a"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("warnings = %q, want %q", got, want)
	}
	var many []rowDoc
	for i := range 50 {
		many = append(many, rowDoc{At: t0.Add(time.Duration(i) * time.Second).UnixMilli(), Warnings: []string{fmt.Sprintf("w%02d", i)}})
	}
	got := warnings(Task{}, many)
	if len(got) != maxWarnings || got[0] != "w30" || got[len(got)-1] != "w49" {
		t.Fatalf("bounded warnings = %q; want the %d most recent, w30..w49", got, maxWarnings)
	}
}

func TestCosts(t *testing.T) {
	p := func(n int64) *int64 { return &n }
	spends := []spendDoc{
		{Usage: []Usage{{Provider: "openai", Model: "m1", Calls: 2, SearchCalls: 1, PromptTokens: p(100), CostUSD: 0.01}}, Search: []SearchUsage{{Provider: "serp", Model: "s1", QueriesExecuted: 2, QueriesSucceeded: 1, CostUSD: 0.002}}},
		{Usage: []Usage{{Provider: "openai", Model: "m1", Calls: 1, PromptTokens: p(50), CompletionTokens: p(7), CostUSD: 0.02}}, ExtraCost: 0.5},
		{Usage: []Usage{{Provider: "other", Model: "x", Calls: 1}}},
	}
	meta, total := costs(spends)
	b, _ := json.Marshal(meta)
	want := `{"openai/m1":{"calls":3,"search_calls":1,"prompt_tokens":150,"completion_tokens":7,"est_cost_usd":0.03},"other/x":{"calls":1,"search_calls":0,"est_cost_usd":0},"search_provider":{"provider":"serp","search_model":"s1","queries_executed":2,"queries_succeeded":1,"est_cost_usd":0.002}}`
	if string(b) != want || total != 0.532 {
		t.Fatalf("cost_metadata = %s, estimated_cost %v\nwant %s, 0.532 (typed spend folded in)", b, total, want)
	}
}

func TestProgressRoundsDown(t *testing.T) {
	for _, tc := range []struct{ done, total, want int }{{0, 3, 0}, {1, 3, 33}, {2, 3, 66}, {999, 1000, 99}, {1000, 1000, 100}, {0, 0, 0}} {
		if got := progress(tc.done, tc.total); got != tc.want {
			t.Errorf("progress(%d, %d) = %d, want %d", tc.done, tc.total, got, tc.want)
		}
	}
}

func TestColumnNameJSON(t *testing.T) {
	for _, tc := range []struct {
		in   ColumnName
		want string
	}{
		{ColumnName{Names: []string{"Answer"}}, `"Answer"`},
		{Columns("Fit", "Confidence", "Reasoning"), `["Fit","Confidence","Reasoning"]`},
		{Columns("One"), `["One"]`},
		{ColumnName{}, `[]`},
	} {
		b, err := json.Marshal(tc.in)
		if err != nil || string(b) != tc.want {
			t.Errorf("marshal %+v = %s, %v; want %s", tc.in, b, err, tc.want)
			continue
		}
		var back ColumnName
		if err := json.Unmarshal(b, &back); err != nil || (len(tc.in.Names) > 0 && !reflect.DeepEqual(back, tc.in)) {
			t.Errorf("round trip of %s = %+v, %v", b, back, err)
		}
	}
	var c ColumnName
	if err := json.Unmarshal([]byte(`3`), &c); err == nil {
		t.Error("a number was accepted as column_name")
	}
}

func TestSplitBoundsChunks(t *testing.T) {
	small := make([]Input, 1234)
	for i := range small {
		small[i] = Input{Key: fmt.Sprintf("k%d", i)}
	}
	chunks := split(small)
	if len(chunks) != 3 || len(chunks[0].Records) != 500 || chunks[2].First != 1000 || len(chunks[2].Records) != 234 {
		t.Fatalf("1,234 small records: %d chunks", len(chunks))
	}
	big := make([]Input, 10)
	for i := range big {
		big[i] = Input{Key: fmt.Sprintf("b%d", i), Data: json.RawMessage(`"` + strings.Repeat("x", 60<<10) + `"`)}
	}
	chunks = split(big)
	for i, c := range chunks {
		b, _ := json.Marshal(c)
		if len(b) > 256<<10 {
			t.Fatalf("chunk %d is %d bytes", i, len(b))
		}
	}
	if n := len(chunks); n != 4 {
		t.Fatalf("10 records of 60 KB: %d chunks, want 4 (3 per chunk)", n)
	}
}

func TestBackoff(t *testing.T) {
	e := New(Deps{Kinds: NewRegistry(), Options: Options{Retry: RetryPolicy{Attempts: 5, Base: 100 * time.Millisecond, Max: time.Second}}})
	for _, tc := range []struct {
		attempt  int
		err      error
		min, max time.Duration
	}{
		{1, apperr.Retryable(errors.New("x"), 0), 50 * time.Millisecond, 100 * time.Millisecond},
		{3, apperr.Retryable(errors.New("x"), 0), 200 * time.Millisecond, 400 * time.Millisecond},
		{9, apperr.Retryable(errors.New("x"), 0), 500 * time.Millisecond, time.Second},
		{1, apperr.Retryable(errors.New("x"), 700*time.Millisecond), 700 * time.Millisecond, 700 * time.Millisecond},
		{1, apperr.Retryable(errors.New("x"), time.Hour), time.Second, time.Second},
		{1, &apperr.Error{Kind: apperr.ErrUnavailable, RetryAfter: 700 * time.Millisecond}, 700 * time.Millisecond, 700 * time.Millisecond},
		{1, fmt.Errorf("put: %w", apperr.ErrConflict), 50 * time.Millisecond, 100 * time.Millisecond},
	} {
		for range 20 {
			if d := e.backoff(tc.attempt, tc.err); d < tc.min || d > tc.max {
				t.Fatalf("backoff(%d, %v) = %s, want %s..%s", tc.attempt, tc.err, d, tc.min, tc.max)
			}
		}
	}
}
