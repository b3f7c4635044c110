package crm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/crm"
	"github.com/firmoapi/firmo/shared/crm/hubspotcrm"
	"github.com/firmoapi/firmo/shared/crm/pipedrivecrm"
	"github.com/firmoapi/firmo/shared/crm/salesforcecrm"
	"github.com/firmoapi/firmo/shared/domain"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/query"
	"github.com/firmoapi/firmo/shared/secret"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/testkit/crmfake"
)

// rig is a CRM service on a bbolt store against the fakes, with its tasks run at
// once, its token responses recorded and its log captured.
type rig struct {
	t       *testing.T
	svc     *crm.Service
	store   kv.Store
	dbPath  string
	queries *query.Service
	fakes   map[string]*crmfake.Server
	log     *bytes.Buffer
	now     func() time.Time
	people  map[string]int64

	mu      sync.Mutex
	tokens  []string // every access and refresh token the fakes issued
	pending []task.Submission
}

type rigOptions struct {
	fake  crmfake.Options
	now   func() time.Time
	hooks map[string]func(crm.Provider) crm.Provider // wraps a provider (tests that act mid-snapshot)
	hub   hubspotcrm.Options
}

func newRig(t *testing.T, o rigOptions) *rig {
	t.Helper()
	r := &rig{t: t, log: &bytes.Buffer{}, fakes: map[string]*crmfake.Server{}, people: map[string]int64{}}
	r.now = o.now
	if r.now == nil {
		r.now = time.Now
	}
	r.dbPath = filepath.Join(t.TempDir(), "kv.db")
	store, err := boltkv.Open(r.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	r.store = store
	box, err := secret.New(bytes.Repeat([]byte{9}, secret.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	r.queries = query.New(store)
	providers := map[string]crm.Setup{}
	for _, name := range crm.Names() {
		fo := o.fake
		fo.Provider = name
		if fo.Now == nil {
			fo.Now = o.now
		}
		f, err := crmfake.Start(fo)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(f.Close)
		r.fakes[name] = f
		var p crm.Provider
		switch name {
		case crm.HubSpot:
			ho := o.hub
			ho.AuthURL, ho.TokenURL, ho.APIBase = f.AuthURL(), f.TokenURL(), f.URL()
			p = hubspotcrm.New(ho)
		case crm.Salesforce:
			p = salesforcecrm.New(salesforcecrm.Options{AuthURL: f.AuthURL(), TokenURL: f.TokenURL()})
		case crm.Pipedrive:
			p = pipedrivecrm.New(pipedrivecrm.Options{AuthURL: f.AuthURL(), TokenURL: f.TokenURL()})
		}
		if h := o.hooks[name]; h != nil {
			p = h(p)
		}
		providers[name] = crm.Setup{Provider: p, ClientID: f.ClientID(), ClientSecret: f.ClientSecret()}
	}
	r.svc = crm.New(crm.Deps{
		Store: store, Sealer: box, Providers: providers, RedirectBaseURL: "https://firmo.example",
		Lists: r.queries, People: peopleMap(r.people), Tasks: r,
		HTTP: &http.Client{Transport: &recorder{r: r, base: http.DefaultTransport}, Timeout: time.Minute}, AllowHosts: []string{"127.0.0.1"},
		Log: slog.New(slog.NewTextHandler(r.log, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Now: r.now,
	})
	return r
}

// Submit keeps the submission; run processes it.
func (r *rig) Submit(_ context.Context, s task.Submission) (task.Submitted, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pending = append(r.pending, s)
	return task.Submitted{TaskID: fmt.Sprintf("task-%d", len(r.pending))}, nil
}

// run processes the last submission as the engine would and returns its snapshot.
func (r *rig) run(ctx context.Context) (crm.Snapshot, error) {
	r.t.Helper()
	r.mu.Lock()
	s := r.pending[len(r.pending)-1]
	r.mu.Unlock()
	res, err := r.svc.Kind().Processor.Process(ctx, task.Record{Ref: task.Ref{OrgID: s.OrgID, TaskID: "t"}, Key: s.Records[0].Key, Params: s.Params, Attempt: 1})
	if err != nil {
		return crm.Snapshot{}, err
	}
	b, _ := json.Marshal(res.Row["snapshot"])
	var snap crm.Snapshot
	if err := json.Unmarshal(b, &snap); err != nil {
		r.t.Fatal(err)
	}
	return snap, nil
}

type peopleMap map[string]int64

func (p peopleMap) PersonaByEmail(_ context.Context, email string) (int64, error) {
	if id, ok := p[email]; ok {
		return id, nil
	}
	return 0, fmt.Errorf("contact %q: %w", email, apperr.ErrNotFound)
}

// recorder notes the tokens of every token response.
type recorder struct {
	r    *rig
	base http.RoundTripper
}

func (rc *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := rc.base.RoundTrip(req)
	if err != nil || !strings.Contains(req.URL.Path, "token") {
		return resp, err
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	var tok struct {
		Access  string `json:"access_token"`
		Refresh string `json:"refresh_token"`
	}
	json.Unmarshal(body, &tok)
	rc.r.mu.Lock()
	for _, v := range []string{tok.Access, tok.Refresh} {
		if v != "" {
			rc.r.tokens = append(rc.r.tokens, v)
		}
	}
	rc.r.mu.Unlock()
	return resp, nil
}

// consent follows an authorize URL through the fake's consent and returns the
// callback's query.
func consent(t *testing.T, authURL string) url.Values {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(authURL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil {
		t.Fatalf("authorize answered %s", resp.Status)
	}
	return loc.Query()
}

// connect runs authorize, consent and callback for an organisation.
func (r *rig) connect(ctx context.Context, org, provider string) crm.Connection {
	r.t.Helper()
	u, err := r.svc.Authorize(ctx, org, "user-"+org, provider)
	if err != nil {
		r.t.Fatal(err)
	}
	if !strings.Contains(u, "code_challenge_method=S256") || !strings.Contains(u, url.QueryEscape("https://firmo.example/v1/crm/"+provider+"/callback")) {
		r.t.Fatalf("authorize URL %s lacks PKCE or the callback", u)
	}
	q := consent(r.t, u)
	c, err := r.svc.Complete(ctx, crm.Callback{Provider: provider, State: q.Get("state"), Code: q.Get("code")})
	if err != nil {
		r.t.Fatal(err)
	}
	return c
}

func normalized(values []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range values {
		if d, err := domain.Normalize(v); err == nil && !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return out
}

// TestFullFlowAgainstEachFake: authorize, consent, callback, probe, both snapshots,
// a second snapshot replacing the first list's contents under the same id, and
// removal, against each provider's fake.
func TestFullFlowAgainstEachFake(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, rigOptions{fake: crmfake.Options{Companies: 60, Contacts: 40, Seed: 5, MaxPageSize: 7}})
	for _, provider := range crm.Names() {
		t.Run(provider, func(t *testing.T) {
			r.t = t
			fake := r.fakes[provider]
			emails := fake.Emails()
			for i, e := range emails {
				if i%3 != 0 { // two in three are known contacts
					r.people[strings.ToLower(e)] = int64(1000 + i)
				}
			}
			c := r.connect(ctx, provider, provider)
			if c.Status != crm.StatusActive || c.ConnectedAt == nil {
				t.Fatalf("connection = %+v", c)
			}
			list, err := r.svc.Connections(ctx, provider, true)
			if err != nil || len(list) != 1 || list[0].Status != crm.StatusActive || list[0].ProbeError != "" {
				t.Fatalf("probe = %+v, %v", list, err)
			}
			if _, err := r.svc.Suppress(ctx, provider, query.Actor{UserID: "u"}, provider, crm.KindCompanies); err != nil {
				t.Fatal(err)
			}
			snap, err := r.run(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := r.queries.Lists(ctx, provider, snap.QueryID)
			if err != nil {
				t.Fatal(err)
			}
			sort.Strings(got)
			if want := normalized(fake.Websites()); !slices.Equal(got, want) || snap.Kept != len(want) {
				t.Fatalf("companies list = %d domains, want the fake's %d normalized websites", len(got), len(want))
			}
			invalid := 0
			for _, w := range fake.Websites() {
				if _, err := domain.Normalize(w); err != nil {
					invalid++
				}
			}
			if snap.Skipped != invalid || snap.Read != len(fake.Websites()) {
				t.Errorf("snapshot %+v: want every website read and the %d that are no domain skipped", snap, invalid)
			}
			if _, err := r.svc.Suppress(ctx, provider, query.Actor{UserID: "u"}, provider, crm.KindContacts); err != nil {
				t.Fatal(err)
			}
			csnap, err := r.run(ctx)
			if err != nil {
				t.Fatal(err)
			}
			_, ids, err := r.queries.Lists(ctx, provider, csnap.QueryID)
			if err != nil {
				t.Fatal(err)
			}
			var want []int64
			for _, e := range emails {
				if id, ok := r.people[strings.ToLower(e)]; ok && !slices.Contains(want, id) {
					want = append(want, id)
				}
			}
			slices.Sort(ids)
			slices.Sort(want)
			if !slices.Equal(ids, want) || csnap.Skipped != csnap.Read-len(want) || csnap.Skipped == 0 {
				t.Fatalf("contacts list = %v (snapshot %+v), want %v", ids, csnap, want)
			}
			// Again: the same list id, the contents replaced.
			delete(r.people, strings.ToLower(emails[1]))
			r.svc.Suppress(ctx, provider, query.Actor{UserID: "u"}, provider, crm.KindContacts)
			again, err := r.run(ctx)
			if err != nil {
				t.Fatal(err)
			}
			_, ids2, _ := r.queries.Lists(ctx, provider, again.QueryID)
			if again.QueryID != csnap.QueryID || len(ids2) != len(ids)-1 {
				t.Fatalf("second snapshot: list %s with %d ids, want %s with %d", again.QueryID, len(ids2), csnap.QueryID, len(ids)-1)
			}
			if err := r.svc.Disconnect(ctx, provider, provider); err != nil {
				t.Fatal(err)
			}
			if list, _ := r.svc.Connections(ctx, provider, false); len(list) != 0 {
				t.Fatalf("after removal: %+v", list)
			}
			if err := r.svc.Disconnect(ctx, provider, provider); !errors.Is(err, apperr.ErrNotFound) {
				t.Fatalf("second removal: %v, want not found", err)
			}
			if _, err := r.svc.Suppress(ctx, provider, query.Actor{}, provider, crm.KindCompanies); !errors.Is(err, apperr.ErrNotFound) {
				t.Fatalf("suppress without a connection: %v, want not found", err)
			}
		})
	}
}

// TestStateTokensStoreNothingWhenRefused: a replayed, an expired, another provider's
// and another organisation's state token are each refused, and no connection is
// stored for anyone.
func TestStateTokensStoreNothingWhenRefused(t *testing.T) {
	ctx := context.Background()
	clock := crmfake.NewVirtualClock(time.Now())
	r := newRig(t, rigOptions{fake: crmfake.Options{Companies: 3, Contacts: 3}, now: clock.Now})
	mint := func(org, provider string) url.Values {
		u, err := r.svc.Authorize(ctx, org, "u", provider)
		if err != nil {
			t.Fatal(err)
		}
		return consent(t, u)
	}
	refused := func(name string, cb crm.Callback, orgs ...string) {
		t.Helper()
		if _, err := r.svc.Complete(ctx, cb); !errors.Is(err, crm.ErrState) || apperr.Status(err) != 400 {
			t.Fatalf("%s: %v, want a 400 state refusal", name, err)
		}
		for _, org := range orgs {
			if list, _ := r.svc.Connections(ctx, org, false); len(list) != 0 {
				t.Fatalf("%s: org %s has %+v", name, org, list)
			}
		}
	}
	// Expired: 10 minutes and a second after minting.
	q := mint("acme", crm.HubSpot)
	clock.Advance(crm.StateTTL + time.Second)
	refused("expired", crm.Callback{Provider: crm.HubSpot, State: q.Get("state"), Code: q.Get("code")}, "acme")
	// Another provider's callback.
	q = mint("acme", crm.HubSpot)
	refused("other provider", crm.Callback{Provider: crm.Pipedrive, State: q.Get("state"), Code: q.Get("code")}, "acme")
	// ... and the token is spent: its own provider's callback is refused too.
	refused("after a foreign use", crm.Callback{Provider: crm.HubSpot, State: q.Get("state"), Code: q.Get("code")}, "acme")
	// Another organisation's browser.
	q = mint("acme", crm.Salesforce)
	refused("other organisation", crm.Callback{Provider: crm.Salesforce, State: q.Get("state"), Code: q.Get("code"), CallerOrgID: "globex"}, "acme", "globex")
	// Unknown state.
	refused("unknown", crm.Callback{Provider: crm.Salesforce, State: "made-up", Code: "x"}, "acme")
	// Replay: the first use connects, the second stores nothing more.
	q = mint("acme", crm.Pipedrive)
	cb := crm.Callback{Provider: crm.Pipedrive, State: q.Get("state"), Code: q.Get("code")}
	first, err := r.svc.Complete(ctx, cb)
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	refused("replay", cb)
	list, _ := r.svc.Connections(ctx, "acme", false)
	if len(list) != 1 || list[0].Provider != crm.Pipedrive || !list[0].ConnectedAt.Equal(*first.ConnectedAt) {
		t.Fatalf("after the replay: %+v, want the one pipedrive connection of the first use", list)
	}
	// State items are stored only as hashes and never outlive their use.
	raw, err := os.ReadFile(r.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(q.Get("state"))) {
		t.Fatal("a state token is stored in plain text")
	}
}

// TestNeedsReauth: a connection whose tokens the provider revoked turns needs_reauth on
// a probe (the refresh gets invalid_grant), and then refuses snapshots with a clear
// error naming the way back; reconnecting makes it active.
func TestNeedsReauth(t *testing.T) {
	ctx := context.Background()
	r := newRig(t, rigOptions{fake: crmfake.Options{Companies: 3, Contacts: 3}})
	r.connect(ctx, "acme", crm.HubSpot)
	fake := r.fakes[crm.HubSpot]
	fake.RevokeAll()
	fake.ExpireAccessTokens()
	list, err := r.svc.Connections(ctx, "acme", true)
	if err != nil || len(list) != 1 || list[0].Status != crm.StatusNeedsReauth {
		t.Fatalf("probe = %+v, %v; want needs_reauth\n%s", list, err, r.log)
	}
	_, err = r.svc.Suppress(ctx, "acme", query.Actor{}, crm.HubSpot, crm.KindCompanies)
	d := apperr.Describe(err)
	if !errors.Is(err, crm.ErrNeedsReauth) || d.Status != 400 || d.Code != "crm_needs_reauth" || !strings.Contains(d.Message, "/v1/crm/hubspot/authorize") {
		t.Fatalf("suppress = %v (%+v), want 400 crm_needs_reauth naming authorize", err, d)
	}
	if list, _ := r.svc.Connections(ctx, "acme", false); list[0].Status != crm.StatusNeedsReauth {
		t.Fatalf("stored status = %s", list[0].Status)
	}
	if c := r.connect(ctx, "acme", crm.HubSpot); c.Status != crm.StatusActive {
		t.Fatalf("reconnected = %+v", c)
	}
}

// TestProvidersWithoutSettings: an unknown provider is a 404; a provider without its
// client settings a 503 naming them.
func TestProvidersWithoutSettings(t *testing.T) {
	ctx := context.Background()
	svc := crm.New(crm.Deps{Providers: map[string]crm.Setup{crm.HubSpot: {Missing: []string{"FIRMO_CRM_HUBSPOT_CLIENT_ID", "FIRMO_CRM_HUBSPOT_CLIENT_SECRET"}}}, RedirectBaseURL: "https://x.example"})
	if _, err := svc.Authorize(ctx, "o", "u", "zoho"); apperr.Status(err) != 404 {
		t.Fatalf("unknown provider: %v, want 404", err)
	}
	_, err := svc.Authorize(ctx, "o", "u", crm.HubSpot)
	if d := apperr.Describe(err); d.Status != 503 || !strings.Contains(d.Message, "FIRMO_CRM_HUBSPOT_CLIENT_ID") || !strings.Contains(d.Message, "FIRMO_CRM_HUBSPOT_CLIENT_SECRET") {
		t.Fatalf("unconfigured provider: %+v, want 503 naming both settings", d)
	}
}
