package mcpserver_test

import (
	"strings"
	"testing"
)

// TestEveryToolOverTheWorld calls every tool over every company of the test world (40
// companies of the default world's seed, hansen.de, which has no sub-industry, first)
// and its contacts: the SDK checks each answer against the tool's output schema, so
// an answer the schema does not admit (a null sub_industry, say) is a tool error here.
// The whole default world would take minutes; these 40 cover its kinds of company
// (active and closed, with and without sub-industry, employees, team, redirect).
func TestEveryToolOverTheWorld(t *testing.T) {
	if testing.Short() {
		t.Skip("calls every tool about 200 times")
	}
	e := newEnv(t)
	noSub, emails := 0, 0
	ok := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		var out map[string]any
		res := e.callRaw(t, tool, args)
		if res.IsError {
			t.Fatalf("%s(%v) is a tool error: %s", tool, args, text(res))
		}
		e.call(t, tool, args, &out)
		return out
	}
	for i := range e.world.Len() {
		c := e.world.Company(i)
		p := ok("company_profile", map[string]any{"domain": c.Domain})
		if p["sub_industry"] == nil {
			noSub++
		}
		ok("company_score", map[string]any{"domain": c.Domain})
		ok("match_company", map[string]any{"name": c.Truth.Name})
		ok("search_contacts", map[string]any{"domain": []string{c.Domain}, "max_records": 20})
		ok("count_contacts", map[string]any{"filter_country": []string{c.Truth.Country}})
		if i%8 == 0 && len(c.Truth.Team) > 0 {
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
	}
	if noSub == 0 {
		t.Error("no company of the sample lacks a sub-industry: the null case went untested")
	}
	if emails == 0 {
		t.Error("no email job completed")
	}
	t.Logf("%d companies, %d without a sub-industry, %d email jobs read", e.world.Len(), noSub, emails)
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
