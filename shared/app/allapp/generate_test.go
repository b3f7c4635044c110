package allapp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/world"
)

// TestContactGenerationAcceptance is issue 17's native-engine run: the local
// composition, the built-in native search provider, no LLM, 200 domains of the demo
// world through POST /v1/contacts/discover/generate, graded against the world's truth
// (world.TeamSite: everyone the company's pages list).
func TestContactGenerationAcceptance(t *testing.T) {
	e := newEnv(t, nil)
	ctx := context.Background()
	opts := world.Options{Seed: 17, Companies: 200, AsOf: time.Now()}.Normalized()
	if _, err := e.app.SeedWorld(ctx, opts, company.LoadOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if err := e.app.StartTasks(ctx); err != nil {
		t.Fatal(err)
	}
	k := key(e.demoKey)
	w := world.New(opts)
	doms := make([]string, w.Len())
	for i := range doms {
		doms[i] = w.Domain(i)
	}
	body, _ := json.Marshal(map[string]any{"icp_text": "Heads of sales and marketing at B2B companies", "domains": append(doms, doms[0])})

	// No search provider at all: 400.
	checkError(t, e.do(t, "POST", "/v1/contacts/discover/generate", k, string(body)), 400, "no_search_provider")
	if sp := e.do(t, "POST", "/v1/search-providers", k, `{"provider":"native","name":"Firmo pages"}`); sp.status != 200 && sp.status != 201 {
		t.Fatalf("create search provider: %d %s", sp.status, sp.raw)
	}
	// native stays a 400 on the other generation endpoints.
	checkError(t, e.do(t, "POST", "/v1/gen/process", k, `{"query":"Q","domains":["a.com"],"integration_id":"native"}`), 400, "native_not_allowed")
	// Bad input: 422 naming the field.
	for _, tc := range []struct{ body, field string }{
		{`{"domains":["a.com"]}`, "icp_text"},
		{`{"icp_text":" ","domains":["a.com"]}`, "icp_text"},
		{`{"icp_text":"x","domains":[]}`, "domains"},
		{`{"icp_text":"x","domains":["not a domain"]}`, "domains[0]"},
		{`{"icp_text":"x","domains":["a.com"],"context_mode":"web"}`, "context_mode"},
		{`{"icp_text":"x","domains":["a.com"],"search_context_size":"huge"}`, "search_context_size"},
		{`{"icp_text":"x","domains":["a.com"],"max_contacts_per_domain":0}`, "max_contacts_per_domain"},
		{`{"icp_text":"x","domains":["a.com"],"integration_id":"gpt"}`, "integration_id"},
		{`{"icp_text":"x","domains":["a.com"],"search_provider_id":"x"}`, "search_provider_id"},
		{`{"icp_text":"x","domains":["a.com"],"find_emails":"yes"}`, "find_emails"},
		{`{"icp_text":"x","domains":["a.com"],"colour":"red"}`, "colour"},
	} {
		a := e.do(t, "POST", "/v1/contacts/discover/generate", k, tc.body)
		checkError(t, a, 422, "validation_error")
		if f, _ := a.body["error"].(map[string]any)["field"].(string); f != tc.field {
			t.Errorf("%s: field %q, want %q", tc.body, f, tc.field)
		}
	}

	sub := e.do(t, "POST", "/v1/contacts/discover/generate", k, string(body))
	if sub.status != 200 || sub.body["status"] != "in_progress" || sub.body["total_domains"] != float64(201) {
		t.Fatalf("submit: %d %s", sub.status, sub.raw)
	}
	cols, _ := sub.body["column_name"].([]any)
	if len(cols) != 11 || cols[0] != "name" || cols[10] != "email_pattern_guess" {
		t.Errorf("column_name %v", cols)
	}
	taskID := sub.body["task_id"].(string)
	other := key(otherOrg(t, e.app))
	if a := e.do(t, "GET", "/v1/gen/status/"+taskID, other, ""); a.status != 404 {
		t.Errorf("another organisation's status: %d, want 404", a.status)
	}
	if a := e.do(t, "DELETE", "/v1/gen/cancel/"+taskID, other, ""); a.status != 404 {
		t.Errorf("another organisation's cancel: %d, want 404", a.status)
	}
	var last answer
	for deadline := time.Now().Add(3 * time.Minute); ; {
		last = e.do(t, "GET", "/v1/gen/status/"+url.PathEscape(taskID), k, "")
		if last.status != 200 {
			t.Fatalf("status: %d %s", last.status, last.raw)
		}
		if last.body["status"] == "completed" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not completed in time: progress %v", last.body["progress"])
		}
		time.Sleep(100 * time.Millisecond)
	}
	if last.body["title_validation"] != "none" {
		t.Errorf("title_validation %v, want none", last.body["title_validation"])
	}
	if rf, _ := last.body["response_format"].(map[string]any); rf == nil || rf["response_type"] != "contacts" || rf["description"] == "" {
		t.Errorf("response_format %v, want the contacts format with the ICP as its description", last.body["response_format"])
	}
	results, _ := last.body["results"].(map[string]any)
	if len(results) != 200 {
		t.Fatalf("%d results, want 200", len(results))
	}
	grade(t, w, results)
	checkPatternEvidence(t, results)

	// Cancel works as for other tasks.
	sub2 := e.do(t, "POST", "/v1/contacts/discover/generate", k, string(body))
	c := e.do(t, "DELETE", "/v1/gen/cancel/"+sub2.body["task_id"].(string), k, "")
	if c.status != 200 || c.body["success"] != true || (c.body["status"] != "cancelling" && c.body["status"] != "cancelled") {
		t.Errorf("cancel: %d %s", c.status, c.raw)
	}
}

// grade compares the rows with the people the world's pages list today.
func grade(t *testing.T, w *world.World, results map[string]any) {
	t.Helper()
	var rows, right, listed, foundListed, labelsOK, titlesOK, roleAsPerson, left int
	for i := 0; i < w.Len(); i++ {
		c := w.Company(i)
		ts := w.TeamSite(i, c)
		truth := map[string]world.Listed{}
		for _, l := range ts.Listed {
			truth[l.Name] = l
			if !l.Left {
				listed++
			}
		}
		roles := map[string]bool{}
		for _, a := range ts.RoleAddresses {
			roles[a] = true
		}
		res, _ := results[c.Domain].(map[string]any)
		contacts, ok := res["contacts"].([]any)
		if !ok {
			t.Fatalf("%s: result %v has no contacts array", c.Domain, results[c.Domain])
		}
		seen := map[string]bool{}
		for _, raw := range contacts {
			r := raw.(map[string]any)
			rows++
			name, _ := r["name"].(string)
			if r["match_status"] != "match" || r["source_url"] == "" || r["phone"] == nil {
				t.Errorf("%s: row %v", c.Domain, r)
			}
			if email, _ := r["email"].(string); roles[email] {
				roleAsPerson++
			}
			l, ok := truth[name]
			if !ok || seen[name] {
				t.Logf("%s: %q is not a person its pages list", c.Domain, name)
				continue
			}
			seen[name] = true
			if l.Left {
				left++
				continue
			}
			right++
			foundListed++
			if r["title"] == l.Title {
				titlesOK++
			}
			if r["department"] == l.Department && r["seniority"] == l.Seniority {
				labelsOK++
			}
		}
	}
	precision := float64(right) / float64(max(rows, 1))
	recall := float64(foundListed) / float64(max(listed, 1))
	titles := float64(titlesOK) / float64(max(right, 1))
	labels := float64(labelsOK) / float64(max(right, 1))
	t.Logf("rows %d, of people listed today %d (people who left %d); listed today %d: precision %.4f, recall %.4f, titles verbatim %.4f, department and seniority %.4f",
		rows, right, left, listed, precision, recall, titles, labels)
	if precision < 0.97 || recall < 0.90 || titles < 1 || labels < 0.95 || roleAsPerson > 0 {
		t.Errorf("precision %.4f (>= 0.97), recall %.4f (>= 0.90), titles %.4f (1), department and seniority %.4f (>= 0.95), role addresses as people %d (0)",
			precision, recall, titles, labels, roleAsPerson)
	}
}

// TestContactGenerationLLM runs the LLM engine against a local OpenAI-compatible server
// (the one batch research's acceptance uses) answering with one person each page
// lists, one it invents and a title verdict: rows, validation, the dropped invention
// and cost metadata come back through the API.
func TestContactGenerationLLM(t *testing.T) {
	llmSrv := newOpenAICompatible(t)
	e := newEnv(t, map[string]string{"FIRMO_FETCH_ALLOW_HOSTS": strings.TrimPrefix(llmSrv.URL, "http://")})
	ctx := context.Background()
	opts := world.Options{Seed: 17, Companies: 30, AsOf: time.Now()}.Normalized()
	if _, err := e.app.SeedWorld(ctx, opts, company.LoadOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if err := e.app.StartTasks(ctx); err != nil {
		t.Fatal(err)
	}
	w := world.New(opts)
	var dom string
	var member world.Person
	for i := 0; i < w.Len() && dom == ""; i++ {
		if c := w.Company(i); len(c.Truth.Team) > 0 && len(c.Pages) > 1 {
			dom, member = c.Domain, c.Truth.Team[0]
		}
	}
	llmSrv.answer = func(user string) string {
		if strings.Contains(user, "Titles to validate") { // the second call: the batched title validation
			b, _ := json.Marshal(map[string]any{member.Title: map[string]string{"reason": "leads the company", "verdict": "match"}})
			return string(b)
		}
		if !strings.Contains(user, member.Name) {
			return `{"contacts":[]}`
		}
		b, _ := json.Marshal(map[string]any{"contacts": []map[string]any{
			{"name": member.Name, "title": member.Title, "source_url": "https://" + dom + "/", "title_matches_persona": true},
			{"name": "Invented Person", "title": "CEO", "source_url": "https://" + dom + "/", "title_matches_persona": true},
		}})
		return string(b)
	}
	k := key(e.demoKey)
	in := e.do(t, "POST", "/v1/llm-providers/config", k, fmt.Sprintf(`{"integration_name":"local","provider":"custom","api_key":"sk-local-0123456789","model_name":"test-model","base_url":%q}`, llmSrv.URL+"/v1"))
	if in.status != 200 && in.status != 201 {
		t.Fatalf("create integration: %d %s", in.status, in.raw)
	}
	if sp := e.do(t, "POST", "/v1/search-providers", k, `{"provider":"native","name":"Firmo pages"}`); sp.status != 200 && sp.status != 201 {
		t.Fatalf("create search provider: %d %s", sp.status, sp.raw)
	}
	body, _ := json.Marshal(map[string]any{"icp_text": "Company leaders", "domains": []string{dom}, "integration_id": in.body["integration_id"]})
	sub := e.do(t, "POST", "/v1/contacts/discover/generate", k, string(body))
	if sub.status != 200 {
		t.Fatalf("submit: %d %s", sub.status, sub.raw)
	}
	var last answer
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		last = e.do(t, "GET", "/v1/gen/status/"+sub.body["task_id"].(string), k, "")
		if last.body["status"] == "completed" || time.Now().After(deadline) {
			break
		}
	}
	if last.body["status"] != "completed" || last.body["title_validation"] != "llm" {
		t.Fatalf("status %s", last.raw)
	}
	rows := last.body["results"].(map[string]any)[dom].(map[string]any)["contacts"].([]any)
	if len(rows) != 1 || rows[0].(map[string]any)["name"] != member.Name || rows[0].(map[string]any)["match_status"] != "match" {
		t.Errorf("rows %v, want only %s (the invented person dropped)", rows, member.Name)
	}
	if ws, _ := last.body["warnings"].([]any); !strings.Contains(fmt.Sprint(ws), "dropped") {
		t.Errorf("warnings %v: want the dropped row counted", ws)
	}
	cost, _ := last.body["cost_metadata"].(map[string]any)["custom/test-model"].(map[string]any)
	llmSrv.mu.Lock()
	calls, tokens := llmSrv.calls, llmSrv.promptTokens
	llmSrv.mu.Unlock()
	if cost == nil || calls != 2 || cost["calls"] != float64(2) || cost["prompt_tokens"] != float64(tokens) || cost["completion_tokens"] != float64(18) {
		t.Errorf("cost_metadata %v (server: %d calls, %d prompt tokens): the extraction and the validation call", last.body["cost_metadata"], calls, tokens)
	}
}

// checkPatternEvidence: a result that shows an email pattern also shows what it was
// learned from (email_pattern_evidence): at least one fitting address, and every
// example with the source it was seen at.
func checkPatternEvidence(t *testing.T, results map[string]any) {
	t.Helper()
	shown := 0
	for dom, r := range results {
		res, _ := r.(map[string]any)
		if _, ok := res["email_pattern"]; !ok {
			continue
		}
		shown++
		ev, _ := res["email_pattern_evidence"].(map[string]any)
		fit, _ := ev["fit"].(float64)
		examples, _ := ev["examples"].([]any)
		if fit < 1 || len(examples) == 0 {
			t.Errorf("%s: email_pattern %v with evidence %v, want fitting addresses and examples", dom, res["email_pattern"], res["email_pattern_evidence"])
			continue
		}
		for _, x := range examples {
			ex, _ := x.(map[string]any)
			if ex["email"] == "" || ex["source"] == "" || ex["email"] == nil || ex["source"] == nil {
				t.Errorf("%s: example %v lacks its address or source", dom, x)
			}
		}
	}
	t.Logf("%d of %d results show an email pattern with its evidence", shown, len(results))
}
