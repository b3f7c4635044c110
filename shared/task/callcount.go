package task

import (
	"context"
	"sync"

	"github.com/google/uuid"

	"github.com/firmoapi/firmo/shared/memo"
)

// A model call on the customer's keys is counted in cost_metadata when it starts, not
// when its answer comes back: a process killed with calls in flight (kill -9, a Lambda
// timing out) never writes the attempt's Result, yet the provider counts those calls.
// CallStarted writes a spend item of one call before the processor sends the request;
// once the attempt ends, the calls already counted are taken out of its Result's Usage
// (which keeps their tokens and cost), so a call is counted once either way.

type callsKey struct{}

// callLog is one attempt's calls counted at their start, by provider/model.
type callLog struct {
	e       *Engine
	m       Message
	attempt int

	mu      sync.Mutex
	counted map[string]int
}

func (e *Engine) withCallLog(ctx context.Context, m Message, attempt int) (context.Context, *callLog) {
	l := &callLog{e: e, m: m, attempt: attempt, counted: map[string]int{}}
	return context.WithValue(ctx, callsKey{}, l), l
}

// CountCalls returns ctx for a model call through a replayable client (llm.Replayable):
// the call is counted as it starts (CallStarted) when it is really made, and not when its
// answer is replayed from an earlier run of the record, which counted it then.
func CountCalls(ctx context.Context, provider, model string) context.Context {
	return memo.OnCall(ctx, func() { CallStarted(ctx, provider, model) })
}

// CallStarted counts one call of provider's model in the task record ctx runs for (a
// Processor's ctx), before the call is sent. Outside a task record it does nothing. A
// count that cannot be written is left to the attempt's Result, as before.
func CallStarted(ctx context.Context, provider, model string) {
	l, _ := ctx.Value(callsKey{}).(*callLog)
	if l == nil {
		return
	}
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), spendWrite)
	defer cancel()
	sp := spendDoc{Key: l.m.Key, Attempt: l.attempt, Usage: []Usage{{Provider: provider, Model: model, Calls: 1}}, At: l.e.opts.Now().UnixMilli()}
	if err := l.e.store.putSpend(wctx, l.m.Ref, uuid.NewString(), sp); err != nil {
		l.e.opts.Log.Warn("count a model call at its start", "task", l.m.Ref.String(), "key", l.m.Key, "err", err)
		return
	}
	l.mu.Lock()
	l.counted[provider+"/"+model]++
	l.mu.Unlock()
}

// settle is res with the calls counted at their start taken out of its Usage.
func (l *callLog) settle(res Result) Result {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.counted) == 0 || len(res.Usage) == 0 {
		return res
	}
	usage := make([]Usage, len(res.Usage))
	copy(usage, res.Usage)
	for i, u := range usage {
		k := u.Provider + "/" + u.Model
		n := min(l.counted[k], u.Calls)
		usage[i].Calls -= n
		l.counted[k] -= n
	}
	res.Usage = usage
	return res
}
