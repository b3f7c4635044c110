package allapp_test

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/crm"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/tasktest"
	"github.com/firmoapi/firmo/shared/world"
)

// statusRouteOwners is which task kinds each route naming a task (a task, job or batch
// id) shows (README, Tasks): a task of any other kind is a 404 there. A bulk match is
// billed when GET /v1/bulkmatch/status delivers it, so no other route may show it.
func statusRouteOwners() map[string][]string {
	owners := map[string][]string{
		"GET /v1/gen/status/{task_id}":           {"gen_process", "gen_process_personas", "validate_icp", "native_icp", "contact_generate", app.TestTaskKind, crm.TaskKind},
		"GET /v1/bulkmatch/status/{task_id}":     {"bulkmatch"},
		"GET /v1/segment/status/{task_id}":       {"segment"},
		"GET /v1/email/jobs/{job_id}":            {"email_find"},
		"GET /v1/email/batch/{batch_id}/results": {"email_find"},
	}
	// Cancel stops only the kinds the gen status route reads: a bulk match or an email
	// batch is a 404 there, as a task of another organisation is.
	owners["DELETE /v1/gen/cancel/{task_id}"] = owners["GET /v1/gen/status/{task_id}"]
	return owners
}

// kindTask is one task of a kind: its id, and the job id of an email batch.
type kindTask struct {
	ref   task.Ref
	jobID string
}

// TestTaskKindsReadOnlyOnTheirRoutes submits one task of every kind the full
// composition registers, each through its own submit route, and reads each through
// every route that names a task, job or batch: only the kind's own routes show it,
// every other one answers 404 and charges nothing. Among them the original bypass: a
// completed bulk match read through GET /v1/gen/status.
func TestTaskKindsReadOnlyOnTheirRoutes(t *testing.T) {
	llmSrv := newOpenAICompatible(t)
	e := newEnv(t, map[string]string{
		"FIRMO_FETCH_ALLOW_HOSTS": strings.TrimPrefix(llmSrv.URL, "http://"),
		"FIRMO_TEST_TASK_KINDS":   "1",
		"FIRMO_DNS_RESOLVER":      closedUDPPort(t), // email jobs end at once, offline
	})
	ctx := context.Background()
	opts := world.Options{Seed: 1, Companies: 20, AsOf: time.Now()}.Normalized()
	if _, err := e.app.SeedWorld(ctx, opts, company.LoadOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := e.app.SyncNames(ctx); err != nil {
		t.Fatal(err)
	}
	if err := e.app.StartTasks(ctx); err != nil {
		t.Fatal(err)
	}
	k := key(e.demoKey)
	first := world.New(opts).Company(0)
	// The ICP runs and contact generation deliver another company: a company record is
	// billed once per 90 days, so a run delivering the first one would leave the bulk
	// match's delivery of it free.
	other := world.New(opts).Company(1)

	owners := statusRouteOwners()
	routes := taskRoutes(e)
	checkOwnersTable(t, e, owners, routes)
	tasks := map[string]kindTask{}
	for _, kind := range e.app.Tasks.Kinds().Names() {
		submit, ok := map[string]func() kindTask{
			"gen_process": func() kindTask {
				return submitGen(t, e, "/v1/gen/process", fmt.Sprintf(`{"query":"What do they sell?","domains":[%q],"context_mode":"domain","integration_id":%q}`, first.Domain, integration(t, e, llmSrv)))
			},
			"gen_process_personas": func() kindTask {
				return submitGen(t, e, "/v1/gen/process-personas", fmt.Sprintf(`{"query":"What is their role?","persona_ids":[1],"integration_id":%q}`, integration(t, e, llmSrv)))
			},
			"validate_icp": func() kindTask {
				return submitGen(t, e, "/v1/validate/icp", fmt.Sprintf(`{"icp_text":"B2B software","domains":[%q],"context_mode":"domain","integration_id":%q}`, other.Domain, integration(t, e, llmSrv)))
			},
			"native_icp": func() kindTask {
				return submitGen(t, e, "/v1/validate/icp", fmt.Sprintf(`{"icp_text":"Mandatory: B2B\nReject if: agencies\nNice-to-have: US","domains":[%q],"integration_id":"native-icp"}`, other.Domain))
			},
			"contact_generate": func() kindTask {
				if sp := e.do(t, "POST", "/v1/search-providers", k, `{"provider":"native","name":"Firmo pages"}`); sp.status != http.StatusOK && sp.status != http.StatusCreated {
					t.Fatalf("search provider: %d %s", sp.status, sp.raw)
				}
				return submitGen(t, e, "/v1/contacts/discover/generate", fmt.Sprintf(`{"icp_text":"Leadership","domains":[%q],"integration_id":"native"}`, other.Domain))
			},
			"segment": func() kindTask {
				// Companies the other kinds do not deliver: a company record is billed once
				// per 90 days, so sharing one would leave the second delivery free.
				var doms []string
				for i := 10; i < 15; i++ {
					doms = append(doms, world.New(opts).Company(i).Domain)
				}
				a := e.do(t, "POST", "/v1/segment?domains="+strings.Join(doms, ","), k, "")
				if a.status != http.StatusAccepted {
					t.Fatalf("segment: %d %s", a.status, a.raw)
				}
				return kindTask{ref: task.Ref{OrgID: demoOrg(t, e), TaskID: a.body["task_id"].(string)}}
			},
			"bulkmatch": func() kindTask {
				body, ctype := csvUpload(t, "Company\n"+first.Row.Name+"\n")
				a := e.do(t, "POST", "/v1/bulkmatch?name_column=Company", map[string]string{"x-service-key": e.demoKey, "Content-Type": ctype}, body)
				if a.status != http.StatusAccepted {
					t.Fatalf("bulkmatch: %d %s", a.status, a.raw)
				}
				return kindTask{ref: task.Ref{OrgID: demoOrg(t, e), TaskID: a.body["task_id"].(string)}}
			},
			"email_find": func() kindTask {
				a := e.do(t, "POST", "/v1/email/find/batch", k, `{"requests":[{"first_name":"Jane","last_name":"Doe","domain":"acme.com"}]}`)
				if a.status != http.StatusOK && a.status != http.StatusAccepted {
					t.Fatalf("email batch: %d %s", a.status, a.raw)
				}
				jobs, _ := a.body["job_ids"].([]any)
				if len(jobs) != 1 {
					t.Fatalf("email batch: %s", a.raw)
				}
				return kindTask{ref: task.Ref{OrgID: demoOrg(t, e), TaskID: a.body["batch_id"].(string)}, jobID: jobs[0].(string)}
			},
			// Without a connection the snapshot's record fails and the task still ends.
			crm.TaskKind: func() kindTask {
				sub, err := e.app.Tasks.Submit(ctx, task.Submission{OrgID: demoOrg(t, e), Kind: crm.TaskKind, Records: tasktest.Keys("hubspot:companies", 1),
					Params: []byte(`{"provider":"hubspot","kind":"companies"}`), Field: "snapshot"})
				if err != nil {
					t.Fatal(err)
				}
				return kindTask{ref: task.Ref{OrgID: demoOrg(t, e), TaskID: sub.TaskID}}
			},
			app.TestTaskKind: func() kindTask {
				sub, err := e.app.Tasks.Submit(ctx, task.Submission{OrgID: demoOrg(t, e), Kind: app.TestTaskKind, Records: tasktest.Keys("k", 2), Field: "domains"})
				if err != nil {
					t.Fatal(err)
				}
				return kindTask{ref: task.Ref{OrgID: demoOrg(t, e), TaskID: sub.TaskID}}
			},
		}[kind]
		if !ok {
			t.Errorf("task kind %q has no submission here: add it, and its routes to statusRouteOwners", kind)
			continue
		}
		tasks[kind] = submit()
	}
	for kind, kt := range tasks {
		waitEnded(t, e, kind, kt.ref)
	}

	// Every route that does not own a kind answers 404 on its task and charges nothing.
	before := balance(t, e)
	for _, rt := range routes {
		for kind, kt := range tasks {
			if slices.Contains(owners[rt.Pattern()], kind) {
				continue
			}
			a := e.do(t, rt.Method, taskPath(rt, kt), k, "")
			if a.status != http.StatusNotFound {
				t.Errorf("%s on a %s task = %d, want 404; body %.300s", rt.Pattern(), kind, a.status, a.raw)
				continue
			}
			checkError(t, a, http.StatusNotFound, "not_found")
			if got := a.header.Get(httpapi.HeaderCreditsCharged); got != "0" {
				t.Errorf("%s on a %s task charged %q credits", rt.Pattern(), kind, got)
			}
		}
	}
	if after := balance(t, e); after != before {
		t.Errorf("the 404 answers moved the balance from %d to %d", before, after)
	}

	// The owners show their kinds; cancel goes last, as it may change the tasks.
	sort.SliceStable(routes, func(i, j int) bool { return routes[i].Method != "DELETE" && routes[j].Method == "DELETE" })
	for _, rt := range routes {
		for _, kind := range owners[rt.Pattern()] {
			kt, ok := tasks[kind]
			if !ok {
				continue // a kind this composition does not register: reported above
			}
			a := e.do(t, rt.Method, taskPath(rt, kt), k, "")
			if a.status != http.StatusOK {
				t.Errorf("%s on its own %s task = %d, want 200; body %.300s", rt.Pattern(), kind, a.status, a.raw)
			}
			if rt.Pattern() == "GET /v1/segment/status/{task_id}" {
				// Likewise: the segmented companies are charged here.
				if got := a.header.Get(httpapi.HeaderCreditsCharged); got == "0" || got == "" {
					t.Errorf("segment status charged %q for %.300s", got, a.raw)
				}
			}
			if rt.Pattern() == "GET /v1/bulkmatch/status/{task_id}" {
				// The results the 404s withheld are billable: here they are charged.
				if got := a.header.Get(httpapi.HeaderCreditsCharged); got == "0" || got == "" || !strings.Contains(a.raw, first.Domain) {
					t.Errorf("bulk status charged %q for %.300s; want the match of %s charged", got, a.raw, first.Domain)
				}
			}
		}
	}
}

// taskRoutes are the composition's routes that name a task, a job or a batch.
func taskRoutes(e *env) []httpapi.Route {
	var out []httpapi.Route
	for _, rt := range e.app.Server.Routes() {
		for _, p := range []string{"{task_id}", "{job_id}", "{batch_id}"} {
			if strings.Contains(rt.Path, p) {
				out = append(out, rt)
				break
			}
		}
	}
	return out
}

// checkOwnersTable: statusRouteOwners names exactly the served task routes, and every
// kind's StatusRoutes (what the engine checks) are served and agree with it.
func checkOwnersTable(t *testing.T, e *env, owners map[string][]string, routes []httpapi.Route) {
	t.Helper()
	served := map[string]bool{}
	for _, rt := range routes {
		served[rt.Pattern()] = true
		if _, ok := owners[rt.Pattern()]; !ok {
			t.Errorf("route %s names a task, job or batch: add it to statusRouteOwners", rt.Pattern())
		}
	}
	for p := range owners {
		if !served[p] {
			t.Errorf("statusRouteOwners names %s, which is not served", p)
		}
	}
	for _, name := range e.app.Tasks.Kinds().Names() {
		k, _ := e.app.Tasks.Kinds().Lookup(name)
		for _, p := range k.StatusRoutes {
			if !served[p] || !slices.Contains(owners[p], name) {
				t.Errorf("kind %s lists status route %q: not a served task route showing it", name, p)
			}
		}
	}
}

// taskPath is rt's path for kt: the job id in {job_id}, the task id otherwise (an
// email batch id is its task id).
func taskPath(rt httpapi.Route, kt kindTask) string {
	id := kt.ref.TaskID
	if strings.Contains(rt.Path, "{job_id}") && kt.jobID != "" {
		id = kt.jobID
	}
	r := strings.NewReplacer("{task_id}", id, "{job_id}", id, "{batch_id}", id)
	return r.Replace(rt.Path)
}

// waitEnded polls the engine itself (outside any request: no route, no charge) until
// the task has ended, so a route that showed it would show its results.
func waitEnded(t *testing.T, e *env, kind string, ref task.Ref) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		v, err := e.app.Tasks.Status(context.Background(), ref)
		if err != nil {
			t.Fatalf("%s task: %v", kind, err)
		}
		if v.Status.Terminal() {
			if len(v.Results) == 0 {
				t.Fatalf("%s task ended without results: %+v", kind, v)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s task did not end: %+v", kind, v)
		}
	}
}

func submitGen(t *testing.T, e *env, path, body string) kindTask {
	t.Helper()
	a := e.do(t, "POST", path, key(e.demoKey), body)
	if a.status != http.StatusOK {
		t.Fatalf("%s: %d %s", path, a.status, a.raw)
	}
	return kindTask{ref: task.Ref{OrgID: demoOrg(t, e), TaskID: a.body["task_id"].(string)}}
}

// integration creates a custom LLM integration on llmSrv.
func integration(t *testing.T, e *env, llmSrv *openAICompatible) string {
	t.Helper()
	a := e.do(t, "POST", "/v1/llm-providers/config", key(e.demoKey), fmt.Sprintf(`{"integration_name":"local %d","provider":"custom","api_key":"sk-routes-0123456789abcdef","model_name":"test-model","base_url":%q}`, time.Now().UnixNano(), llmSrv.URL+"/v1"))
	if a.status != http.StatusOK && a.status != http.StatusCreated {
		t.Fatalf("create integration: %d %s", a.status, a.raw)
	}
	return a.body["integration_id"].(string)
}

func demoOrg(t *testing.T, e *env) string {
	t.Helper()
	a := e.do(t, "GET", "/v1/account", key(e.demoKey), "")
	id, _ := a.body["org_id"].(string)
	if a.status != http.StatusOK || id == "" {
		t.Fatalf("account: %d %s", a.status, a.raw)
	}
	return id
}

func balance(t *testing.T, e *env) int64 {
	t.Helper()
	a := e.do(t, "GET", "/v1/account", key(e.demoKey), "")
	b, ok := a.body["credit_balance"].(float64)
	if a.status != http.StatusOK || !ok {
		t.Fatalf("account: %d %s", a.status, a.raw)
	}
	return int64(b)
}

// csvUpload is a multipart body with file as the part "file".
func csvUpload(t *testing.T, file string) (string, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	part, err := w.CreateFormFile("file", "names.csv")
	if err != nil {
		t.Fatal(err)
	}
	part.Write([]byte(file))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String(), w.FormDataContentType()
}

// closedUDPPort is a local UDP address nothing listens on: a DNS query there fails at
// once instead of reaching the network.
func closedUDPPort(t *testing.T) string {
	t.Helper()
	c, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := c.LocalAddr().String()
	c.Close()
	return addr
}
