package research

import (
	"context"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/task"
)

// setBalance sets the rig organisation's balance to exactly credits.
func (r *rig) setBalance(t *testing.T, credits int64) {
	t.Helper()
	bal, err := r.bill.Balance(context.Background(), r.org.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.store.Add(context.Background(), kv.Key{PK: "org#" + r.org.ID, SK: "profile"}, account.CreditsCounter, credits-bal, kv.AddCond{}); err != nil {
		t.Fatal(err)
	}
}

// The review's finding: at 0 credits every row was refused, yet the organisation's
// LLM endpoint (any server a custom integration names) had received every stored
// profile, and nothing was charged. The profile is now paid for before the prompt is
// built and sent: a 0-credit organisation's research and LLM ICP validation send no
// request at all, and 1 credit on FREE (500 per 1,000 companies) lets exactly two
// profiles go.
func TestProfilesLeaveOnlyOncePaidFor(t *testing.T) {
	doms := []string{"a.com", "b.com", "c.com", "d.com", "e.com"}
	runs := []struct {
		name   string
		submit func(r *rig) (task.Submitted, error)
	}{
		{"gen/process profile", func(r *rig) (task.Submitted, error) {
			ctx := billing.WithRoute(context.Background(), "POST /v1/gen/process")
			return r.svc.SubmitCompanies(ctx, r.org.ID, CompanyRequest{Options: Options{Query: "Summarise.", ContextMode: ModeProfile}, Domains: doms})
		}},
		{"gen/process website", func(r *rig) (task.Submitted, error) {
			ctx := billing.WithRoute(context.Background(), "POST /v1/gen/process")
			return r.svc.SubmitCompanies(ctx, r.org.ID, CompanyRequest{Options: Options{Query: "Summarise.", ContextMode: ModeWebsite}, Domains: doms})
		}},
		{"validate/icp", func(r *rig) (task.Submitted, error) {
			ctx := billing.WithRoute(context.Background(), "POST /v1/validate/icp")
			return r.svc.SubmitICP(ctx, r.org.ID, ICPRequest{ICPText: testICP, Domains: doms, ContextMode: ModeWebsite})
		}},
	}
	for _, run := range runs {
		for _, credits := range []int64{0, 1} {
			t.Run(run.name+"/"+map[int64]string{0: "0 credits", 1: "1 credit"}[credits], func(t *testing.T) {
				r := newRig(t)
				r.setBalance(t, credits)
				sub, err := run.submit(r)
				if err != nil {
					if credits == 0 && strings.Contains(err.Error(), "credits") {
						if n := len(r.chat.all()); n != 0 {
							t.Fatalf("refused at submit, yet the LLM got %d requests", n)
						}
						return // refused before any record ran: nothing sent either
					}
					t.Fatal(err)
				}
				r.wait(t, sub.TaskID)
				wantCalls := 2 * int(credits)
				if got := len(r.chat.all()); got != wantCalls {
					t.Errorf("the LLM got %d requests, want %d (the profiles paid for)", got, wantCalls)
				}
				if bal, _ := r.bill.Balance(context.Background(), r.org.ID); bal != 0 {
					t.Errorf("balance %d after the run, want 0", bal)
				}
			})
		}
	}
}
