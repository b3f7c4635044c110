package llm

import (
	"context"

	"github.com/firmoapi/firmo/shared/memo"
)

// Replayable wraps a client so that inside a unit of work that keeps call answers
// (memo.With: the task engine's record attempts), a completion that already finished
// in an earlier run of the unit is answered from the kept copy, marked Replayed with
// zero tokens and cost, instead of being sent again on the customer's key. identity
// names the endpoint (provider and base URL); the request is the rest of the key.
func Replayable(c Client, identity string) Client { return replayClient{c: c, id: identity} }

// ReplayableJudge is Replayable for typed judgments.
func ReplayableJudge(j Judge, identity string) Judge { return replayJudge{j: j, id: identity} }

type replayClient struct {
	c  Client
	id string
}

func (r replayClient) Complete(ctx context.Context, req Request) (Response, error) {
	resp, replayed, err := memo.Do(ctx, memo.Key("llm.complete", r.id, req), func() (Response, error) { return r.c.Complete(ctx, req) })
	if replayed {
		resp.PromptTokens, resp.CompletionTokens, resp.UsageReported, resp.SearchCalls, resp.CostUSD = 0, 0, false, 0, 0
		resp.Replayed = true
	}
	return resp, err
}

// Models passes the wrapped client's model listing through (llmconnect.Models).
func (r replayClient) Models(ctx context.Context) ([]string, error) {
	if m, ok := r.c.(interface {
		Models(ctx context.Context) ([]string, error)
	}); ok {
		return m.Models(ctx)
	}
	return nil, nil
}

type replayJudge struct {
	j  Judge
	id string
}

func (r replayJudge) Judge(ctx context.Context, req JudgeRequest) (Judgment, error) {
	out, replayed, err := memo.Do(ctx, memo.Key("llm.judge", r.id, req), func() (Judgment, error) { return r.j.Judge(ctx, req) })
	if replayed {
		out.CostUSD, out.Replayed = 0, true
	}
	return out, err
}
