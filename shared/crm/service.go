package crm

// service.go is the CRM service: the organisations' connections (OAuth 2.0 with PKCE
// and a single-use state token), their token lifecycle (token.go) and the suppression
// snapshots (suppress.go).
//
// Storage (partition / sort key):
//
//	crm#<org>                  / conn#<provider>         a connection: status, times, sealed tokens
//	crm#<org>                  / list#<provider>#<kind>  the saved query a snapshot of that kind fills
//	crmstate#<sha256(state)>   / s                       an authorization in flight (sealed PKCE verifier)
//
// Tokens and verifiers are stored only sealed (the Sealer, as provider keys are), and
// state tokens only as their SHA-256.

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/fetch"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/query"
	"github.com/firmoapi/firmo/shared/task"
)

// Provider identifiers, as they appear in routes.
const (
	HubSpot    = "hubspot"
	Salesforce = "salesforce"
	Pipedrive  = "pipedrive"
)

// Names lists the provider identifiers the API knows.
func Names() []string { return []string{HubSpot, Salesforce, Pipedrive} }

// Connection statuses.
const (
	StatusActive      = "active"
	StatusNeedsReauth = "needs_reauth"
)

// StateTTL is how long an authorization's state token may be used.
const StateTTL = 10 * time.Minute

// Setup is one provider as configured: its client and the OAuth client Firmo is
// registered as there.
type Setup struct {
	Provider               Provider
	ClientID, ClientSecret string
	// BaseURL, when set, is crm.Conn.BaseURL: the API host of a fake.
	BaseURL string
	// Missing names the settings left unset (FIRMO_CRM_HUBSPOT_CLIENT_ID, ...): the
	// provider then answers 503 naming them.
	Missing []string
}

// Sealer seals tokens at rest (shared/secret/kmssecret's sealer).
type Sealer interface {
	Seal(scope, plaintext string) (string, error)
	Open(scope, sealed string) (string, error)
}

// Lists saves snapshots as saved queries. query.Service implements it.
type Lists interface {
	CreateList(ctx context.Context, orgID string, by query.Actor, l query.NewList) (query.Query, error)
	Replace(ctx context.Context, orgID, id string, l query.NewList) (query.Query, error)
}

// People resolves a contact's email to its persona id (an error wrapping
// apperr.ErrNotFound when the index has no such contact).
type People interface {
	PersonaByEmail(ctx context.Context, email string) (int64, error)
}

// Tasks submits snapshot tasks. task.Engine implements it.
type Tasks interface {
	Submit(ctx context.Context, s task.Submission) (task.Submitted, error)
}

// Deps are what a Service needs.
type Deps struct {
	Store  kv.Store
	Sealer Sealer
	// Providers are the configured providers by name (hubspot, salesforce, pipedrive).
	Providers map[string]Setup
	// RedirectBaseURL is the public base URL of the callback (FIRMO_CRM_REDIRECT_BASE_URL).
	RedirectBaseURL string
	Lists           Lists
	People          People
	Tasks           Tasks
	// HTTP makes the token requests and carries the API calls (its transport is wrapped
	// with the connection's token); nil: a client with a 60 s timeout. The composition
	// passes the guarded client (shared/fetch). Either way requests go only to the
	// providers' hosts over https (hosts.go).
	HTTP *http.Client
	// AllowHosts admits hosts or host:port pairs whatever their domain and scheme: the
	// test fakes only (FIRMO_FETCH_ALLOW_HOSTS).
	AllowHosts []string
	Log        *slog.Logger
	Now        func() time.Time
}

// Service is the CRM service. It is safe for concurrent use.
type Service struct {
	d     Deps
	locks sync.Map // org/provider -> *sync.Mutex: one refresh at a time per connection
}

// New makes a Service.
func New(d Deps) *Service {
	if d.HTTP == nil {
		d.HTTP = &http.Client{Timeout: 60 * time.Second}
	}
	base := d.HTTP.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	guarded := *d.HTTP
	guarded.Transport = hostRules{allow: fetch.NewAllowList(d.AllowHosts), base: base}
	d.HTTP = &guarded
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	return &Service{d: d}
}

// Connection is a connection as the API shows it.
type Connection struct {
	Provider    string     `json:"provider"`
	Status      string     `json:"status"`
	ConnectedAt *time.Time `json:"connected_at"`
	// ConnectedBy is the id of the admin user who made the connection.
	ConnectedBy string `json:"connected_by,omitempty"`
	// Replaced is the connection this one replaced, when it replaced one: who had made
	// it, when, and when it was replaced.
	Replaced *Replacement `json:"replaced,omitempty"`
	// ProbeError says why a live check could not decide (the provider unreachable):
	// the stored status is shown.
	ProbeError string `json:"probe_error,omitempty"`
}

// Replacement records a connection replaced by a new authorization.
type Replacement struct {
	ConnectedBy string    `json:"connected_by"`
	ConnectedAt time.Time `json:"connected_at"`
	ReplacedAt  time.Time `json:"replaced_at"`
}

// record is a stored connection.
type record struct {
	Replaced    *Replacement `json:"replaced,omitempty"`
	Provider    string       `json:"provider"`
	Status      string       `json:"status"`
	ConnectedAt time.Time    `json:"connected_at"`
	UserID      string       `json:"user_id"`
	Sealed      string       `json:"sealed_tokens"` // sealed tokenDoc
	InstanceURL string       `json:"instance_url,omitempty"`
	APIDomain   string       `json:"api_domain,omitempty"`
	UpdatedAt   time.Time    `json:"updated_at"`
}

// tokenDoc is what is sealed: the connection's OAuth tokens.
type tokenDoc struct {
	Access  string    `json:"a"`
	Refresh string    `json:"r"`
	Type    string    `json:"t,omitempty"`
	Expiry  time.Time `json:"e"`
}

// stateDoc is an authorization in flight.
type stateDoc struct {
	OrgID    string    `json:"org_id"`
	UserID   string    `json:"user_id"`
	Provider string    `json:"provider"`
	Verifier string    `json:"sealed_verifier"`
	Expires  time.Time `json:"expires"`
}

func connKey(org, provider string) kv.Key { return kv.Key{PK: "crm#" + org, SK: "conn#" + provider} }
func listKey(org, provider, kind string) kv.Key {
	return kv.Key{PK: "crm#" + org, SK: "list#" + provider + "#" + kind}
}
func stateKey(state string) kv.Key {
	sum := sha256.Sum256([]byte(state))
	return kv.Key{PK: "crmstate#" + hex.EncodeToString(sum[:]), SK: "s"}
}

// tokenScope binds sealed tokens to their organisation and provider.
func tokenScope(org, provider string) string { return "crm:" + org + ":" + provider }

// Title is a provider's display name.
func Title(provider string) string {
	switch provider {
	case HubSpot:
		return "HubSpot"
	case Salesforce:
		return "Salesforce"
	case Pipedrive:
		return "Pipedrive"
	}
	return provider
}

// setup returns a provider's setup: unknown providers are 404, unconfigured ones 503.
// Known is nil for one of Names, else the 404 that names the providers: an unknown
// provider is an unknown resource whoever asks.
func Known(provider string) error {
	for _, n := range Names() {
		if n == provider {
			return nil
		}
	}
	return apperr.NotFound("Unknown CRM provider %q; the providers are %s.", provider, strings.Join(Names(), ", "))
}

func (s *Service) setup(provider string) (Setup, error) {
	st, ok := s.d.Providers[provider]
	if err := Known(provider); err != nil {
		return Setup{}, err
	}
	if !ok || len(st.Missing) > 0 || st.Provider == nil {
		missing := st.Missing
		if len(missing) == 0 {
			missing = []string{"FIRMO_CRM_" + strings.ToUpper(provider) + "_CLIENT_ID", "FIRMO_CRM_" + strings.ToUpper(provider) + "_CLIENT_SECRET"}
		}
		return Setup{}, &apperr.Error{Kind: apperr.ErrUnavailable, Code: "crm_not_configured", Message: fmt.Sprintf(
			"%s connections are not configured on this deployment: set %s.", Title(provider), strings.Join(missing, " and "))}
	}
	return st, nil
}

func (s *Service) redirectURL(provider string) (string, error) {
	if s.d.RedirectBaseURL == "" {
		return "", &apperr.Error{Kind: apperr.ErrUnavailable, Code: "crm_not_configured", Message: "CRM connections are not configured on this deployment: set FIRMO_CRM_REDIRECT_BASE_URL, the public base URL the providers redirect back to."}
	}
	return s.d.RedirectBaseURL + "/v1/crm/" + provider + "/callback", nil
}

func (s *Service) oauthConfig(provider string, st Setup) (*oauth2.Config, error) {
	redirect, err := s.redirectURL(provider)
	if err != nil {
		return nil, err
	}
	return &oauth2.Config{ClientID: st.ClientID, ClientSecret: st.ClientSecret, Endpoint: st.Provider.Endpoint(), RedirectURL: redirect, Scopes: st.Provider.Scopes()}, nil
}

// Authorize mints the provider's authorization URL for a user of an organisation,
// bound to a new single-use state token valid StateTTL and to a PKCE verifier.
func (s *Service) Authorize(ctx context.Context, orgID, userID, provider string) (string, error) {
	st, err := s.setup(provider)
	if err != nil {
		return "", err
	}
	cfg, err := s.oauthConfig(provider, st)
	if err != nil {
		return "", err
	}
	verifier := oauth2.GenerateVerifier()
	sealed, err := s.d.Sealer.Seal(stateScope(orgID, provider), verifier)
	if err != nil {
		return "", fmt.Errorf("seal the PKCE verifier: %w", err)
	}
	state := rand.Text() + rand.Text() // 52 base32 characters, 260 random bits
	doc := stateDoc{OrgID: orgID, UserID: userID, Provider: provider, Verifier: sealed, Expires: s.d.Now().Add(StateTTL).UTC()}
	b, err := json.Marshal(doc)
	if err != nil {
		return "", err
	}
	s.sweepStates(ctx, orgID)
	if _, err := s.d.Store.Put(ctx, stateKey(state), b, kv.Cond{IfAbsent: true}); err != nil {
		return "", fmt.Errorf("store the CRM state token: %w", err)
	}
	if _, err := s.d.Store.Put(ctx, stateIndexKey(orgID, doc.Expires, state), nil, kv.Cond{}); err != nil {
		return "", fmt.Errorf("index the CRM state token: %w", err)
	}
	return cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier)), nil
}

func stateScope(org, provider string) string { return "crmstate:" + org + ":" + provider }

// Callback is what the provider's redirect carries.
type Callback struct {
	Provider string
	State    string
	Code     string
	// Error is the provider's error parameter (access_denied when the user declined).
	Error string
	// CallerOrgID is the organisation of the credentials the redirect carried, if any
	// (the browser's session cookie): a state minted for another organisation is refused.
	CallerOrgID string
}

// ErrState is wrapped by every refusal of a state token.
var ErrState = errors.New("crm: invalid state token")

func stateRefused(msg string) error {
	return fmt.Errorf("%w: %w", &apperr.Error{Kind: apperr.ErrBadRequest, Code: "crm_invalid_state", Message: msg}, ErrState)
}

// Complete finishes an authorization: it consumes the state token (whatever follows,
// it cannot be used again), exchanges the code with the PKCE verifier, and stores the
// connection active. A missing, reused, expired or foreign state (minted for another
// provider, or another organisation than the caller's) stores nothing.
func (s *Service) Complete(ctx context.Context, cb Callback) (Connection, error) {
	if _, err := s.setup(cb.Provider); err != nil {
		return Connection{}, err
	}
	if cb.State == "" {
		return Connection{}, stateRefused("The callback carries no state token; start again with GET /v1/crm/" + cb.Provider + "/authorize.")
	}
	doc, err := s.consumeState(ctx, cb.State)
	if err != nil {
		return Connection{}, err
	}
	switch {
	case s.d.Now().After(doc.Expires):
		return Connection{}, stateRefused("This authorization expired (state tokens are valid 10 minutes); start again with GET /v1/crm/" + cb.Provider + "/authorize.")
	case doc.Provider != cb.Provider:
		return Connection{}, stateRefused(fmt.Sprintf("This authorization was started for %s, not %s; nothing was stored.", Title(doc.Provider), Title(cb.Provider)))
	case cb.CallerOrgID != "" && cb.CallerOrgID != doc.OrgID:
		return Connection{}, stateRefused("This authorization was started by another organisation; nothing was stored.")
	case cb.Error != "":
		return Connection{}, apperr.BadRequest("crm_authorization_declined", "%s did not authorise the connection (%s); nothing was stored.", Title(cb.Provider), cb.Error)
	case cb.Code == "":
		return Connection{}, apperr.Invalid("code", "the callback carries no authorization code")
	}
	st, err := s.setup(cb.Provider)
	if err != nil {
		return Connection{}, err
	}
	verifier, err := s.d.Sealer.Open(stateScope(doc.OrgID, doc.Provider), doc.Verifier)
	if err != nil {
		return Connection{}, fmt.Errorf("open the PKCE verifier: %w", err)
	}
	cfg, err := s.oauthConfig(cb.Provider, st)
	if err != nil {
		return Connection{}, err
	}
	tok, err := cfg.Exchange(s.oauthContext(ctx), cb.Code, oauth2.VerifierOption(verifier))
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.Response != nil && re.Response.StatusCode < 500 {
			return Connection{}, apperr.BadRequest("crm_exchange_failed", "%s refused the authorization code (%s); start again with GET /v1/crm/%s/authorize.", Title(cb.Provider), oauthCode(re), cb.Provider)
		}
		return Connection{}, apperr.Retryable(fmt.Errorf("exchange the %s code: %w", cb.Provider, err), 0)
	}
	now := s.d.Now().UTC()
	rec := record{Provider: cb.Provider, Status: StatusActive, ConnectedAt: now, UserID: doc.UserID, UpdatedAt: now,
		InstanceURL: extraString(tok, "instance_url"), APIDomain: extraString(tok, "api_domain")}
	if rec.Sealed, err = s.sealTokens(doc.OrgID, cb.Provider, tok, ""); err != nil {
		return Connection{}, err
	}
	if prev, _, err := s.getRecord(ctx, doc.OrgID, cb.Provider); err == nil {
		rec.Replaced = &Replacement{ConnectedBy: prev.UserID, ConnectedAt: prev.ConnectedAt, ReplacedAt: now}
		s.d.Log.InfoContext(ctx, "crm connection replaced", "org_id", doc.OrgID, "provider", cb.Provider, "by", doc.UserID, "previous_by", prev.UserID)
	}
	if err := s.putRecord(ctx, doc.OrgID, rec, kv.Cond{}); err != nil {
		return Connection{}, err
	}
	s.d.Log.InfoContext(ctx, "crm connected", "org_id", doc.OrgID, "provider", cb.Provider)
	return rec.view(), nil
}

func oauthCode(re *oauth2.RetrieveError) string {
	if re.ErrorCode != "" {
		return re.ErrorCode
	}
	return fmt.Sprintf("HTTP %d", re.Response.StatusCode)
}

func extraString(tok *oauth2.Token, name string) string {
	v, _ := tok.Extra(name).(string)
	return strings.TrimRight(v, "/")
}

// consumeState reads and deletes a state item in one conditional step: of two
// callbacks with the same state, one wins.
func (s *Service) consumeState(ctx context.Context, state string) (stateDoc, error) {
	key := stateKey(state)
	it, err := s.d.Store.Get(ctx, key)
	if errors.Is(err, apperr.ErrNotFound) {
		return stateDoc{}, stateRefused("This authorization's state token is unknown or was already used; start again with GET /v1/crm/{provider}/authorize.")
	}
	if err != nil {
		return stateDoc{}, fmt.Errorf("read the CRM state token: %w", err)
	}
	if err := s.d.Store.Delete(ctx, key, kv.Cond{IfVersion: it.Version}); err != nil {
		if errors.Is(err, apperr.ErrConflict) || errors.Is(err, apperr.ErrNotFound) {
			return stateDoc{}, stateRefused("This authorization's state token was already used; start again with GET /v1/crm/{provider}/authorize.")
		}
		return stateDoc{}, fmt.Errorf("consume the CRM state token: %w", err)
	}
	var doc stateDoc
	if err := json.Unmarshal(it.Data, &doc); err != nil {
		return stateDoc{}, fmt.Errorf("decode the CRM state token: %w", err)
	}
	_ = s.d.Store.Delete(ctx, stateIndexKey(doc.OrgID, doc.Expires, state), kv.Cond{})
	return doc, nil
}

// MaxOpenStates bounds an organisation's unused state tokens: an authorization past it
// drops the oldest.
const MaxOpenStates = 20

// stateIndexKey lists an organisation's state tokens by expiry (sort key: the expiry,
// then the token's hash), so that the unused ones can be found and swept.
func stateIndexKey(org string, expires time.Time, state string) kv.Key {
	return kv.Key{PK: "crmstates#" + org, SK: expires.UTC().Format("2006-01-02T15:04:05.000000000Z") + "#" + strings.TrimPrefix(stateKey(state).PK, "crmstate#")}
}

// sweepStates deletes the organisation's expired state tokens, and the oldest beyond
// MaxOpenStates-1 so that the one about to be minted fits: unused tokens are never
// left behind. A failure only leaves them for the next sweep.
func (s *Service) sweepStates(ctx context.Context, org string) {
	page, err := s.d.Store.Query(ctx, "crmstates#"+org, kv.QueryOptions{Limit: 200})
	if err != nil {
		s.d.Log.WarnContext(ctx, "sweep CRM state tokens", "org_id", org, "err", err)
		return
	}
	now := s.d.Now().UTC().Format("2006-01-02T15:04:05.000000000Z")
	for i, it := range page.Items {
		expiry, hash, _ := strings.Cut(it.Key.SK, "#")
		if expiry >= now && len(page.Items)-i < MaxOpenStates {
			break
		}
		_ = s.d.Store.Delete(ctx, kv.Key{PK: "crmstate#" + hash, SK: "s"}, kv.Cond{})
		_ = s.d.Store.Delete(ctx, it.Key, kv.Cond{})
	}
}

func (r record) view() Connection {
	c := Connection{Provider: r.Provider, Status: r.Status, ConnectedBy: r.UserID, Replaced: r.Replaced}
	if !r.ConnectedAt.IsZero() {
		t := r.ConnectedAt
		c.ConnectedAt = &t
	}
	return c
}

func (s *Service) getRecord(ctx context.Context, org, provider string) (record, int64, error) {
	it, err := s.d.Store.Get(ctx, connKey(org, provider))
	if errors.Is(err, apperr.ErrNotFound) {
		return record{}, 0, apperr.NotFound("Your organisation has no %s connection; connect it with GET /v1/crm/%s/authorize.", Title(provider), provider)
	}
	if err != nil {
		return record{}, 0, fmt.Errorf("read the %s connection: %w", provider, err)
	}
	var r record
	if err := json.Unmarshal(it.Data, &r); err != nil {
		return record{}, 0, fmt.Errorf("decode the %s connection: %w", provider, err)
	}
	return r, it.Version, nil
}

func (s *Service) putRecord(ctx context.Context, org string, r record, cond kv.Cond) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if _, err := s.d.Store.Put(ctx, connKey(org, r.Provider), b, cond); err != nil {
		return fmt.Errorf("store the %s connection: %w", r.Provider, err)
	}
	return nil
}

// Connections lists the organisation's connections by provider name. With probe,
// each is checked live against its provider and its fresh status returned (and
// stored).
func (s *Service) Connections(ctx context.Context, orgID string, probe bool) ([]Connection, error) {
	page, err := s.d.Store.Query(ctx, "crm#"+orgID, kv.QueryOptions{Prefix: "conn#", Limit: 100})
	if err != nil {
		return nil, fmt.Errorf("list CRM connections: %w", err)
	}
	out := make([]Connection, 0, len(page.Items))
	for _, it := range page.Items {
		var r record
		if err := json.Unmarshal(it.Data, &r); err != nil {
			return nil, fmt.Errorf("decode CRM connection %s: %w", it.Key, err)
		}
		c := r.view()
		if probe {
			c = s.probe(ctx, orgID, r)
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Provider < out[j].Provider })
	return out, nil
}

// probe checks one connection live: a token that cannot be refreshed or that the
// provider refuses makes it needs_reauth; one that works makes it active again.
func (s *Service) probe(ctx context.Context, org string, r record) Connection {
	c := r.view()
	st, err := s.setup(r.Provider)
	if err != nil {
		c.ProbeError = apperr.Describe(err).Message
		return c
	}
	conn := s.conn(org, r, st, true)
	err = st.Provider.Probe(ctx, conn)
	switch {
	case err == nil:
		if r.Status != StatusActive {
			s.setStatus(ctx, org, r.Provider, StatusActive)
		}
		c.Status = StatusActive
	case errors.Is(err, ErrTokenRejected) || errors.Is(err, ErrNeedsReauth):
		s.setStatus(ctx, org, r.Provider, StatusNeedsReauth)
		c.Status = StatusNeedsReauth
	default:
		s.d.Log.WarnContext(ctx, "crm probe failed", "org_id", org, "provider", r.Provider, "err", err)
		c.ProbeError = fmt.Sprintf("%s could not be reached; the stored status is shown.", Title(r.Provider))
	}
	return c
}

// Disconnect removes the organisation's connection to provider and its tokens.
func (s *Service) Disconnect(ctx context.Context, orgID, provider string) error {
	if _, err := s.setup(provider); err != nil && apperr.Status(err) == http.StatusNotFound {
		return err
	}
	if _, _, err := s.getRecord(ctx, orgID, provider); err != nil {
		return err
	}
	if err := s.d.Store.Delete(ctx, connKey(orgID, provider), kv.Cond{}); err != nil {
		return fmt.Errorf("remove the %s connection: %w", provider, err)
	}
	s.d.Log.InfoContext(ctx, "crm disconnected", "org_id", orgID, "provider", provider)
	return nil
}

// HTTPClient is the client the service's CRM requests go through (host rules applied).
func (s *Service) HTTPClient() *http.Client { return s.d.HTTP }
