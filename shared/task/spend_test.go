package task_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/tasktest"
)

// cutStore dies, as far as the engine can tell, when it is about to write the row of
// one record: the process that ran it is gone before its answer is stored.
type cutStore struct {
	kv.Store
	rowSK string
}

var errKilled = errors.New("the process was killed")

func (s cutStore) Put(ctx context.Context, key kv.Key, data []byte, cond kv.Cond) (int64, error) {
	if key.SK == s.rowSK {
		return 0, errKilled
	}
	return s.Store.Put(ctx, key, data, cond)
}

// TestCostsCountARunCutShortByACrash: a record spends (one LLM call), its process dies
// before the row is written, and the next start redoes it (Resume). cost_metadata
// reports both calls, as both were paid for on the customer's key.
func TestCostsCountARunCutShortByACrash(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "tasks.db"))
	ctx := context.Background()

	first := newRig(t, &tasktest.Echo{}, rigOptions{store: cutStore{Store: st, rowSK: "row#k1"}, noRun: true})
	ref := first.submit(t, []task.Input{{Key: "k0"}, {Key: "k1"}})
	for i, key := range []string{"k0", "k1"} {
		err := first.eng.Handle(ctx, task.Message{Ref: ref, Index: i, Key: key})
		if want := key == "k1"; (err != nil) != want {
			t.Fatalf("handle %s: %v (want an error: %v)", key, err, want)
		}
	}
	if first.echo.RunsOf("k1") != 1 {
		t.Fatalf("k1 ran %d times before the crash, want 1", first.echo.RunsOf("k1"))
	}

	second := newRig(t, &tasktest.Echo{}, rigOptions{store: st})
	if n, err := second.eng.Resume(ctx); err != nil || n != 1 {
		t.Fatalf("resume = %d, %v; want 1 task", n, err)
	}
	v := second.wait(t, ref)
	if v.Status != task.StatusCompleted || len(v.Results) != 2 || second.echo.RunsOf("k1") != 1 || second.echo.RunsOf("k0") != 0 {
		t.Fatalf("status %s with %d rows; after the restart k1 ran %d times, k0 %d; want completed, 2 rows, only k1 redone",
			v.Status, len(v.Results), second.echo.RunsOf("k1"), second.echo.RunsOf("k0"))
	}
	b, _ := json.Marshal(v.CostMetadata)
	var meta map[string]struct {
		Calls        int     `json:"calls"`
		PromptTokens *int64  `json:"prompt_tokens"`
		CostUSD      float64 `json:"est_cost_usd"`
	}
	if err := json.Unmarshal(b, &meta); err != nil {
		t.Fatal(err)
	}
	// Echo spends one call, 10 prompt tokens and 0.001 USD per run: k0 once, k1 twice.
	got := meta["test/echo-1"]
	if got.Calls != 3 || got.PromptTokens == nil || *got.PromptTokens != 30 || got.CostUSD != 0.003 || v.EstimatedCost != 0.003 {
		t.Fatalf("cost_metadata = %s, estimated_cost %v; want 3 calls, 30 prompt tokens, 0.003 USD (k1's run cut short by the crash included)", b, v.EstimatedCost)
	}
}
