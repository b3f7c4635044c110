package mcpserver_test

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/world"
)

// TestEveryToolOverTheWorld calls every tool over every company of the whole demo world
// (the one `firmo serve` seeds: the default seed and FIRMO_SEED_COMPANIES' default
// count; hansen.de, which has no sub-industry, first) and over every contact of it,
// page by page through search_contacts: the SDK checks each answer against the tool's
// output schema, so an answer the schema does not admit (a null sub_industry, say) is
// a tool error here. Under -short it runs on the 40 companies of the other tests.
//
// The whole world (2,000 companies, 27,405 contacts) took 104 s wall but 38 s of CPU
// (user+sys) on this 2-core machine at load average 12, shared by six engineers:
// seeding is most of the rest, and calls run in four workers, so an idle 2-core machine
// should need well under a minute.
func TestEveryToolOverTheWorld(t *testing.T) {
	opts := worldOpts()
	if !testing.Short() {
		cfg, err := config.Load(func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		opts = world.Options{Seed: allapp.DefaultWorldSeed, Companies: cfg.SeedCompanies, AsOf: time.Now()}.Normalized()
	}
	began := time.Now()
	e := newEnvOf(t, opts, true)
	seeded := time.Since(began)
	// ok calls a tool that must answer; safe from several goroutines (a failure is
	// reported and the answer is nil).
	ok := func(tool string, args map[string]any) map[string]any {
		res, err := e.session.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Errorf("%s(%v) failed at the protocol level: %v", tool, args, err)
			return nil
		}
		if res.IsError {
			t.Errorf("%s(%v) is a tool error: %s", tool, args, text(res))
			return nil
		}
		raw, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Error(err)
			return nil
		}
		var out map[string]any
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Errorf("%s: decode %s: %v", tool, raw, err)
		}
		return out
	}
	n := e.world.Len()
	var (
		mu                   sync.Mutex
		noSub, emails, pages int
		countries            = map[string]bool{}
		seen                 = map[any]bool{}
		next                 atomic.Int64
		wg                   sync.WaitGroup
	)
	// Each company: its profile, score and name match, and all its contacts, a page of
	// search_contacts (25, the tool's most) at a time; the companies are shared among a
	// few workers, as an agent's calls may come.
	company := func(i int) {
		c := e.world.Company(i)
		p := ok("company_profile", map[string]any{"domain": c.Domain})
		ok("company_score", map[string]any{"domain": c.Domain})
		ok("match_company", map[string]any{"name": c.Truth.Name})
		var ids []any
		for off := 0; ; off += 25 {
			page := ok("search_contacts", map[string]any{"domain": []string{c.Domain}, "results_by_company": 0, "max_records": 25, "offset": off})
			rows, _ := page["contacts"].([]any)
			for _, r := range rows {
				ids = append(ids, r.(map[string]any)["persona_id"])
			}
			mu.Lock()
			pages++
			mu.Unlock()
			if len(rows) < 25 {
				break
			}
		}
		mu.Lock()
		defer mu.Unlock()
		if p != nil && p["sub_industry"] == nil {
			noSub++
		}
		countries[c.Truth.Country] = true
		for _, id := range ids {
			seen[id] = true
		}
	}
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < n && !t.Failed(); i = int(next.Add(1)) - 1 {
				company(i)
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	companiesDone := time.Since(began)
	// Eight email jobs spread over the world (each a real SMTP conversation).
	for i := 0; i < n; i += max(1, n/8) {
		c := e.world.Company(i)
		if len(c.Truth.Team) == 0 {
			continue
		}
		first, last, _ := strings.Cut(c.Truth.Team[0].Name, " ")
		f := ok("find_email", map[string]any{"first_name": first, "last_name": last, "domain": c.Domain, "wait_seconds": 60})
		st := ok("task_status", map[string]any{"kind": "email_job", "id": f["job_id"]})
		if st["status"] == "completed" {
			emails++
			if st["progress"] != float64(100) {
				t.Errorf("a completed email job reports progress %v, want 100", st["progress"])
			}
		}
	}
	// The pages held every contact: count_contacts, country by country (each contact's
	// company has one), adds up to the distinct contacts seen.
	want := 0
	for _, country := range slices.Sorted(maps.Keys(countries)) {
		want += int(ok("count_contacts", map[string]any{"filter_country": []string{country}})["count"].(float64))
	}
	if len(seen) != want {
		t.Errorf("the search pages held %d distinct contacts; count_contacts counts %d", len(seen), want)
	}
	if noSub == 0 {
		t.Error("no company of the world lacks a sub-industry: the null case went untested")
	}
	if emails == 0 {
		t.Error("no email job completed")
	}
	t.Logf("%d companies (%d without a sub-industry), %d contacts in %d search pages, %d email jobs read; seeded in %s, companies and contacts in %s, the rest in %s",
		n, noSub, len(seen), pages, emails, seeded.Round(time.Millisecond), (companiesDone - seeded).Round(time.Millisecond), (time.Since(began) - companiesDone).Round(time.Millisecond))
}

// TestTaskStatusNamesItsArgument: an id the API refuses is reported against the tool's
// argument, id, not the route's task_id.
func TestTaskStatusNamesItsArgument(t *testing.T) {
	e := newEnv(t)
	for _, kind := range []string{"gen", "segment", "bulkmatch", "email_job", "email_batch"} {
		res := e.callRaw(t, "task_status", map[string]any{"kind": kind, "id": "not a task id"})
		msg := text(res)
		if !res.IsError || strings.Contains(msg, "task_id") || strings.Contains(msg, "job_id") || strings.Contains(msg, "batch_id") {
			t.Errorf("task_status(%s, bad id) = %v %q; want a tool error naming id only", kind, res.IsError, msg)
		}
	}
}
