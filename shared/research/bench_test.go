package research

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/memqueue"
)

// synthRecords makes n varied company records with homepage texts of about 1,500
// characters, from a fixed seed.
func synthRecords(n int) recordSet {
	rng := rand.New(rand.NewPCG(18, 2))
	industries := []string{"SAAS", "SOFTWARE", "MARKETING_ADVERTISING", "HEALTHCARE", "FINANCIAL_SERVICES", "IT_SERVICES", "RETAIL", "MANUFACTURING"}
	sizes := []string{"1-10", "11-50", "51-200", "201-500", "501-1000", "1001-5000"}
	countries := []string{"US", "DE", "GB", "FR", "NL", "CA"}
	words := strings.Fields("payroll software platform customers teams cloud analytics secure integration marketing agency creative health clinic " +
		"patients bank payments retail store manufacturing plant engineering consulting services support pricing enterprise api developers")
	set := recordSet{recs: make(map[string]company.Record, n), home: make(map[string]string, n)}
	for i := range n {
		dom := fmt.Sprintf("company%05d.com", i)
		emp := sizes[rng.IntN(len(sizes))]
		rec := company.Record{Domain: dom, Profile: company.Profile{Domain: dom, Name: fmt.Sprintf("Company %d", i), Employees: &emp,
			Address:        company.Address{Country: countries[rng.IntN(len(countries))]},
			IndustryGroups: map[string]float64{industries[rng.IntN(len(industries))]: 0.5 + rng.Float64()/2},
			BusinessModel:  map[string]float64{[]string{"B2B", "B2C"}[rng.IntN(2)]: 0.8},
			Keywords:       map[string]float64{words[rng.IntN(len(words))]: 0.7, words[rng.IntN(len(words))]: 0.5},
			Description:    "A company that sells " + words[rng.IntN(len(words))] + " " + words[rng.IntN(len(words))] + "."}}
		set.recs[dom] = rec
		var b strings.Builder
		for b.Len() < 1500 {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		set.home[dom] = b.String()
	}
	return set
}

// noCharge is a Biller that records nothing, to measure a run without its charges.
type noCharge struct{}

func (noCharge) Accrue(context.Context, account.Org, billing.Kind, string, ...string) error {
	return nil
}

// BenchmarkNativeICP10k: one native-icp run over 10,000 domains on the embedded
// composition as shared/app wires it (bbolt, the in-process queue with 50 workers per
// lane, the workflow's default progress poll), from submission until the workflow has
// finalized the task. Companies are read from memory; the scoring, the engine and the
// charges are what is measured: /billed charges every record as batch research does
// (billing.Service on the same bbolt file), /unbilled skips the charges to show their
// share. Results: BENCHMARKS.md.
func BenchmarkNativeICP10k(b *testing.B) {
	n := benchN
	set := synthRecords(n)
	doms := make([]string, 0, n)
	for i := range n {
		doms = append(doms, fmt.Sprintf("company%05d.com", i))
	}
	for _, billed := range []bool{true, false} {
		b.Run(map[bool]string{true: "billed", false: "unbilled"}[billed], func(b *testing.B) { benchNative(b, set, doms, billed) })
	}
}

func benchNative(b *testing.B, set recordSet, doms []string, billed bool) {
	n := len(doms)
	for b.Loop() {
		st, err := boltkv.Open(filepath.Join(b.TempDir(), "bench.db"))
		if err != nil {
			b.Fatal(err)
		}
		q := memqueue.New(memqueue.Options{Workers: 50})
		flow := memqueue.NewWorkflow(memqueue.FlowOptions{})
		eng := task.New(task.Deps{Store: st, Kinds: task.NewRegistry(), Queue: q, Flow: flow, Limiter: task.NewLimiter(nil, 50)})
		accounts, bill := account.New(st), billing.New(st)
		var biller Biller = bill
		if !billed {
			biller = noCharge{}
		}
		svc, err := New(Deps{Tasks: eng, Companies: set, Billing: biller, Orgs: accounts})
		if err != nil {
			b.Fatal(err)
		}
		q.Run(eng)
		flow.Run(eng)
		ctx := billing.WithRoute(context.Background(), "POST /v1/validate/icp")
		org, _, err := accounts.EnsureOrg(ctx, "Bench", account.PlanEnterprise)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := bill.Grant(ctx, org.ID, 10_000_000); err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		var peak atomic.Uint64
		stop := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			var ms runtime.MemStats
			for {
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak.Load() {
					peak.Store(ms.HeapInuse)
				}
				select {
				case <-stop:
					return
				case <-time.After(50 * time.Millisecond):
				}
			}
		})
		start := time.Now()
		sub, err := svc.SubmitICP(ctx, org.ID, ICPRequest{ICPText: testICP, Domains: doms, IntegrationID: NativeICP})
		if err != nil {
			b.Fatal(err)
		}
		for flow.Running() > 0 {
			time.Sleep(5 * time.Millisecond)
		}
		wall := time.Since(start)
		close(stop)
		wg.Wait()
		v, err := eng.Status(context.Background(), task.Ref{OrgID: org.ID, TaskID: sub.TaskID})
		if err != nil || v.Status != task.StatusCompleted || len(v.Results) != n {
			b.Fatalf("task ended %s with %d rows (%v)", v.Status, len(v.Results), err)
		}
		yes := 0
		for _, raw := range v.Results {
			if strings.Contains(string(raw), `"ICP Fit":"Yes"`) {
				yes++
			}
		}
		b.ReportMetric(wall.Seconds(), "s/task")
		b.ReportMetric(float64(n)/wall.Seconds(), "domains/s")
		b.ReportMetric(float64(peak.Load())/(1<<20), "MB-peak-heap")
		b.ReportMetric(float64(yes), "fits")
		flow.Close()
		cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		q.Close(cctx)
		cancel()
		st.Close()
	}
}

// benchN is BenchmarkNativeICP10k's domain count.
var benchN = 10_000
