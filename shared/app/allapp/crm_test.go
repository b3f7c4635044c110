package allapp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/account/accounttest"
	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/crm"
	"github.com/firmoapi/firmo/shared/testkit/crmfake"
	"github.com/firmoapi/firmo/shared/world"
)

// TestCRMFlowAgainstEachFake drives the CRM routes of the whole API against each
// provider's fake: authorize, the consent redirect, the callback, a probe, company and
// contact snapshots whose lists exclude exactly their entries from a contact search,
// removal refused to API keys (even an admin's) and done with an admin session; another
// organisation sees none of the connections, lists or tasks.
func TestCRMFlowAgainstEachFake(t *testing.T) {
	ctx := context.Background()
	wopts := world.Options{Seed: 3, Companies: 40, AsOf: time.Now()}
	w := world.New(wopts)
	// The CRMs hold five of the world's companies (in messy spellings) and the emails of
	// some of their contacts, plus records the world does not know.
	var domains []string
	for i := range 8 {
		domains = append(domains, w.Domain(i))
	}
	websites := []string{"https://www." + domains[0] + "/about", domains[1], "http://" + strings.ToUpper(domains[2]), domains[3] + "/", "www." + domains[4], "", "n/a", "nowhere-known.example.org"}
	fakes := map[string]*crmfake.Server{}
	vars := map[string]string{"FIRMO_SEED_COMPANIES": "0", "FIRMO_CRM_REDIRECT_BASE_URL": "https://firmo.test", "FIRMO_FETCH_ALLOW_HOSTS": "127.0.0.1"}
	// The contacts are seeded before the fakes are made: their emails come from the store.
	e := newEnv(t, nil)
	if _, err := e.app.SeedContacts(ctx, wopts, nil); err != nil {
		t.Fatal(err)
	}
	var people []contact.Raw
	e.app.Contacts.List(ctx, func(r contact.Raw) error {
		if slices.Contains(domains, r.Domain) && r.Email != "" {
			people = append(people, r)
		}
		return nil
	})
	if len(people) < 10 {
		t.Fatalf("only %d world contacts with email at the first companies", len(people))
	}
	// The people a contact snapshot excludes are those the contact index resolves the
	// CRM's emails to (an address two contacts share resolves to one of them).
	var emails []string
	wantPeople := map[int64]bool{}
	for i, p := range people {
		if i%2 == 0 {
			emails = append(emails, strings.ToUpper(p.Email))
			r, err := e.app.Contacts.ByEmail(ctx, p.Email)
			if err != nil {
				t.Fatal(err)
			}
			wantPeople[r.PersonaID] = true
		}
	}
	emails = append(emails, "ghost@nowhere-known.example.org", "")
	for _, name := range crm.Names() {
		f, err := crmfake.Start(crmfake.Options{Provider: name, Websites: websites, Emails: emails, MaxPageSize: 3})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(f.Close)
		fakes[name] = f
		p := "FIRMO_CRM_" + strings.ToUpper(name) + "_"
		vars[p+"CLIENT_ID"], vars[p+"CLIENT_SECRET"], vars[p+"AUTH_URL"], vars[p+"TOKEN_URL"] = f.ClientID(), f.ClientSecret(), f.AuthURL(), f.TokenURL()
		if name == crm.HubSpot {
			vars[p+"API_URL"] = f.URL()
		}
	}
	// A second server on the same data directory, now configured with the fakes.
	dataDir := e.app.Config.DataDir
	e.srv.Close()
	e.app.Close()
	vars["FIRMO_DATA_DIR"] = dataDir
	e = newEnv(t, vars)
	if err := e.app.StartTasks(ctx); err != nil {
		t.Fatal(err)
	}
	otherKey := accounttest.OrgKey(t, e.app.Accounts, "Initech", account.PlanEnterprise, "bill@initech.test", account.RoleAdmin)
	session := adminSession(t, e)
	search := func(exclusion ...string) (map[string]bool, map[int64]bool) {
		t.Helper()
		req := map[string]any{"domain": domains, "max_records": 10000, "results_by_company": 100}
		if len(exclusion) > 0 {
			req["exclusion_query_id"] = exclusion
		}
		body, _ := json.Marshal(req)
		got := e.do(t, "POST", "/v1/contacts/discover", key(e.demoKey), string(body))
		if got.status != 200 {
			t.Fatalf("discover: %s", got.raw)
		}
		var resp struct {
			Results map[string]struct {
				Contacts []struct {
					PersonaID int64 `json:"persona_id"`
				} `json:"contacts"`
			} `json:"results"`
		}
		json.Unmarshal([]byte(got.raw), &resp)
		ds, ps := map[string]bool{}, map[int64]bool{}
		for d, entry := range resp.Results {
			ds[d] = true
			for _, c := range entry.Contacts {
				ps[c.PersonaID] = true
			}
		}
		return ds, ps
	}
	baseDomains, basePeople := search()
	if len(baseDomains) != len(domains) {
		t.Fatalf("baseline search found %d of the %d companies", len(baseDomains), len(domains))
	}
	for _, provider := range crm.Names() {
		t.Run(provider, func(t *testing.T) {
			// Authorize, consent, callback.
			got := e.do(t, "GET", "/v1/crm/"+provider+"/authorize", key(e.demoKey), "")
			authURL, _ := got.body["authorize_url"].(string)
			if got.status != 200 || !strings.HasPrefix(authURL, fakes[provider].AuthURL()) {
				t.Fatalf("authorize: %s", got.raw)
			}
			back := followConsent(t, authURL)
			if !strings.HasPrefix(back.String(), "https://firmo.test/v1/crm/"+provider+"/callback?") {
				t.Fatalf("the provider redirected to %s", back)
			}
			got = e.do(t, "GET", back.RequestURI(), map[string]string{"Accept": "application/json"}, "")
			if got.status != 200 {
				t.Fatalf("callback: %s", got.raw)
			}
			got = e.do(t, "GET", "/v1/crm/connections?probe=true", key(e.demoKey), "")
			if !strings.Contains(got.raw, `"provider":"`+provider+`","status":"active"`) || got.header.Get("X-RateLimit-Limit") != "400" {
				t.Fatalf("probe: %d %s (limit %s)", got.status, got.raw, got.header.Get("X-RateLimit-Limit"))
			}
			// Company snapshot: excludes exactly those five companies.
			companies, companyTask := snapshot(t, e, provider, "companies")
			exDomains, _ := search(companies)
			for _, d := range domains {
				if excluded := !exDomains[d]; excluded != slices.Contains(domains[:5], d) {
					t.Fatalf("company %s excluded = %v", d, excluded)
				}
			}
			// Contact snapshot: excludes exactly the people whose emails the CRM holds.
			people, _ := snapshot(t, e, provider, "contacts")
			_, exPeople := search(people)
			for id := range basePeople {
				if excluded := !exPeople[id]; excluded != wantPeople[id] {
					t.Fatalf("persona %d excluded = %v, want %v", id, excluded, wantPeople[id])
				}
			}
			// Another organisation sees nothing of it.
			if got := e.do(t, "GET", "/v1/crm/connections", key(otherKey), ""); got.raw != "[]\n" {
				t.Fatalf("other organisation's connections: %s", got.raw)
			}
			checkError(t, e.do(t, "POST", "/v1/crm/"+provider+"/suppress", key(otherKey), ""), 404, "not_found")
			checkError(t, e.do(t, "DELETE", "/v1/queries/"+companies, key(otherKey), ""), 404, "not_found")
			checkError(t, e.do(t, "GET", "/v1/gen/status/"+companyTask, key(otherKey), ""), 404, "not_found")
			// Removal: an admin's API key is refused, the admin session removes it.
			got = e.do(t, "DELETE", "/v1/crm/"+provider+"/connection", key(e.demoKey), "")
			checkError(t, got, 403, "forbidden")
			if msg := got.body["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "admin app session") {
				t.Fatalf("403 message %q does not say an admin app session is needed", msg)
			}
			if got := e.do(t, "DELETE", "/v1/crm/"+provider+"/connection", session, ""); got.status != 200 {
				t.Fatalf("delete with the admin session: %s", got.raw)
			}
			checkError(t, e.do(t, "DELETE", "/v1/crm/"+provider+"/connection", session, ""), 404, "not_found")
			checkError(t, e.do(t, "POST", "/v1/crm/"+provider+"/suppress", key(e.demoKey), ""), 404, "not_found")
		})
	}
	checkError(t, e.do(t, "GET", "/v1/crm/zoho/authorize", key(e.demoKey), ""), 404, "not_found")
	// An unknown provider is a 404 before the admin-session check, for an API key too.
	checkError(t, e.do(t, "DELETE", "/v1/crm/zoho/connection", key(e.demoKey), ""), 404, "not_found")
	checkError(t, e.do(t, "POST", "/v1/crm/hubspot/suppress?kind=deals", key(e.demoKey), ""), 422, "validation_error")
}

// snapshot submits a snapshot, waits for its task and returns the list's query id and
// the task's id.
func snapshot(t *testing.T, e *env, provider, kind string) (queryID, taskID string) {
	t.Helper()
	got := e.do(t, "POST", "/v1/crm/"+provider+"/suppress?kind="+kind, key(e.demoKey), "")
	if got.status != 202 || got.body["provider"] != provider || got.body["kind"] != kind || got.body["message"] == "" {
		t.Fatalf("suppress %s: %d %s", kind, got.status, got.raw)
	}
	id := got.body["task_id"].(string)
	deadline := time.Now().Add(30 * time.Second)
	for {
		st := e.do(t, "GET", "/v1/gen/status/"+id, key(e.demoKey), "")
		if st.body["status"] == "completed" {
			var v struct {
				Results map[string]struct {
					Snapshot crm.Snapshot `json:"snapshot"`
				} `json:"results"`
			}
			json.Unmarshal([]byte(st.raw), &v)
			snap := v.Results[provider+":"+kind].Snapshot
			if snap.QueryID == "" || snap.Kept == 0 || snap.Skipped == 0 {
				t.Fatalf("snapshot %s: %s", kind, st.raw)
			}
			return snap.QueryID, id
		}
		if st.status != 200 || st.body["status"] == "failed" || time.Now().After(deadline) {
			t.Fatalf("snapshot task: %s", st.raw)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// followConsent opens an authorize URL of a fake and returns where it redirects.
func followConsent(t *testing.T, authURL string) *url.URL {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || resp.StatusCode != http.StatusFound {
		t.Fatalf("consent: %s", resp.Status)
	}
	return loc
}

// adminSession signs the demo admin in and returns the cookie header.
func adminSession(t *testing.T, e *env) map[string]string {
	t.Helper()
	pw, err := os.ReadFile(filepath.Join(e.app.Config.DataDir, allapp.DemoPasswordFile))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]string{"email": account.DemoAdminEmail, "password": strings.TrimSpace(string(pw))})
	login := e.do(t, "POST", "/v1/auth/login", nil, string(body))
	if login.status != 200 {
		t.Fatalf("login = %d %s", login.status, login.raw)
	}
	cookie := strings.SplitN(login.header.Get("Set-Cookie"), ";", 2)[0]
	return map[string]string{"Cookie": cookie}
}
