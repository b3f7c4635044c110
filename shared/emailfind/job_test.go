package emailfind

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/emailpattern"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/kv/dynamokv"
	"github.com/firmoapi/firmo/shared/smtpverify"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/memqueue"
	"github.com/firmoapi/firmo/shared/testkit"
)

// jobRig is the email service on a real task engine (embedded queue and workflow)
// over bbolt, with real accounts and billing.
type jobRig struct {
	store    kv.Store
	svc      *Service
	engine   *task.Engine
	accounts *account.Service
	billing  *billing.Service
	org      account.Org
	stop     func(ctx context.Context) // stops the workers: in-flight jobs are cut short when ctx ends
}

func newJobRig(t *testing.T, check Checker) *jobRig {
	t.Helper()
	st, err := boltkv.Open(filepath.Join(t.TempDir(), "email.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return newJobRigOn(t, st, check)
}

func newJobRigOn(t *testing.T, st kv.Store, check Checker) *jobRig {
	t.Helper()
	return newJobRigFinder(t, st, NewFinder(FinderDeps{Checker: check, VerifyBudget: 5 * time.Second, EscalateBudget: 10 * time.Second}))
}

func newJobRigFinder(t *testing.T, st kv.Store, finder *Finder) *jobRig {
	t.Helper()
	q := memqueue.New(memqueue.Options{Workers: 16, RetryDelay: 5 * time.Millisecond})
	flow := memqueue.NewWorkflow(memqueue.FlowOptions{PollEvery: 10 * time.Millisecond, StepRetryDelay: 5 * time.Millisecond})
	eng := task.New(task.Deps{Store: st, Kinds: task.NewRegistry(), Queue: q, Flow: flow, Limiter: task.NewLimiter(nil, 50),
		Options: task.Options{Retry: task.RetryPolicy{Attempts: 3, Base: time.Millisecond, Max: 5 * time.Millisecond}}})
	accounts, bill := account.New(st), billing.New(st)
	svc, err := NewService(ServiceDeps{Store: st, Tasks: eng, Finder: finder, Billing: bill, Orgs: accounts})
	if err != nil {
		t.Fatal(err)
	}
	q.Run(eng)
	flow.Run(eng)
	stop := func(ctx context.Context) {
		flow.Close()
		q.Close(ctx)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		stop(ctx)
	})
	org, _, err := accounts.EnsureOrg(context.Background(), "Acme", account.PlanFree)
	if err != nil {
		t.Fatal(err)
	}
	return &jobRig{store: st, svc: svc, engine: eng, accounts: accounts, billing: bill, org: org, stop: stop}
}

// wait polls the batch until completed plus failed equals total.
func (r *jobRig) wait(t *testing.T, orgID, batchID string) BatchView {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		v, err := r.svc.Batch(context.Background(), orgID, batchID)
		if err != nil {
			t.Fatal(err)
		}
		if v.Completed+v.Failed == v.Total {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("batch not finished: %+v", v)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (r *jobRig) balance(t *testing.T) int64 {
	t.Helper()
	org, err := r.accounts.GetOrg(context.Background(), r.org.ID)
	if err != nil {
		t.Fatal(err)
	}
	return org.Credits
}

func wantInvalid(t *testing.T, err error, field string) {
	t.Helper()
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Kind != apperr.ErrInvalid || ae.Field != field {
		t.Fatalf("error = %v, want a 422 naming %q", err, field)
	}
}

func people(n int, domain string) []Request {
	out := make([]Request, n)
	for i := range out {
		out[i] = Request{FirstName: "Jane", LastName: fmt.Sprintf("Doe%d", i), Domain: domain}
	}
	return out
}

func TestSubmitValidation(t *testing.T) {
	r := newJobRig(t, &fakeChecker{})
	ctx := context.Background()
	ok := Request{FirstName: "Jane", LastName: "Doe", Domain: "acme.com"}
	tests := []struct {
		name  string
		batch Batch
		field string
	}{
		{"empty", Batch{}, "requests"},
		{"501", Batch{Requests: people(501, "acme.com")}, "requests"},
		{"bad round", Batch{Requests: []Request{ok}, Round: "deep"}, "round"},
		{"refs without source", Batch{Requests: []Request{ok}, Refs: []string{"1"}}, "refs"},
		{"refs misaligned", Batch{Requests: []Request{ok, ok}, Refs: []string{"1"}, SourceQueryID: "q1"}, "refs"},
		{"blank ref", Batch{Requests: []Request{ok}, Refs: []string{" "}, SourceQueryID: "q1"}, "refs[0]"},
		{"missing first name", Batch{Requests: []Request{ok, {LastName: "Doe", Domain: "acme.com"}}}, "requests[1].first_name"},
		{"unusable last name", Batch{Requests: []Request{{FirstName: "Ivan", LastName: "Петров", Domain: "acme.com"}}}, "requests[0].last_name"},
		{"bad domain", Batch{Requests: []Request{{FirstName: "Jane", LastName: "Doe", Domain: "not a domain"}}}, "requests[0].domain"},
		{"bad pattern", Batch{Requests: []Request{{FirstName: "Jane", LastName: "Doe", Domain: "acme.com", KnownPattern: "{middle}"}}}, "requests[0].known_pattern"},
		{"single names fields bare", Batch{Requests: []Request{{FirstName: "Jane", Domain: "acme.com"}}, Single: true}, "last_name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := r.svc.Submit(ctx, r.org.ID, tt.batch)
			wantInvalid(t, err, tt.field)
		})
	}
	// Nothing was stored by the refused submissions.
	page, err := r.store.Query(ctx, "emailjob#"+r.org.ID, kv.QueryOptions{})
	if err != nil || len(page.Items) != 0 {
		t.Fatalf("refused submissions left %d job items (%v)", len(page.Items), err)
	}
}

func TestBatchLifecycleAndBilling(t *testing.T) {
	fc := &fakeChecker{
		mailboxes: map[string][]string{"acme.com": {"jane.doe", "john.roe"}},
		catchAll:  map[string]bool{"wild.com": true},
	}
	r := newJobRig(t, fc)
	// The route the HTTP server would have put in the request's context: the jobs
	// charge under it (a route no kind falls back to, so the test sees it travel).
	const route = "POST /v1/test/email-batch"
	ctx := billing.WithRoute(context.Background(), route)
	before := r.balance(t)
	sub, err := r.svc.Submit(ctx, r.org.ID, Batch{
		Requests: []Request{
			{FirstName: "Jane", LastName: "Doe", Domain: "https://www.Acme.com/team"},
			{FirstName: "Nobody", LastName: "Here", Domain: "acme.com"},
			{FirstName: "Jane", LastName: "Doe", Domain: "wild.com", KnownPattern: "first.last"},
			{FirstName: "Jane", LastName: "Doe", Domain: "acme.com"}, // the same address again
		},
		SourceQueryID: "q-1", Refs: []string{"11", "12", "13", "14"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if sub.Total != 4 || len(sub.JobIDs) != 4 || sub.BatchID == "" {
		t.Fatalf("submitted = %+v", sub)
	}
	v := r.wait(t, r.org.ID, sub.BatchID)
	if v.Completed != 4 || v.Failed != 0 {
		t.Fatalf("batch = %+v, want 4 completed", v)
	}
	wantStatus := []string{"found", "not_found", "catch_all_pattern", "found"}
	for i, j := range v.Results {
		if j.JobID != sub.JobIDs[i] || j.Status != JobCompleted || j.Kind != "find" || j.Result == nil {
			t.Fatalf("job %d = %+v", i, j)
		}
		if j.Result.Status != wantStatus[i] {
			t.Errorf("job %d status = %s, want %s", i, j.Result.Status, wantStatus[i])
		}
		if (j.Result.Result != nil) != (wantStatus[i] == "found") {
			t.Errorf("job %d result = %+v: want an address only when found", i, j.Result.Result)
		}
	}
	if got := v.Results[0].Result; got.Domain != "acme.com" || got.Result.Email != "jane.doe@acme.com" {
		t.Errorf("job 0 = %+v, want jane.doe@acme.com on the normalized domain", got)
	}
	// One job by id, as the batch shows it (read on its route, as the HTTP server does).
	j, err := r.svc.Job(billing.WithRoute(context.Background(), JobRoute), r.org.ID, sub.JobIDs[2])
	if err != nil || j.Status != JobCompleted || j.Result.Status != "catch_all_pattern" || !j.Result.IsCatchAll {
		t.Fatalf("job = %+v, %v", j, err)
	}
	// Billing: the two found jobs deliver the same address: one charge of 2 credits
	// (FREE: 2,000 credits per 1,000 emails); nothing else bills.
	if spent := before - r.balance(t); spent != 2 {
		t.Errorf("credits spent = %d, want 2 (one found address, deduplicated)", spent)
	}
	entries, err := r.billing.Entries(ctx, r.org.ID, time.Now().AddDate(0, 0, -1), time.Now().AddDate(0, 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) == 0 {
		t.Error("no ledger entry for the found addresses")
	}
	for _, e := range entries {
		if e.Endpoint != route {
			t.Errorf("ledger entry %+v: endpoint %q, want the submitting route %q", e, e.Endpoint, route)
		}
	}
	// A later batch finding the same address again is free (90-day dedupe).
	sub2, err := r.svc.Submit(ctx, r.org.ID, Batch{Requests: []Request{{FirstName: "Jane", LastName: "Doe", Domain: "acme.com"}}, Single: true})
	if err != nil {
		t.Fatal(err)
	}
	r.wait(t, r.org.ID, sub2.BatchID)
	if spent := before - r.balance(t); spent != 2 {
		t.Errorf("credits spent after a repeat = %d, want still 2", spent)
	}
}

func TestJobStates(t *testing.T) {
	fc := &fakeChecker{mailboxes: map[string][]string{"acme.com": {"jane.doe"}}, delay: 300 * time.Millisecond}
	r := newJobRig(t, fc)
	ctx := context.Background()
	sub, err := r.svc.Submit(ctx, r.org.ID, Batch{Requests: people(3, "acme.com")})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		j, err := r.svc.Job(ctx, r.org.ID, sub.JobIDs[0])
		if err != nil {
			t.Fatal(err)
		}
		seen[j.Status] = true
		if (j.Status == JobCompleted) != (j.Result != nil) {
			t.Fatalf("job %+v: a result only when completed", j)
		}
		if j.Status == JobCompleted {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if !seen[JobProcessing] || !seen[JobCompleted] {
		t.Errorf("states seen = %v, want processing then completed", seen)
	}
	r.wait(t, r.org.ID, sub.BatchID)
}

func TestTenantIsolation(t *testing.T) {
	r := newJobRig(t, &fakeChecker{})
	ctx := context.Background()
	sub, err := r.svc.Submit(ctx, r.org.ID, Batch{Requests: people(1, "acme.com"), Single: true})
	if err != nil {
		t.Fatal(err)
	}
	other, _, err := r.accounts.EnsureOrg(ctx, "Other", account.PlanFree)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.svc.Job(ctx, other.ID, sub.JobIDs[0]); !errors.Is(err, apperr.ErrNotFound) {
		t.Errorf("another organisation's job: err = %v, want not found", err)
	}
	if _, err := r.svc.Batch(ctx, other.ID, sub.BatchID); !errors.Is(err, apperr.ErrNotFound) {
		t.Errorf("another organisation's batch: err = %v, want not found", err)
	}
	if _, err := r.svc.Job(ctx, r.org.ID, "00000000-0000-0000-0000-000000000000"); !errors.Is(err, apperr.ErrNotFound) {
		t.Errorf("unknown job: err = %v, want not found", err)
	}
	r.wait(t, r.org.ID, sub.BatchID)
}

func TestInsufficientCreditsFailsTheJob(t *testing.T) {
	fc := &fakeChecker{mailboxes: map[string][]string{"acme.com": {"jane.doe"}}}
	r := newJobRig(t, fc)
	ctx := context.Background()
	// Leave 1 credit: a found email costs 2 on FREE.
	if _, err := r.store.Add(ctx, kv.Key{PK: "org#" + r.org.ID, SK: "profile"}, account.CreditsCounter, 1-r.balance(t), kv.AddCond{}); err != nil {
		t.Fatal(err)
	}
	sub, err := r.svc.Submit(ctx, r.org.ID, Batch{Requests: []Request{
		{FirstName: "Jane", LastName: "Doe", Domain: "acme.com"},
		{FirstName: "No", LastName: "Body", Domain: "acme.com"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	v := r.wait(t, r.org.ID, sub.BatchID)
	if v.Failed != 1 || v.Completed != 1 {
		t.Fatalf("batch = %+v, want the found job failed and the other completed", v)
	}
	f := v.Results[0]
	if f.Status != JobFailed || f.Result != nil || f.Error == nil || f.Error.Code != "insufficient_credits" {
		t.Errorf("found job = %+v, want failed with insufficient_credits and no address", f)
	}
	if b := r.balance(t); b != 1 {
		t.Errorf("balance = %d, want 1 (nothing charged)", b)
	}
}

func TestBatchOf500(t *testing.T) {
	fc := &fakeChecker{mailboxes: map[string][]string{"acme.com": {"jane.doe7", "jane.doe250"}}}
	r := newJobRig(t, fc)
	sub, err := r.svc.Submit(context.Background(), r.org.ID, Batch{Requests: people(500, "acme.com")})
	if err != nil {
		t.Fatal(err)
	}
	v := r.wait(t, r.org.ID, sub.BatchID)
	if v.Total != 500 || v.Completed != 500 || len(v.Results) != 500 {
		t.Fatalf("batch: total %d completed %d failed %d results %d", v.Total, v.Completed, v.Failed, len(v.Results))
	}
	found := 0
	for i, j := range v.Results {
		if j.JobID != sub.JobIDs[i] {
			t.Fatalf("result %d is job %s, want %s (submission order)", i, j.JobID, sub.JobIDs[i])
		}
		if j.Result.Status == "found" {
			found++
		}
	}
	if found != 2 {
		t.Errorf("found = %d, want 2", found)
	}
}

// failingStore refuses writes of job items, as a storage outage in the middle of a
// submission would.
type failingStore struct {
	kv.Store
	failJobs bool
}

func (f *failingStore) Put(ctx context.Context, key kv.Key, data []byte, cond kv.Cond) (int64, error) {
	if f.failJobs && strings.HasPrefix(key.PK, "emailjob#") {
		return 0, fmt.Errorf("put %s: %w", key, apperr.ErrUnavailable)
	}
	return f.Store.Put(ctx, key, data, cond)
}

func TestSubmitLeavesNothingWhenStorageFails(t *testing.T) {
	st, err := boltkv.Open(filepath.Join(t.TempDir(), "email.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	fs := &failingStore{Store: st}
	r := newJobRigOn(t, fs, &fakeChecker{delay: time.Second})
	ctx := context.Background()
	fs.failJobs = true
	_, err = r.svc.Submit(ctx, r.org.ID, Batch{Requests: people(250, "acme.com")})
	if !errors.Is(err, apperr.ErrUnavailable) {
		t.Fatalf("err = %v, want the storage failure", err)
	}
	for _, pk := range []string{"emailjob#" + r.org.ID, "emailbatch#" + r.org.ID} {
		page, err := st.Query(ctx, pk, kv.QueryOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			if it.Data != nil {
				t.Errorf("left behind: %s", it.Key)
			}
		}
	}
}

// TestMaxSizeBatchOnDynamoDB stores a batch of 500 requests with every field at its
// limit on the DynamoDB stand-in, whose items stop at 400 KB.
func TestMaxSizeBatchOnDynamoDB(t *testing.T) {
	endpoint := testkit.Dynalite(t)
	client := testkit.DynamoClient(t, endpoint)
	if err := dynamokv.EnsureTable(context.Background(), client, "email"); err != nil {
		t.Fatal(err)
	}
	r := newJobRigOn(t, dynamokv.New(client, "email"), &fakeChecker{delay: time.Minute})
	long := strings.Repeat("é", maxNameRunes)
	reqs := make([]Request, MaxBatch)
	refs := make([]string, MaxBatch)
	for i := range reqs {
		reqs[i] = Request{FirstName: long, LastName: long, Domain: strings.Repeat("a", 60) + "." + strings.Repeat("b", 60) + ".example.com",
			KnownPattern: "{first}.{last}@" + strings.Repeat("x", 80) + ".com"}
		refs[i] = strings.Repeat("r", maxRefBytes-4) + fmt.Sprintf("%04d", i)
	}
	ctx := context.Background()
	sub, err := r.svc.Submit(ctx, r.org.ID, Batch{Requests: reqs, Refs: refs, SourceQueryID: "q"})
	if err != nil {
		t.Fatal(err)
	}
	v, err := r.svc.Batch(ctx, r.org.ID, sub.BatchID)
	if err != nil {
		t.Fatal(err)
	}
	if v.Total != MaxBatch || len(v.Results) != MaxBatch {
		t.Fatalf("batch has %d jobs, want %d", len(v.Results), MaxBatch)
	}
	for i, j := range v.Results {
		if j.JobID != sub.JobIDs[i] {
			t.Fatalf("job %d is %s, want %s", i, j.JobID, sub.JobIDs[i])
		}
	}
	j, err := r.svc.Job(ctx, r.org.ID, sub.JobIDs[MaxBatch-1])
	if err != nil || j.JobID != sub.JobIDs[MaxBatch-1] {
		t.Fatalf("last job = %+v, %v", j, err)
	}
	r.engine.Cancel(ctx, task.Ref{OrgID: r.org.ID, TaskID: sub.BatchID})
}

// blockingChecker holds every check until its context ends, as a conversation in
// flight when the process dies.
type blockingChecker struct{}

func (blockingChecker) Check(ctx context.Context, _ string, _ []string, _ smtpverify.Options) smtpverify.Outcome {
	<-ctx.Done()
	return smtpverify.Outcome{Status: smtpverify.Timeout, Accepted: -1, Attempts: 1}
}

// liveChecker answers like smtpverify.Verifier: with its budget already spent, the MX
// lookup fails at once and the outcome is timeout with no attempt. It counts the
// checks that had time to talk to the host.
type liveChecker struct {
	fakeChecker
	live atomic.Int64
}

func (c *liveChecker) Check(ctx context.Context, domain string, locals []string, opt smtpverify.Options) smtpverify.Outcome {
	if ctx.Err() != nil {
		return smtpverify.Outcome{Status: smtpverify.Timeout, Accepted: -1}
	}
	c.live.Add(1)
	return c.fakeChecker.Check(ctx, domain, locals, opt)
}

// coldPatterns answers its first question after wait, ignoring the caller's deadline,
// as the contact store read once on first use (emailapp's learner) after a restart.
type coldPatterns struct {
	wait time.Duration
	once sync.Once
}

func (p *coldPatterns) CompanyPattern(context.Context, string) (emailpattern.Pattern, bool, error) {
	p.once.Do(func() { time.Sleep(p.wait) })
	return emailpattern.Pattern{}, false, nil
}

// TestJobsInFlightAtACrashAreVerifiedAgain: jobs in flight when the process stops are
// redone after the restart (Resume), each with its own SMTP budget. The restarted
// process is cold (the company patterns take longer than a whole budget to answer):
// the redone jobs still hold their conversations and are found, never answered
// timeout without an attempt.
func TestJobsInFlightAtACrashAreVerifiedAgain(t *testing.T) {
	st, err := boltkv.Open(filepath.Join(t.TempDir(), "email.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ctx := context.Background()

	first := newJobRigFinder(t, st, NewFinder(FinderDeps{Checker: blockingChecker{}, VerifyBudget: time.Minute}))
	sub, err := first.svc.Submit(ctx, first.org.ID, Batch{Requests: people(3, "acme.com")})
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		v, err := first.svc.Batch(ctx, first.org.ID, sub.BatchID)
		if err != nil {
			t.Fatal(err)
		}
		processing := 0
		for _, j := range v.Results {
			if j.Status == JobProcessing {
				processing++
			}
		}
		if processing == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("jobs never all in flight: %+v", v.Results)
		}
	}
	expired, cancel := context.WithCancel(ctx)
	cancel()
	first.stop(expired) // the process goes: the conversations in flight are cut short

	check := &liveChecker{fakeChecker: fakeChecker{mailboxes: map[string][]string{"acme.com": {"jane.doe0", "jane.doe1", "jane.doe2"}}}}
	budget := 300 * time.Millisecond
	second := newJobRigFinder(t, st, NewFinder(FinderDeps{Checker: check, Patterns: &coldPatterns{wait: 2 * budget}, VerifyBudget: budget}))
	if n, err := second.engine.Resume(ctx); err != nil || n != 1 {
		t.Fatalf("resume = %d, %v; want 1 task", n, err)
	}
	v := second.wait(t, first.org.ID, sub.BatchID)
	for _, j := range v.Results {
		if j.Status != JobCompleted || j.Result == nil || j.Result.Status != "found" || j.Result.Attempts < 1 {
			b, _ := json.Marshal(j)
			t.Errorf("job after the restart = %s; want completed, found after at least one SMTP attempt", b)
		}
	}
	if n := check.live.Load(); n < 3 {
		t.Errorf("%d checks talked to the mail host after the restart, want one per job (3)", n)
	}
}
