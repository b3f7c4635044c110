package integration

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/google/uuid"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/llm"
)

// Limits.
const (
	MaxNameLen    = 255
	MaxModelLen   = 200
	MaxKeyLen     = 4096
	MaxBaseURLLen = 2048
	MaxPerOrg     = 100
	// deprecationTTL is how long a vendor model-list check stays fresh.
	deprecationTTL = 24 * time.Hour
)

// Conn is everything needed to call a provider. APIKey is plaintext: it only lives in
// memory, never in a log or a response.
type Conn struct {
	Provider string
	Model    string
	APIKey   string
	BaseURL  string
}

// Connector builds adapters for a connection; llmconnect.Connector (shared/llm/llmconnect)
// implements it with the vendors' SDKs, which the domain therefore does not link.
type Connector interface {
	Client(c Conn) (llm.Client, error)
	Judge(c Conn) (llm.Judge, error)
	// Models lists the vendor's current model names (for model_deprecated).
	Models(ctx context.Context, c Conn) ([]string, error)
	// Test makes one small real call and reports a clear error when it fails.
	Test(ctx context.Context, c Conn) error
}

// Sealer encrypts keys at rest; *secret.Box implements it.
type Sealer interface {
	Seal(scope, plaintext string) (string, error)
	Open(scope, sealed string) (string, error)
}

// URLChecker vets a base URL (scheme, public host); *fetch.Client implements it.
type URLChecker interface {
	Check(ctx context.Context, rawURL string) error
}

// Service manages integrations. It is safe for concurrent use.
type Service struct {
	store   kv.Store
	sealer  Sealer
	urls    URLChecker
	connect Connector
	now     func() time.Time
}

// Deps are what the integrations are stored, vetted and called with.
type Deps struct {
	// Store holds the organisations' integrations and their default.
	Store kv.Store
	// Sealer encrypts the API keys at rest.
	Sealer Sealer
	// URLs vets a custom base URL before it is stored or called.
	URLs URLChecker
	// Connector builds the vendors' clients, lists their models and tests a connection.
	Connector Connector
}

// New returns a Service.
func New(d Deps) *Service {
	return &Service{store: d.Store, sealer: d.Sealer, urls: d.URLs, connect: d.Connector, now: time.Now}
}

// WithClock sets the clock (tests).
func (s *Service) WithClock(now func() time.Time) *Service { s.now = now; return s }

// record is the stored document.
type record struct {
	Integration
	SealedKey string    `json:"sealed_key"`
	CheckedAt time.Time `json:"checked_at"` // last vendor model-list check
	// CreatedBy and CreatorRole are the creating user's id and role. Items stored
	// before they were recorded have neither and count as created by an admin.
	CreatedBy   string       `json:"created_by,omitempty"`
	CreatorRole account.Role `json:"creator_role,omitempty"`
}

// byMember says whether a member created the integration: such an integration never
// becomes an organisation-wide choice (default, typed judge) on its own.
func (r record) byMember() bool { return r.CreatorRole == account.RoleMember }

// mayChange refuses (403) a change by a member unless they created the integration
// and it is not the organisation default: the default carries everyone's research,
// so only admins redirect it (README, LLM integrations).
func mayChange(by account.Principal, r record, def string) error {
	switch {
	case by.User.Role == account.RoleAdmin:
		return nil
	case r.CreatedBy == "" || r.CreatedBy != by.User.ID:
		return apperr.New(apperr.ErrForbidden, "Only an admin can change or delete an LLM integration created by another user; members change only their own.")
	case r.ID == def:
		return apperr.New(apperr.ErrForbidden, "This integration is the organisation default; only an admin can change or delete it.")
	}
	return nil
}

func pk(org string) string         { return "integrations#" + org }
func idKey(org, id string) kv.Key  { return kv.Key{PK: "integrationid#" + org, SK: id} }
func defaultKey(org string) kv.Key { return kv.Key{PK: pk(org), SK: "default"} }

// def is the organisation\'s default pointer.
func (s *Service) def(org string) kv.Pointer { return kv.Pointer{Store: s.store, Key: defaultKey(org)} }
func itemSK(created time.Time, id string) string {
	return fmt.Sprintf("i#%020d#%s", created.UnixNano(), id)
}

// Input is the body of create and test-connection.
type Input struct {
	Name     string
	Provider string
	APIKey   string
	Model    string
	BaseURL  *string
}

// Patch is the body of an update: nil fields are unchanged. BaseURLSet with a nil
// BaseURL clears it.
type Patch struct {
	Name       *string
	Provider   *string
	APIKey     *string
	Model      *string
	BaseURL    *string
	BaseURLSet bool
}

// List returns the organisation's integrations, oldest first, and the latest
// modification time (the creation time of the account's first integration when none
// changed; the zero time when there are none).
func (s *Service) List(ctx context.Context, org string) ([]Integration, time.Time, error) {
	recs, def, err := s.all(ctx, org)
	if err != nil {
		return nil, time.Time{}, err
	}
	s.refreshDeprecation(ctx, org, recs)
	out := make([]Integration, 0, len(recs))
	var mtime time.Time
	for _, r := range recs {
		r.IsDefault = r.ID == def
		out = append(out, r.Integration)
		if r.UpdatedAt.After(mtime) {
			mtime = r.UpdatedAt
		}
	}
	return out, mtime, nil
}

// ByID returns one integration; another organisation's id is not found.
func (s *Service) ByID(ctx context.Context, org, id string) (Integration, error) {
	r, _, err := s.get(ctx, org, id)
	if err != nil {
		return Integration{}, err
	}
	recs := []*record{&r}
	s.refreshDeprecation(ctx, org, recs)
	def, err := s.def(org).Get(ctx)
	if err != nil {
		return Integration{}, err
	}
	r.IsDefault = r.ID == def
	return r.Integration, nil
}

// Create validates and stores a new integration for the caller's organisation. The
// first generative integration an admin creates becomes the default when the
// organisation has none; a member's never does.
func (s *Service) Create(ctx context.Context, by account.Principal, in Input) (Integration, error) {
	org := by.Org.ID
	in, err := s.validate(ctx, in, true)
	if err != nil {
		return Integration{}, err
	}
	recs, def, err := s.all(ctx, org)
	if err != nil {
		return Integration{}, err
	}
	if len(recs) >= MaxPerOrg {
		return Integration{}, apperr.BadRequest("too_many_integrations", "An organisation can have at most %d LLM integrations; delete one first.", MaxPerOrg)
	}
	now := s.now().UTC()
	r := record{Integration: Integration{
		ID: uuid.NewString(), Name: in.Name, Provider: in.Provider, Model: in.Model, BaseURL: in.BaseURL,
		SupportsWebSearch: llm.SupportsWebSearch(in.Provider, in.Model), CreatedAt: now, UpdatedAt: now,
	}, CreatedBy: by.User.ID, CreatorRole: by.User.Role}
	if r.SealedKey, err = s.sealer.Seal(org, in.APIKey); err != nil {
		return Integration{}, fmt.Errorf("seal api key: %w", err)
	}
	s.checkModel(ctx, &r, in.APIKey)
	sk := itemSK(now, r.ID)
	// The id lookup is written first: a crash between the writes leaves a lookup
	// pointing at nothing, which reads as not found and is overwritten by nobody (ids
	// are random), rather than an integration nobody can address.
	if _, err := kv.PutJSON(ctx, s.store, idKey(org, r.ID), map[string]string{"sk": sk}, kv.Cond{IfAbsent: true}); err != nil {
		return Integration{}, err
	}
	if _, err := kv.PutJSON(ctx, s.store, kv.Key{PK: pk(org), SK: sk}, r, kv.Cond{IfAbsent: true}); err != nil {
		_ = s.store.Delete(ctx, idKey(org, r.ID), kv.Cond{})
		return Integration{}, err
	}
	if def == "" && r.Provider != ProviderTyped && !r.byMember() {
		if err := s.def(org).Set(ctx, r.ID, kv.Cond{IfAbsent: true}); err != nil && !errors.Is(err, apperr.ErrConflict) {
			return Integration{}, err
		}
		if d, err := s.def(org).Get(ctx); err == nil && d == r.ID {
			r.IsDefault = true
		}
	}
	return r.Integration, nil
}

// Update changes an integration. Omitting api_key keeps the stored key, but changing
// provider, model_name or base_url requires a new one (the old key was given for the
// old target and must not be sent elsewhere). A member changes only an integration
// they created that is not the default (403).
func (s *Service) Update(ctx context.Context, by account.Principal, id string, p Patch) (Integration, error) {
	org := by.Org.ID
	r, item, err := s.get(ctx, org, id)
	if err != nil {
		return Integration{}, err
	}
	def, err := s.def(org).Get(ctx)
	if err != nil {
		return Integration{}, err
	}
	if err := mayChange(by, r, def); err != nil {
		return Integration{}, err
	}
	in := Input{Name: r.Name, Provider: r.Provider, Model: r.Model, BaseURL: r.BaseURL}
	if p.Name != nil {
		in.Name = *p.Name
	}
	if p.Provider != nil {
		in.Provider = *p.Provider
	}
	if p.Model != nil {
		in.Model = *p.Model
	}
	if p.BaseURLSet {
		in.BaseURL = p.BaseURL
	}
	hasKey := p.APIKey != nil
	if hasKey {
		in.APIKey = *p.APIKey
	}
	in, err = s.validate(ctx, in, hasKey)
	if err != nil {
		return Integration{}, err
	}
	if !hasKey {
		switch {
		case in.Provider != r.Provider:
			return Integration{}, apperr.Invalid("api_key", "Changing the provider requires a new api_key.")
		case in.Model != r.Model:
			return Integration{}, apperr.Invalid("api_key", "Changing model_name requires a new api_key.")
		case str(in.BaseURL) != str(r.BaseURL):
			return Integration{}, apperr.Invalid("api_key", "Changing base_url requires a new api_key.")
		}
	}
	if in.Provider == ProviderTyped && def == r.ID {
		return Integration{}, apperr.BadRequest(CodeTypedDefault, "The organisation default cannot become a typed-judgment integration; set another default first.")
	}
	targetChanged := in.Provider != r.Provider || in.Model != r.Model || str(in.BaseURL) != str(r.BaseURL)
	r.Name, r.Provider, r.Model, r.BaseURL = in.Name, in.Provider, in.Model, in.BaseURL
	r.SupportsWebSearch = llm.SupportsWebSearch(r.Provider, r.Model)
	r.UpdatedAt = s.now().UTC()
	key := in.APIKey
	if hasKey {
		if r.SealedKey, err = s.sealer.Seal(org, in.APIKey); err != nil {
			return Integration{}, fmt.Errorf("seal api key: %w", err)
		}
	} else if key, err = s.sealer.Open(org, r.SealedKey); err != nil {
		return Integration{}, fmt.Errorf("open api key of integration %s: %w", id, err)
	}
	if targetChanged || hasKey {
		r.ModelDeprecated = false
		r.CheckedAt = time.Time{}
		s.checkModel(ctx, &r, key)
	}
	if _, err := kv.PutJSON(ctx, s.store, item.Key, r, kv.Cond{IfVersion: item.Version}); err != nil {
		return Integration{}, err
	}
	r.IsDefault = def == r.ID
	return r.Integration, nil
}

// Delete removes an integration; a member deletes only an integration they created
// that is not the default (403). Deleting the default leaves the organisation without
// one.
func (s *Service) Delete(ctx context.Context, by account.Principal, id string) error {
	org := by.Org.ID
	r, item, err := s.get(ctx, org, id)
	if err != nil {
		return err
	}
	def, err := s.def(org).Get(ctx)
	if err != nil {
		return err
	}
	if err := mayChange(by, r, def); err != nil {
		return err
	}
	if def == id {
		if err := s.def(org).Clear(ctx); err != nil {
			return fmt.Errorf("clear default: %w", err)
		}
	}
	if err := s.store.Delete(ctx, item.Key, kv.Cond{}); err != nil {
		return fmt.Errorf("delete integration %s: %w", id, err)
	}
	return s.store.Delete(ctx, idKey(org, id), kv.Cond{})
}

// SetDefault makes an integration the organisation default; it needs the admin role
// (403), and typed integrations are refused (400): they cannot generate text.
func (s *Service) SetDefault(ctx context.Context, by account.Principal, id string) (Integration, error) {
	if by.User.Role != account.RoleAdmin {
		return Integration{}, apperr.New(apperr.ErrForbidden, "Only an admin can set the organisation's default LLM integration; your role is "+string(by.User.Role)+".")
	}
	org := by.Org.ID
	r, _, err := s.get(ctx, org, id)
	if err != nil {
		return Integration{}, err
	}
	if r.Provider == ProviderTyped {
		return Integration{}, apperr.BadRequest(CodeTypedDefault, "A typed-judgment integration cannot be the default: it answers typed judgments only, not generative prompts.")
	}
	if err := s.def(org).Set(ctx, id, kv.Cond{}); err != nil {
		return Integration{}, err
	}
	r.IsDefault = true
	return r.Integration, nil
}

// TestConnection validates a connection before it is saved by making one small call.
func (s *Service) TestConnection(ctx context.Context, in Input) error {
	in.Name = "test"
	in, err := s.validate(ctx, in, true)
	if err != nil {
		return err
	}
	return s.connect.Test(ctx, Conn{Provider: in.Provider, Model: in.Model, APIKey: in.APIKey, BaseURL: str(in.BaseURL)})
}

// Resolve returns a generative client: integrationID, or the organisation default when
// it is empty. No default is a 400 (code no_llm_integration); a typed integration
// reached through the default is a 400 TYPED_NOT_A_GENERATIVE_ENGINE. A typed
// integration named explicitly resolves with a nil client: the caller runs typed-only.
func (s *Service) Resolve(ctx context.Context, org, integrationID string) (Integration, llm.Client, error) {
	integrationID, viaDefault, err := s.def(org).Or(ctx, integrationID, &apperr.Error{Kind: apperr.ErrBadRequest, Code: CodeNoIntegration, Field: "integration_id",
		Message: "No integration_id was given and the organisation has no default LLM integration; create one at /v1/llm-providers/config."})
	if err != nil {
		return Integration{}, nil, err
	}
	r, _, err := s.get(ctx, org, integrationID)
	if err != nil {
		if viaDefault && errors.Is(err, apperr.ErrNotFound) {
			return Integration{}, nil, apperr.BadRequest(CodeNoIntegration, "The organisation's default LLM integration no longer exists; set another default.")
		}
		return Integration{}, nil, err
	}
	r.IsDefault = viaDefault
	if r.Provider == ProviderTyped {
		if viaDefault {
			return Integration{}, nil, apperr.BadRequest(CodeTypedNotGenerative, "The organisation default is a typed-judgment integration, which cannot answer generative prompts; pass a generative integration_id.")
		}
		return r.Integration, nil, nil
	}
	conn, err := s.conn(org, r)
	if err != nil {
		return Integration{}, nil, err
	}
	c, err := s.connect.Client(conn)
	if err != nil {
		return Integration{}, nil, err
	}
	return r.Integration, c, nil
}

// Judge returns the organisation's typed-judgment provider: the oldest typed
// integration an admin created (a member's would otherwise become an implicit
// organisation-wide choice, like a default). None is an error wrapping
// apperr.ErrNotFound.
func (s *Service) Judge(ctx context.Context, org string) (Integration, llm.Judge, error) {
	recs, _, err := s.all(ctx, org)
	if err != nil {
		return Integration{}, nil, err
	}
	for _, r := range recs { // oldest first
		if r.Provider != ProviderTyped || r.byMember() {
			continue
		}
		conn, err := s.conn(org, *r)
		if err != nil {
			return Integration{}, nil, err
		}
		j, err := s.connect.Judge(conn)
		if err != nil {
			return Integration{}, nil, err
		}
		return r.Integration, j, nil
	}
	return Integration{}, nil, fmt.Errorf("no typed-judgment integration on the account: %w", apperr.ErrNotFound)
}

func (s *Service) conn(org string, r record) (Conn, error) {
	key, err := s.sealer.Open(org, r.SealedKey)
	if err != nil {
		return Conn{}, fmt.Errorf("open api key of integration %s: %w", r.ID, err)
	}
	return Conn{Provider: r.Provider, Model: r.Model, APIKey: key, BaseURL: str(r.BaseURL)}, nil
}

// validate trims and checks an input; wantKey says whether api_key must be present.
func (s *Service) validate(ctx context.Context, in Input, wantKey bool) (Input, error) {
	in.Name = strings.TrimSpace(in.Name)
	in.Provider = strings.TrimSpace(in.Provider)
	in.Model = strings.TrimSpace(in.Model)
	switch {
	case in.Name == "":
		return in, apperr.Invalid("integration_name", "integration_name must not be blank.")
	case len(in.Name) > MaxNameLen:
		return in, apperr.Invalid("integration_name", "integration_name is longer than %d characters.", MaxNameLen)
	case in.Provider == "":
		return in, apperr.Invalid("provider", "provider must not be blank.")
	case !slices.Contains(Providers, in.Provider):
		return in, apperr.Invalid("provider", "provider must be one of %s; got %q.", strings.Join(Providers, ", "), in.Provider)
	case in.Model == "":
		return in, apperr.Invalid("model_name", "model_name must not be blank.")
	case len(in.Model) > MaxModelLen || strings.ContainsFunc(in.Model, unicode.IsControl):
		return in, apperr.Invalid("model_name", "model_name must be at most %d printable characters.", MaxModelLen)
	}
	if wantKey {
		if strings.TrimSpace(in.APIKey) == "" {
			return in, apperr.Invalid("api_key", "api_key is required.")
		}
		if len(in.APIKey) > MaxKeyLen || strings.ContainsFunc(in.APIKey, unicode.IsSpace) {
			return in, apperr.Invalid("api_key", "api_key must be at most %d characters without whitespace.", MaxKeyLen)
		}
	}
	if in.BaseURL != nil && strings.TrimSpace(*in.BaseURL) == "" {
		in.BaseURL = nil
	}
	if in.BaseURL == nil {
		if in.Provider == ProviderCustom {
			return in, apperr.Invalid("base_url", "base_url is required for the custom provider.")
		}
		return in, nil
	}
	u, err := s.checkBaseURL(ctx, *in.BaseURL)
	if err != nil {
		return in, err
	}
	in.BaseURL = &u
	return in, nil
}

func (s *Service) checkBaseURL(ctx context.Context, raw string) (string, error) {
	if len(raw) > MaxBaseURLLen {
		return "", apperr.Invalid("base_url", "base_url is longer than %d characters.", MaxBaseURLLen)
	}
	if strings.ContainsFunc(raw, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune(`"'<>`+"`", r)
	}) {
		return "", apperr.Invalid("base_url", "base_url must not contain whitespace, quotes or angle brackets.")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return "", apperr.Invalid("base_url", "base_url must be an http or https URL with a host name.")
	}
	if u.User != nil {
		return "", apperr.Invalid("base_url", "base_url must not carry credentials; put the key in api_key.")
	}
	if err := s.urls.Check(ctx, raw); err != nil {
		var e *apperr.Error
		if errors.As(err, &e) {
			return "", &apperr.Error{Kind: apperr.ErrInvalid, Field: "base_url", Message: "base_url must have a public host name: " + e.Message}
		}
		return "", fmt.Errorf("check base_url: %w", err)
	}
	return strings.TrimRight(raw, "/"), nil
}

// checkModel asks the vendor for its model list and sets ModelDeprecated when the
// model is missing. A failed listing (network, key without list rights, endpoint
// without /models) leaves the flag as it was: absence of proof is not deprecation.
func (s *Service) checkModel(ctx context.Context, r *record, key string) {
	if r.Provider == ProviderTyped {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	models, err := s.connect.Models(ctx, Conn{Provider: r.Provider, Model: r.Model, APIKey: key, BaseURL: str(r.BaseURL)})
	if err != nil || len(models) == 0 {
		return
	}
	r.CheckedAt = s.now().UTC()
	r.ModelDeprecated = !slices.Contains(models, r.Model)
}

// refreshDeprecation re-checks integrations whose last model-list check is older than
// deprecationTTL, concurrently, and stores the changed flags.
func (s *Service) refreshDeprecation(ctx context.Context, org string, recs []*record) {
	var wg sync.WaitGroup
	for _, r := range recs {
		if r.Provider == ProviderTyped || s.now().Sub(r.CheckedAt) < deprecationTTL {
			continue
		}
		wg.Add(1)
		go func(r *record) {
			defer wg.Done()
			key, err := s.sealer.Open(org, r.SealedKey)
			if err != nil {
				return
			}
			before := r.ModelDeprecated
			s.checkModel(ctx, r, key)
			if r.CheckedAt.IsZero() {
				return
			}
			item, err := s.store.Get(ctx, kv.Key{PK: pk(org), SK: itemSK(r.CreatedAt, r.ID)})
			if err != nil {
				return
			}
			var cur record
			if json.Unmarshal(item.Data, &cur) != nil || cur.Model != r.Model || cur.Provider != r.Provider {
				return
			}
			cur.CheckedAt, cur.ModelDeprecated = r.CheckedAt, r.ModelDeprecated
			if before != r.ModelDeprecated {
				cur.UpdatedAt = s.now().UTC()
				r.UpdatedAt = cur.UpdatedAt
			}
			// A lost race with an update is fine: the next read checks again.
			_, _ = kv.PutJSON(ctx, s.store, item.Key, cur, kv.Cond{IfVersion: item.Version})
		}(r)
	}
	wg.Wait()
}

func (s *Service) all(ctx context.Context, org string) ([]*record, string, error) {
	var out []*record
	cursor := ""
	for {
		page, err := s.store.Query(ctx, pk(org), kv.QueryOptions{Prefix: "i#", Cursor: cursor, Limit: 1000})
		if err != nil {
			return nil, "", fmt.Errorf("list integrations: %w", err)
		}
		for _, it := range page.Items {
			var r record
			if err := json.Unmarshal(it.Data, &r); err != nil {
				return nil, "", fmt.Errorf("decode integration %s: %w", it.SK, err)
			}
			out = append(out, &r)
		}
		if page.Next == "" {
			break
		}
		cursor = page.Next
	}
	def, err := s.def(org).Get(ctx)
	return out, def, err
}

func (s *Service) get(ctx context.Context, org, id string) (record, kv.Item, error) {
	if _, err := uuid.Parse(id); err != nil {
		return record{}, kv.Item{}, apperr.NotFound("No LLM integration %q in this organisation.", id)
	}
	var ref struct {
		SK string `json:"sk"`
	}
	it, err := s.store.Get(ctx, idKey(org, id))
	if err == nil {
		err = json.Unmarshal(it.Data, &ref)
	}
	if err == nil {
		it, err = s.store.Get(ctx, kv.Key{PK: pk(org), SK: ref.SK})
	}
	if errors.Is(err, apperr.ErrNotFound) {
		return record{}, kv.Item{}, apperr.NotFound("No LLM integration %q in this organisation.", id)
	}
	if err != nil {
		return record{}, kv.Item{}, fmt.Errorf("get integration %s: %w", id, err)
	}
	var r record
	if err := json.Unmarshal(it.Data, &r); err != nil {
		return record{}, kv.Item{}, fmt.Errorf("decode integration %s: %w", id, err)
	}
	return r, it, nil
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
