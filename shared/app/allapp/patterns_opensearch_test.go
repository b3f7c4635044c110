package allapp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/app/patternsapp"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/emailpattern"
)

// stubEmbedder is an OpenAI-style embeddings server giving each text a small vector
// computed from it (no model to train).
func stubEmbedder(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		data := make([]string, len(req.Input))
		for i, text := range req.Input {
			v := make([]string, 8)
			for d := range v {
				v[d] = fmt.Sprint(float64((len(text)+d*7)%5) + 0.5)
			}
			data[i] = fmt.Sprintf(`{"object":"embedding","index":%d,"embedding":[%s]}`, i, strings.Join(v, ","))
		}
		fmt.Fprintf(w, `{"object":"list","data":[%s],"model":%q,"usage":{"prompt_tokens":1,"total_tokens":1}}`, strings.Join(data, ","), req.Model)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// patternFields are an entry's email pattern fields.
type patternFields struct {
	Pattern    *string  `json:"email_pattern"`
	Confidence *float64 `json:"email_pattern_confidence"`
	Guess      *string  `json:"email_pattern_guess"`
}

// patternsOf serves a domain-mode discover and returns each entry's pattern fields.
func patternsOf(t *testing.T, a *allapp.App, key string, domains ...string) map[string]patternFields {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"domain": domains, "max_records": 100})
	r := call(t, a, key, "POST", "/v1/contacts/discover", string(body))
	if r.Code != http.StatusOK {
		t.Fatalf("discover: %d %s", r.Code, r.Body)
	}
	var resp struct {
		Results map[string]patternFields `json:"results"` // keyed by domain
	}
	if err := json.Unmarshal(r.Body.Bytes(), &resp); err != nil {
		t.Fatal(err)
	}
	return resp.Results
}

func (p patternFields) String() string {
	if p.Pattern == nil {
		return "no pattern"
	}
	return fmt.Sprintf("%s %.1f%% %s", *p.Pattern, *p.Confidence, *p.Guess)
}

// TestEmailPatternsFollowThePipelineOnOpenSearch: contact search on OpenSearch (the
// local composition on osfake) answers the email patterns the embedded composition
// (same store contents, the pattern book learning from every address) answers, and
// keeps answering them as they change:
//   - a company stored again (what derivation and reprocessing do) publishes its
//     domain's pattern;
//   - contacts stored later that flip a domain's pattern reach the answer through the
//     local reprocess loop (the scheduled pass publishes the domains they marked);
//   - an address the email finder records reaches it through the scheduler's
//     handler (functions/scheduler's pass).
func TestEmailPatternsFollowThePipelineOnOpenSearch(t *testing.T) {
	ctx := context.Background()
	embedURL := stubEmbedder(t)
	fake := newFakeOpenSearch()
	osSrv := httptest.NewServer(fake)
	defer osSrv.Close()
	open := func(extra map[string]string) (*allapp.App, string) {
		env := map[string]string{"FIRMO_DATA_DIR": t.TempDir(), "FIRMO_EMBEDDER": "openai", "FIRMO_EMBED_BASE_URL": embedURL,
			"FIRMO_EMBED_MODEL": "test-embed-8", "FIRMO_EMBED_DIMS": "8", "FIRMO_EMBED_API_KEY": "sk-test", "FIRMO_DNS_RESOLVER": "127.0.0.1:9"}
		for k, v := range extra {
			env[k] = v
		}
		cfg, err := config.Load(func(k string) string { return env[k] })
		if err != nil {
			t.Fatal(err)
		}
		a, err := allapp.NewLocal(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close() })
		demo, err := a.Accounts.EnsureDemo(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		return a, demo.Key
	}
	osApp, osKey := open(map[string]string{"FIRMO_OPENSEARCH_URL": osSrv.URL})
	embApp, embKey := open(nil)
	apps := []*allapp.App{osApp, embApp}

	now := time.Now().UTC()
	storeCompany := func(a *allapp.App, domain, name string) {
		// A current record: the reprocessing pass has nothing to derive or rescore, so
		// only the published patterns can move the OpenSearch answer in the passes below.
		rec := &company.Record{Domain: domain, Raw: company.Raw{Name: name}, Profile: company.Profile{Domain: domain, Name: name},
			Derived: company.Derived{PipelineVersion: company.PipelineVersion, At: now, CertsAt: now}, Score: company.Scored{On: company.Date(now)}}
		if err := a.Companies.Store().Put(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	id := int64(0)
	putContacts := func(domain string, people ...string) {
		for k := 0; k+1 < len(people); k += 2 {
			id++
			for _, a := range apps {
				if _, err := a.Contacts.Put(ctx, contact.Raw{PersonaID: id, Name: people[k], Title: "Engineer", Domain: domain, Email: people[k+1]}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	domains := []string{"acme-robotics.com", "beta-tools.de", "gamma-labs.io"}
	embedded := func() map[string]patternFields {
		t.Helper()
		if err := patternsapp.Book(embApp.Core).Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		if err := embApp.ContactSearch.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		return patternsOf(t, embApp, embKey, domains...)
	}
	same := func(step string) map[string]patternFields {
		t.Helper()
		want, got := embedded(), patternsOf(t, osApp, osKey, domains...)
		if len(want) != len(domains) || !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: OpenSearch answers %v, the embedded composition %v", step, got, want)
		}
		return want
	}

	putContacts("acme-robotics.com", "Jane Doe", "jane.doe@acme-robotics.com", "John Smith", "john.smith@acme-robotics.com", "Ann Lee", "ann.lee@acme-robotics.com")
	putContacts("beta-tools.de", "Max Mustermann", "mmustermann@beta-tools.de", "Erika Muster", "emuster@beta-tools.de", "Karl Weber", "kweber@beta-tools.de")
	putContacts("gamma-labs.io", "Olga Berg", "") // no address: no pattern yet
	for _, a := range apps {
		storeCompany(a, "acme-robotics.com", "Acme Robotics")
		storeCompany(a, "beta-tools.de", "Beta Tools")
		storeCompany(a, "gamma-labs.io", "Gamma Labs")
	}
	first := same("companies stored")
	if p := first["acme-robotics.com"].Pattern; p == nil || *p != "{first}.{last}@acme-robotics.com" {
		t.Fatalf("acme-robotics.com: %v; want {first}.{last}", first["acme-robotics.com"])
	}

	// New people at acme write {f}{last}: the pattern flips once the local reprocess loop
	// has run.
	putContacts("acme-robotics.com", "Carl Berg", "cberg@acme-robotics.com", "Dana Holt", "dholt@acme-robotics.com",
		"Eve Marsh", "emarsh@acme-robotics.com", "Finn Roe", "froe@acme-robotics.com")
	if got := patternsOf(t, osApp, osKey, domains...); !reflect.DeepEqual(got, first) {
		t.Fatalf("the OpenSearch answer moved before the scheduled pass: %v", got)
	}
	stop := osApp.StartReprocessing(ctx, time.Hour, slog.New(slog.NewTextHandler(io.Discard, nil)))
	deadline := time.Now().Add(20 * time.Second)
	for {
		got := patternsOf(t, osApp, osKey, domains...)
		if !reflect.DeepEqual(got, first) || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	stop()
	second := same("after the reprocess loop")
	if p := second["acme-robotics.com"].Pattern; p == nil || *p != "{f}{last}@acme-robotics.com" {
		t.Fatalf("acme-robotics.com after the loop: %v; want {f}{last}", second["acme-robotics.com"])
	}
	if reflect.DeepEqual(second["beta-tools.de"], first["beta-tools.de"]) {
		t.Fatalf("beta-tools.de kept %v: the model moved with acme's addresses, its confidence should have too", first["beta-tools.de"])
	}

	// The email finder proves an address at gamma (recorded in both stores' logs): the
	// scheduler's pass publishes it.
	if second["gamma-labs.io"].Pattern != nil {
		t.Fatalf("gamma-labs.io has a pattern without an address: %v", second["gamma-labs.io"])
	}
	for _, a := range apps {
		if err := patternsapp.Book(a.Core).Record(ctx, emailpattern.Observation{Domain: "gamma-labs.io", Name: "Lena Vogel", Email: "lena.vogel@gamma-labs.io", Source: "found:job-1"}); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := osApp.HandleSchedule(ctx)
	if err != nil || rep.Patterns != 1 {
		t.Fatalf("scheduler pass: %+v, %v; want the one marked domain published", rep, err)
	}
	third := same("after the scheduler's pass")
	if p := third["gamma-labs.io"].Pattern; p == nil || *p != "{first}.{last}@gamma-labs.io" {
		t.Fatalf("gamma-labs.io after the scheduler's pass: %v; want {first}.{last}", third["gamma-labs.io"])
	}
}
