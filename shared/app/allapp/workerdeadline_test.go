package allapp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/firmoapi/firmo/shared/task"
)

// typedEndpoint speaks the typed provider's wire format (an OpenAI-compatible chat
// completion with log-probabilities: shared/llm/typedllm). While hang is set it never
// answers: the request waits until the caller gives up.
type typedEndpoint struct {
	*httptest.Server
	calls atomic.Int64
	hang  atomic.Bool
}

func newTypedEndpoint(t *testing.T) *typedEndpoint {
	e := &typedEndpoint{}
	release := make(chan struct{})
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			http.NotFound(w, r)
			return
		}
		e.calls.Add(1)
		if e.hang.Load() {
			select {
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"t1","object":"chat.completion","created":1,"model":"judge-1","choices":[{"index":0,"finish_reason":"stop",`+
			`"message":{"role":"assistant","content":"Yes"},"logprobs":{"content":[{"token":"Yes","logprob":-0.05,"bytes":null,`+
			`"top_logprobs":[{"token":"Yes","logprob":-0.05,"bytes":null},{"token":"No","logprob":-3.0,"bytes":null}]}]}}],`+
			`"usage":{"prompt_tokens":20,"completion_tokens":1,"total_tokens":21}}`)
	}))
	t.Cleanup(e.Close)
	t.Cleanup(func() { close(release) }) // runs first: a hung handler returns, then Close
	return e
}

// TestWorkerDeadlineGivesBackAndReplays is the worker's deadline and idempotency: a
// batch research record whose generative call answers and whose typed judgment hangs
// is cut short before the invocation's deadline and given back in BatchItemFailures;
// its redelivery answers the generative column from the kept call (no second call to
// the model) and makes only the judgment that never finished.
func TestWorkerDeadlineGivesBackAndReplays(t *testing.T) {
	gen := newOpenAICompatible(t)
	typed := newTypedEndpoint(t)
	hosts := strings.TrimPrefix(gen.URL, "http://") + "," + strings.TrimPrefix(typed.URL, "http://")
	e := newEnv(t, map[string]string{"FIRMO_FETCH_ALLOW_HOSTS": hosts})
	k := key(e.demoKey)
	in := e.do(t, "POST", "/v1/llm-providers/config", k, fmt.Sprintf(`{"integration_name":"gen","provider":"custom","api_key":"sk-gen-0123456789","model_name":"test-model","base_url":%q}`, gen.URL+"/v1"))
	genID, _ := in.body["integration_id"].(string)
	if genID == "" {
		t.Fatalf("create generative integration: %d %s", in.status, in.raw)
	}
	in = e.do(t, "POST", "/v1/llm-providers/config", k, fmt.Sprintf(`{"integration_name":"judge","provider":"typed","api_key":"sk-typed-0123456789","model_name":"judge-1","base_url":%q}`, typed.URL+"/v1"))
	if in.body["integration_id"] == nil {
		t.Fatalf("create typed integration: %d %s", in.status, in.raw)
	}
	sub := e.do(t, "POST", "/v1/gen/process", k, fmt.Sprintf(`{"query":"Is the company B2B?\nWhat do they sell?","domains":["hang-example.com"],"typed_columns":true,"integration_id":%q}`, genID))
	taskID, _ := sub.body["task_id"].(string)
	if sub.status != 200 || taskID == "" {
		t.Fatalf("submit: %d %s", sub.status, sub.raw)
	}
	p, err := e.app.Accounts.Authenticate(context.Background(), e.demoKey)
	if err != nil {
		t.Fatal(err)
	}
	ref := task.Ref{OrgID: p.Org.ID, TaskID: taskID}
	body, _ := json.Marshal(task.Message{Ref: ref, Index: 0, Key: "hang-example.com"})
	ev := events.SQSEvent{Records: []events.SQSMessage{{MessageId: "m-1", Body: string(body), EventSource: "aws:sqs"}}}
	gen.mu.Lock()
	genBefore := gen.calls
	gen.mu.Unlock()
	typedBefore := typed.calls.Load()

	typed.hang.Store(true)
	const invocation = 3 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), invocation)
	start := time.Now()
	resp, err := e.app.HandleSQS(ctx, ev)
	took := time.Since(start)
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	if took >= invocation {
		t.Fatalf("the handler returned after %s, not before the invocation's deadline (%s)", took, invocation)
	}
	if len(resp.BatchItemFailures) != 1 || resp.BatchItemFailures[0].ItemIdentifier != "m-1" {
		t.Fatalf("batch item failures %+v, want the record given back", resp.BatchItemFailures)
	}
	calls := func() int {
		gen.mu.Lock()
		defer gen.mu.Unlock()
		return gen.calls - genBefore
	}
	if n, m := calls(), typed.calls.Load()-typedBefore; n != 1 || m != 1 {
		t.Fatalf("first run: %d generative and %d typed calls, want 1 and 1", n, m)
	}

	typed.hang.Store(false)
	ctx, cancel = context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err = e.app.HandleSQS(ctx, ev) // the queue delivers the given-back record again
	if err != nil || len(resp.BatchItemFailures) != 0 {
		t.Fatalf("redelivery: failures %+v, err %v", resp.BatchItemFailures, err)
	}
	if n := calls(); n != 1 {
		t.Errorf("the redelivered record called the model again: %d generative calls in all, want 1", n)
	}
	if m := typed.calls.Load() - typedBefore; m != 2 {
		t.Errorf("typed calls %d, want 2 (the judgment that never answered is made again)", m)
	}
	st := e.do(t, "GET", "/v1/gen/status/"+taskID, k, "")
	var v struct {
		Results map[string]map[string]any `json:"interim_results"`
		Cost    map[string]struct {
			Calls int `json:"calls"`
		} `json:"cost_metadata"`
	}
	if err := json.Unmarshal([]byte(st.raw), &v); err != nil {
		t.Fatal(err)
	}
	row := v.Results["hang-example.com"]
	if row["Is the company B2B"] != "Yes" || row["Answer"] != "They sell things." {
		t.Errorf("row %v, want the replayed answer and the judgment", row)
	}
	total := 0
	for _, c := range v.Cost {
		total += c.Calls
	}
	if total != 1 {
		t.Errorf("cost_metadata counts %d generative calls, want 1: %s", total, st.raw)
	}
}
