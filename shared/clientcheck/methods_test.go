package clientcheck_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/client"
	"github.com/firmoapi/firmo/shared/testkit/crmfake"
)

// TestEveryMethodAgainstTheDemoWorld calls every method of Client at least once
// against a whole local composition over a small demo world (a local OpenAI-compatible
// model for research, the HubSpot fake for the CRM routes) and checks each decoded
// answer. Steps share what earlier ones made (ids), so they run in order.
func TestEveryMethodAgainstTheDemoWorld(t *testing.T) {
	llm := fakeLLM(t)
	hub, err := crmfake.Start(crmfake.Options{Provider: crmfake.HubSpot, Websites: nil, Companies: 5, Contacts: 5})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(hub.Close)
	s := newServer(t, 60, map[string]string{
		"FIRMO_FETCH_ALLOW_HOSTS":         strings.TrimPrefix(llm.URL, "http://") + "," + strings.TrimPrefix(hub.URL(), "http://"),
		"FIRMO_CRM_REDIRECT_BASE_URL":     "https://firmo.test",
		"FIRMO_CRM_HUBSPOT_CLIENT_ID":     hub.ClientID(),
		"FIRMO_CRM_HUBSPOT_CLIENT_SECRET": hub.ClientSecret(),
		"FIRMO_CRM_HUBSPOT_AUTH_URL":      hub.AuthURL(),
		"FIRMO_CRM_HUBSPOT_TOKEN_URL":     hub.TokenURL(),
		"FIRMO_CRM_HUBSPOT_API_URL":       hub.URL(),
	})
	s.start(t)
	c := s.client(t)
	ctx := context.Background()
	w := s.world()
	dom := w.Domain(0)
	var domains []string
	for i := range w.Len() {
		domains = append(domains, w.Domain(i))
	}
	wait := client.WaitOptions{Interval: 50 * time.Millisecond, MaxInterval: 200 * time.Millisecond}
	called := map[string]bool{}
	var charged int64

	// State the steps share.
	var (
		keyID, queryID, integrationID, providerID, session, crmTask string
		someContact                                                 client.Contact
		crmBack                                                     url.Values
	)
	llmBase := llm.URL + "/v1"

	steps := []struct {
		method string
		run    func(t *testing.T) (*client.Response, error)
	}{
		{"Healthz", func(t *testing.T) (*client.Response, error) {
			h, resp, err := c.Healthz(ctx)
			if err == nil && h.Status != "ok" {
				t.Errorf("healthz %+v", h)
			}
			return resp, err
		}},
		{"Readyz", func(t *testing.T) (*client.Response, error) {
			h, resp, err := c.Readyz(ctx)
			if err == nil && h.Status != "ready" {
				t.Errorf("readyz %+v", h)
			}
			return resp, err
		}},
		{"OpenAPIDocument", func(t *testing.T) (*client.Response, error) {
			doc, resp, err := c.OpenAPIDocument(ctx)
			var v struct {
				OpenAPI string `json:"openapi"`
			}
			if err == nil && (json.Unmarshal(doc, &v) != nil || !strings.HasPrefix(v.OpenAPI, "3.1")) {
				t.Errorf("openapi.json: %.100s", doc)
			}
			return resp, err
		}},
		{"GenModels", func(t *testing.T) (*client.Response, error) {
			m, resp, err := c.GenModels(ctx)
			if err == nil && len(m.Models) == 0 {
				t.Errorf("no models")
			}
			return resp, err
		}},
		{"GetAccount", func(t *testing.T) (*client.Response, error) {
			a, resp, err := c.GetAccount(ctx)
			if err == nil && (a.OrgID == "" || a.AuthMethod != "api_key") {
				t.Errorf("account %+v", a)
			}
			return resp, err
		}},
		{"CreateAPIKey", func(t *testing.T) (*client.Response, error) {
			k, resp, err := c.CreateAPIKey(ctx, "client test")
			if err == nil {
				if k.Secret == "" || k.KeyID == "" || k.Name != "client test" {
					t.Errorf("created key %+v", k)
				}
				keyID = k.KeyID
			}
			return resp, err
		}},
		{"APIKeys", func(t *testing.T) (*client.Response, error) {
			ks, resp, err := c.APIKeys(ctx)
			if err == nil && !slices.ContainsFunc(ks.Keys, func(k client.Key) bool { return k.KeyID == keyID && k.Active }) {
				t.Errorf("keys %+v lack the new key %s", ks.Keys, keyID)
			}
			return resp, err
		}},
		{"RevokeAPIKey", func(t *testing.T) (*client.Response, error) {
			r, resp, err := c.RevokeAPIKey(ctx, keyID)
			if err == nil && (r.KeyID != keyID || r.RevokedAt == "") {
				t.Errorf("revoked %+v", r)
			}
			return resp, err
		}},
		{"Bizdata", func(t *testing.T) (*client.Response, error) {
			p, resp, err := c.Bizdata(ctx, dom)
			if err == nil && (p.Domain != dom || p.Name == "") {
				t.Errorf("bizdata %s: %+v", dom, p)
			}
			return resp, err
		}},
		{"Score", func(t *testing.T) (*client.Response, error) {
			sc, resp, err := c.Score(ctx, dom)
			if err == nil && (sc.Domain != dom || sc.ScoredOn == "") {
				t.Errorf("score %+v", sc)
			}
			return resp, err
		}},
		{"History", func(t *testing.T) (*client.Response, error) {
			h, resp, err := c.History(ctx, client.HistoryParams{Domain: dom, MaxRecords: 100})
			if err == nil && (h.Domain != dom || len(h.Certificates) == 0 || len(h.Certificates) > 100) {
				t.Errorf("history: %d certificates", len(h.Certificates))
			}
			return resp, err
		}},
		{"Industries", func(t *testing.T) (*client.Response, error) {
			in, resp, err := c.Industries(ctx)
			if err == nil && (len(in.Industries) == 0 || in.Industries[0].Label == "") {
				t.Errorf("industries %+v", in)
			}
			return resp, err
		}},
		{"Extract", func(t *testing.T) (*client.Response, error) {
			x, resp, err := c.Extract(ctx, client.ExtractParams{Domain: dom})
			if err == nil && x.Text == "" {
				t.Errorf("extract: no text")
			}
			return resp, err
		}},
		{"Match", func(t *testing.T) (*client.Response, error) {
			name := w.Company(0).Row.Name
			m, resp, err := c.Match(ctx, client.MatchParams{Name: name})
			if err == nil && (len(m.Matches) == 0 || m.Query.Name != name || !slices.ContainsFunc(m.Matches, func(mc client.MatchCandidate) bool { return mc.Domain == dom })) {
				t.Errorf("match %q: %d matches, query %+v", name, len(m.Matches), m.Query)
			}
			return resp, err
		}},
		{"CountContacts", func(t *testing.T) (*client.Response, error) {
			n, resp, err := c.CountContacts(ctx, client.ContactFilters{HasEmail: client.Bool(true)})
			if err == nil && n.Count == 0 {
				t.Errorf("count 0")
			}
			return resp, err
		}},
		{"ListContacts", func(t *testing.T) (*client.Response, error) {
			cs, resp, err := c.ListContacts(ctx, client.ContactSearch{ContactFilters: client.ContactFilters{HasEmail: client.Bool(true)}, MaxRecords: 20})
			if err == nil {
				if len(cs) == 0 || len(cs) > 20 || cs[0].Email == nil || cs[0].PersonaID == 0 {
					t.Fatalf("contacts %+v", cs)
				}
				someContact = cs[0]
			}
			return resp, err
		}},
		{"DiscoverContacts", func(t *testing.T) (*client.Response, error) {
			r, resp, err := c.DiscoverContacts(ctx, client.ContactSearch{Domain: []string{someContact.Domain}, MaxRecords: 50})
			if err == nil {
				if e, ok := r.Results[someContact.Domain]; !ok || len(e.Contacts) == 0 || r.TotalDomains != 1 {
					t.Errorf("discover %s: %d domains", someContact.Domain, r.TotalDomains)
				}
			}
			return resp, err
		}},
		{"LookupContact", func(t *testing.T) (*client.Response, error) {
			l, resp, err := c.LookupContact(ctx, client.LookupParams{PersonaID: someContact.PersonaID})
			if err == nil && (l.PersonaID != someContact.PersonaID || l.Name != someContact.Name) {
				t.Errorf("lookup %+v, want %s", l, someContact.Name)
			}
			return resp, err
		}},
		{"FindEmail", func(t *testing.T) (*client.Response, error) {
			first, last, _ := strings.Cut(someContact.Name, " ")
			ref, resp, err := c.FindEmail(ctx, client.EmailFindRequest{FirstName: first, LastName: last, Domain: someContact.Domain})
			if err == nil && ref.JobID == "" {
				t.Errorf("no job id")
			}
			if err == nil {
				run, werr := client.ResumeTask[client.EmailJob](ctx, c, ref.JobID, client.EmailJobPath, wait)
				if werr != nil || run.Result.Status != "completed" || run.Result.Result.Domain != someContact.Domain {
					t.Errorf("email job: %v %+v", werr, run.Result)
				}
			}
			return resp, err
		}},
		{"GetEmailJob", func(t *testing.T) (*client.Response, error) {
			run, err := c.FindEmailAndWait(ctx, client.EmailFindRequest{FirstName: "Jane", LastName: "Doe", Domain: dom}, wait)
			if err != nil {
				return nil, err
			}
			j, resp, err := c.GetEmailJob(ctx, run.ID)
			if err == nil && (j.JobID != run.ID || j.Status != run.Result.Status || j.Kind != "find") {
				t.Errorf("job %+v", j)
			}
			return resp, err
		}},
		{"FindEmailBatch", func(t *testing.T) (*client.Response, error) {
			b, resp, err := c.FindEmailBatch(ctx, client.EmailBatchRequest{Requests: []client.EmailFindRequest{{FirstName: "Ann", LastName: "Lee", Domain: dom}, {FirstName: "Bo", LastName: "Ek", Domain: w.Domain(1)}}})
			if err == nil && (b.Total != 2 || len(b.JobIDs) != 2 || b.BatchID == "") {
				t.Errorf("batch %+v", b)
			}
			return resp, err
		}},
		{"GetEmailBatch", func(t *testing.T) (*client.Response, error) {
			run, err := c.FindEmailBatchAndWait(ctx, client.EmailBatchRequest{Requests: []client.EmailFindRequest{{FirstName: "Cy", LastName: "Ng", Domain: dom}}}, wait)
			if err != nil {
				return nil, err
			}
			b, resp, err := c.GetEmailBatch(ctx, run.ID)
			if err == nil && (b.BatchID != run.ID || b.Total != 1 || b.Completed+b.Failed != 1 || len(b.Results) != 1) {
				t.Errorf("batch results %+v", b)
			}
			return resp, err
		}},
		{"CreateExclusionList", func(t *testing.T) (*client.Response, error) {
			l, resp, err := c.CreateExclusionList(ctx, client.ExclusionListRequest{QueryName: "customers", Domains: domains[:20]})
			if err == nil {
				if l.QueryID == "" || l.DomainCount != 20 {
					t.Errorf("list %+v", l)
				}
				queryID = l.QueryID
			}
			return resp, err
		}},
		{"SavedQueries", func(t *testing.T) (*client.Response, error) {
			q, resp, err := c.SavedQueries(ctx, client.PageParams{MaxRecords: 10})
			if err == nil && !slices.ContainsFunc(q.Results, func(s client.SavedQuery) bool { return s.QueryID == queryID && s.DomainCount == 20 }) {
				t.Errorf("saved %+v lack %s", q, queryID)
			}
			return resp, err
		}},
		{"UpdateQuery", func(t *testing.T) (*client.Response, error) {
			u, resp, err := c.UpdateQuery(ctx, queryID, client.QueryUpdate{Tags: []string{"crm"}})
			if err == nil && (u.QueryID != queryID || !slices.Equal(u.Tags, []string{"crm"})) {
				t.Errorf("updated %+v", u)
			}
			return resp, err
		}},
		{"Append", func(t *testing.T) (*client.Response, error) {
			rows, resp, err := c.Append(ctx, client.AppendRequest{File: strings.NewReader("website\n" + strings.Join(domains[:4], "\n") + "\n"), FileName: "sites.csv", Dataset: []string{"bizdata"}})
			if err == nil && (len(rows) != 4 || rows[0].Domain() != domains[0]) {
				t.Errorf("append: %d rows, first %v", len(rows), rows)
			}
			return resp, err
		}},
		{"AppendCSV", func(t *testing.T) (*client.Response, error) {
			raw, resp, err := c.AppendCSV(ctx, client.AppendRequest{QueryID: []string{queryID}, Dataset: []string{"growth"}})
			if err == nil {
				recs, cerr := csv.NewReader(bytes.NewReader(raw)).ReadAll()
				if cerr != nil || len(recs) != 21 || !slices.Contains(recs[0], "domain") {
					t.Errorf("append csv (%v): %q", cerr, raw)
				}
			}
			return resp, err
		}},
		{"DeleteQuery", func(t *testing.T) (*client.Response, error) {
			d, resp, err := c.DeleteQuery(ctx, queryID)
			if err == nil && d.Message == "" {
				t.Errorf("deleted %+v", d)
			}
			return resp, err
		}},
		{"TestLLMConnection", func(t *testing.T) (*client.Response, error) {
			r, resp, err := c.TestLLMConnection(ctx, client.LLMConnectionTest{Provider: "custom", ModelName: "test-model", APIKey: "sk-test-0123456789", BaseURL: &llmBase})
			if err == nil && r.Status != "success" {
				t.Errorf("test connection %+v", r)
			}
			return resp, err
		}},
		{"CreateLLMIntegration", func(t *testing.T) (*client.Response, error) {
			r, resp, err := c.CreateLLMIntegration(ctx, client.LLMIntegrationRequest{IntegrationName: "local", Provider: "custom", ModelName: "test-model", APIKey: "sk-test-0123456789", BaseURL: &llmBase})
			if err == nil {
				if r.IntegrationID == "" {
					t.Errorf("created %+v", r)
				}
				integrationID = r.IntegrationID
			}
			return resp, err
		}},
		{"LLMIntegrations", func(t *testing.T) (*client.Response, error) {
			l, resp, err := c.LLMIntegrations(ctx)
			if err == nil && !slices.ContainsFunc(l.Providers, func(p client.LLMIntegration) bool {
				return p.IntegrationID == integrationID && p.APIKey == "*****"
			}) {
				t.Errorf("integrations %+v", l)
			}
			return resp, err
		}},
		{"GetLLMIntegration", func(t *testing.T) (*client.Response, error) {
			g, resp, err := c.GetLLMIntegration(ctx, integrationID)
			if err == nil && (g.IntegrationName != "local" || g.BaseURL == nil || *g.BaseURL != llmBase) {
				t.Errorf("integration %+v", g)
			}
			return resp, err
		}},
		{"UpdateLLMIntegration", func(t *testing.T) (*client.Response, error) {
			u, resp, err := c.UpdateLLMIntegration(ctx, integrationID, client.LLMIntegrationUpdate{IntegrationName: "local model"})
			if err == nil && u.IntegrationID != integrationID {
				t.Errorf("updated %+v", u)
			}
			return resp, err
		}},
		{"SetDefaultLLMIntegration", func(t *testing.T) (*client.Response, error) {
			u, resp, err := c.SetDefaultLLMIntegration(ctx, integrationID)
			if err == nil && (u.IntegrationID != integrationID || u.Integration != nil && !u.Integration.IsDefault) {
				t.Errorf("default %+v", u)
			}
			return resp, err
		}},
		{"CreateSearchProvider", func(t *testing.T) (*client.Response, error) {
			p, resp, err := c.CreateSearchProvider(ctx, client.SearchProviderRequest{Provider: "native", Name: "Firmo pages"})
			if err == nil {
				providerID = p.ProviderID
				if providerID == "" {
					t.Errorf("provider %+v", p)
				}
			}
			return resp, err
		}},
		{"SearchProviders", func(t *testing.T) (*client.Response, error) {
			l, resp, err := c.SearchProviders(ctx)
			if err == nil && !slices.ContainsFunc(l.Providers, func(p client.SearchProvider) bool { return p.ProviderID == providerID && p.Provider == "native" }) {
				t.Errorf("providers %+v", l)
			}
			return resp, err
		}},
		{"SetDefaultSearchProvider", func(t *testing.T) (*client.Response, error) {
			p, resp, err := c.SetDefaultSearchProvider(ctx, providerID)
			if err == nil && p.ProviderID != providerID {
				t.Errorf("default %+v", p)
			}
			return resp, err
		}},
		{"Research", func(t *testing.T) (*client.Response, error) {
			sub, resp, err := c.Research(ctx, client.ProcessRequest{Query: "What do they sell?", Domains: domains[:2], ContextMode: "domain", IntegrationID: integrationID})
			if err == nil && (sub.TaskID == "" || sub.TotalDomains != 2 || sub.Status != "in_progress") {
				t.Errorf("research %+v", sub)
			}
			return resp, err
		}},
		{"GetGenerationTask", func(t *testing.T) (*client.Response, error) {
			run, err := c.ResearchAndWait(ctx, client.ProcessRequest{Query: "What do they sell?", Domains: domains[2:4], ContextMode: "domain", IntegrationID: integrationID}, wait)
			if err != nil {
				return nil, err
			}
			g, resp, err := c.GetGenerationTask(ctx, run.ID)
			if err == nil && (g.Status != "completed" || len(g.Results) != 2 || g.Progress != 100) {
				t.Errorf("research task %+v", g)
			}
			return resp, err
		}},
		{"ResearchPersonas", func(t *testing.T) (*client.Response, error) {
			sub, resp, err := c.ResearchPersonas(ctx, client.ProcessPersonasRequest{Query: "What is their role?", PersonaIDs: []int64{someContact.PersonaID}, IntegrationID: integrationID})
			if err == nil {
				run, werr := client.ResumeTask[client.GenerationTask](ctx, c, sub.TaskID, client.GenStatusPath, wait)
				if werr != nil || len(run.Result.Results) != 1 {
					t.Errorf("persona research: %v %+v", werr, run.Result)
				}
			}
			return resp, err
		}},
		{"ValidateICP", func(t *testing.T) (*client.Response, error) {
			sub, resp, err := c.ValidateICP(ctx, client.ValidateICPRequest{ICPText: "Mandatory: B2B\nReject if: agencies\nNice-to-have: US", Domains: domains[4:6], IntegrationID: "native-icp"})
			if err == nil {
				run, werr := client.ResumeTask[client.GenerationTask](ctx, c, sub.TaskID, client.GenStatusPath, wait)
				if werr != nil || len(run.Result.Results) != 2 {
					t.Errorf("ICP validation: %v %+v", werr, run.Result)
				}
			}
			return resp, err
		}},
		{"GenerateContacts", func(t *testing.T) (*client.Response, error) {
			sub, resp, err := c.GenerateContacts(ctx, client.GenerateRequest{ICPText: "Leadership", Domains: domains[6:7], IntegrationID: "native"})
			if err == nil {
				run, werr := client.ResumeTask[client.GenerationTask](ctx, c, sub.TaskID, client.GenStatusPath, wait)
				if werr != nil || run.Result.Status != "completed" {
					t.Errorf("contact generation: %v %+v", werr, run.Result)
				}
			}
			return resp, err
		}},
		{"CancelTask", func(t *testing.T) (*client.Response, error) {
			run, err := c.ResearchAndWait(ctx, client.ProcessRequest{Query: "Who owns them?", Domains: domains[7:8], ContextMode: "domain", IntegrationID: integrationID}, wait)
			if err != nil {
				return nil, err
			}
			r, resp, err := c.CancelTask(ctx, run.ID)
			// The task has ended: nothing to cancel (a running one: task_test.go).
			if err == nil && (r.TaskID != run.ID || r.Success || r.Status != "completed") {
				t.Errorf("cancel %+v", r)
			}
			return resp, err
		}},
		{"BulkMatch", func(t *testing.T) (*client.Response, error) {
			ref, resp, err := c.BulkMatch(ctx, client.BulkMatchRequest{File: strings.NewReader("Company\n" + w.Company(1).Row.Name + "\n"), FileName: "names.csv", NameColumn: "Company"})
			if err == nil && ref.TaskID == "" {
				t.Errorf("bulk match %+v", ref)
			}
			return resp, err
		}},
		{"GetBulkMatchStatus", func(t *testing.T) (*client.Response, error) {
			run, err := client.RunTask[client.TaskRef](ctx, c, func(ctx context.Context) (string, *client.Response, error) {
				ref, resp, err := c.BulkMatch(ctx, client.BulkMatchRequest{File: strings.NewReader("Company\n" + w.Company(2).Row.Name + "\n"), FileName: "names.csv", NameColumn: "Company"})
				if err != nil {
					return "", resp, err
				}
				return ref.TaskID, resp, nil
			}, client.BulkMatchStatusPath, wait)
			if err != nil {
				return nil, err
			}
			st, resp, err := c.GetBulkMatchStatus(ctx, run.ID)
			if err == nil && (st.Status != "completed" || st.TotalRows != 1 || len(st.Results) != 1) {
				t.Errorf("bulk match status %+v", st)
			}
			return resp, err
		}},
		{"Segment", func(t *testing.T) (*client.Response, error) {
			ref, resp, err := c.Segment(ctx, client.SegmentRequest{Domains: domains})
			if err == nil && ref.TaskID == "" {
				t.Errorf("segment %+v", ref)
			}
			return resp, err
		}},
		{"GetSegmentStatus", func(t *testing.T) (*client.Response, error) {
			run, err := c.SegmentAndWait(ctx, client.SegmentRequest{File: strings.NewReader("domain\n" + strings.Join(domains[:30], "\n") + "\n"), FileName: "d.csv"}, wait)
			if err != nil {
				return nil, err
			}
			st, resp, err := c.GetSegmentStatus(ctx, run.ID)
			if err == nil {
				if st.Status != "completed" || st.TotalDomains != 30 || len(st.Results) == 0 || len(st.Results)+st.OmittedClosed+st.OmittedUnindexed != 30 {
					t.Errorf("segment status: %s, %d domains, %d results, %d closed, %d unindexed", st.Status, st.TotalDomains, len(st.Results), st.OmittedClosed, st.OmittedUnindexed)
				}
				for _, r := range st.Results {
					if !slices.Contains(domains[:30], r.Domain) {
						t.Errorf("segmented %s, not in the file", r.Domain)
					}
				}
			}
			return resp, err
		}},
		{"Usage", func(t *testing.T) (*client.Response, error) {
			u, resp, err := c.Usage(ctx, client.UsageParams{})
			if err == nil && (u.Total.Credits <= 0 || len(u.ByEndpoint) == 0) {
				t.Errorf("usage %+v", u)
			}
			return resp, err
		}},
		{"CRMAuthorize", func(t *testing.T) (*client.Response, error) {
			a, resp, err := c.CRMAuthorize(ctx, "hubspot")
			if err != nil {
				return resp, err
			}
			if !strings.HasPrefix(a.AuthorizeURL, hub.AuthURL()) {
				t.Fatalf("authorize url %s", a.AuthorizeURL)
			}
			// The user consents at the provider, which redirects back.
			hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			r, err := hc.Get(a.AuthorizeURL)
			if err != nil {
				t.Fatal(err)
			}
			r.Body.Close()
			loc, err := url.Parse(r.Header.Get("Location"))
			if err != nil || r.StatusCode != http.StatusFound {
				t.Fatalf("consent: %s %v", r.Status, err)
			}
			crmBack = loc.Query()
			return resp, err
		}},
		{"CRMCallback", func(t *testing.T) (*client.Response, error) {
			cb, resp, err := c.CRMCallback(ctx, "hubspot", client.CRMCallbackParams{State: crmBack.Get("state"), Code: crmBack.Get("code")})
			if err == nil && (cb.Connection.Provider != "hubspot" || cb.Connection.Status != "active") {
				t.Errorf("callback %+v", cb)
			}
			return resp, err
		}},
		{"CRMConnections", func(t *testing.T) (*client.Response, error) {
			cs, resp, err := c.CRMConnections(ctx, true)
			if err == nil && (len(cs) != 1 || cs[0].Provider != "hubspot" || cs[0].Status != "active" || cs[0].ConnectedAt == nil) {
				t.Errorf("connections %+v", cs)
			}
			return resp, err
		}},
		{"CRMSuppress", func(t *testing.T) (*client.Response, error) {
			sup, resp, err := c.CRMSuppress(ctx, "hubspot", "companies")
			if err == nil {
				crmTask = sup.TaskID
				run, werr := client.ResumeTask[client.GenerationTask](ctx, c, crmTask, client.GenStatusPath, wait)
				if sup.Provider != "hubspot" || sup.Kind != "companies" || werr != nil || run.Result.Status != "completed" {
					t.Errorf("suppress %+v: %v %+v", sup, werr, run.Result)
				}
			}
			return resp, err
		}},
		{"Login", func(t *testing.T) (*client.Response, error) {
			l, resp, err := c.Login(ctx, client.LoginRequest{Email: account.DemoAdminEmail, Password: s.demoAdminPassword(t)})
			if err == nil {
				session = l.Session
				if session == "" || l.OrgID == "" {
					t.Errorf("login %+v", l)
				}
			}
			return resp, err
		}},
		{"DeleteCRMConnection", func(t *testing.T) (*client.Response, error) {
			// An API key may not remove a connection; the admin session may.
			_, _, err := c.DeleteCRMConnection(ctx, "hubspot")
			var e *client.Error
			if !errors.As(err, &e) || e.Status != http.StatusForbidden {
				t.Errorf("delete with the API key: %v", err)
			}
			m, resp, err := c.WithSession(session).DeleteCRMConnection(ctx, "hubspot")
			if err == nil && m.Message == "" {
				t.Errorf("deleted %+v", m)
			}
			return resp, err
		}},
		{"Logout", func(t *testing.T) (*client.Response, error) {
			m, resp, err := c.WithSession(session).Logout(ctx)
			if err == nil {
				if m.Message == "" {
					t.Errorf("logout %+v", m)
				}
				if _, _, err := c.WithSession(session).GetAccount(ctx); !isStatus(err, http.StatusUnauthorized) {
					t.Errorf("the session still works after logout: %v", err)
				}
			}
			return resp, err
		}},
		{"DeleteSearchProvider", func(t *testing.T) (*client.Response, error) {
			d, resp, err := c.DeleteSearchProvider(ctx, providerID)
			if err == nil && d.ProviderID != providerID {
				t.Errorf("deleted %+v", d)
			}
			return resp, err
		}},
		{"DeleteLLMIntegration", func(t *testing.T) (*client.Response, error) {
			d, resp, err := c.DeleteLLMIntegration(ctx, integrationID)
			if err == nil && d.IntegrationID != integrationID {
				t.Errorf("deleted %+v", d)
			}
			if _, _, err := c.GetLLMIntegration(ctx, integrationID); !isStatus(err, http.StatusNotFound) {
				t.Errorf("the deleted integration still answers: %v", err)
			}
			return resp, err
		}},
	}
	for _, st := range steps {
		called[st.method] = true
		t.Run(st.method, func(t *testing.T) {
			resp, err := st.run(t)
			if err != nil {
				t.Fatalf("%s: %v", st.method, err)
			}
			if resp == nil || resp.RequestID == "" || resp.Attempts != 1 || resp.Status/100 != 2 {
				t.Fatalf("%s: response metadata %+v", st.method, resp)
			}
			// Credits is the X-Credits-Charged header (authenticated routes send it).
			if h := resp.Header.Get("X-Credits-Charged"); h != "" && h != strconv.FormatInt(resp.Credits, 10) {
				t.Errorf("%s: Credits %d, header %q", st.method, resp.Credits, h)
			}
			charged += resp.Credits
		})
	}
	if charged == 0 {
		t.Errorf("no call reported credits charged")
	}
	for _, o := range client.Operations() {
		if !called[o.GoMethod] {
			t.Errorf("%s (%s) is not called by any step", o.GoMethod, o.ID)
		}
	}
}

func isStatus(err error, status int) bool {
	var e *client.Error
	return errors.As(err, &e) && e.Status == status
}
