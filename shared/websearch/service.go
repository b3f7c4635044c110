package websearch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/google/uuid"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
)

// Limits.
const (
	MaxNameLen = 255
	MaxKeyLen  = 4096
	MaxPerOrg  = 20
)

// Factory builds a Searcher for a provider kind and its plaintext key.
type Factory interface {
	Searcher(kind, apiKey string) (Searcher, error)
}

// FactoryFunc adapts a function to Factory.
type FactoryFunc func(kind, apiKey string) (Searcher, error)

// Searcher implements Factory.
func (f FactoryFunc) Searcher(kind, apiKey string) (Searcher, error) { return f(kind, apiKey) }

// Sealer encrypts keys at rest; *secret.Box implements it.
type Sealer interface {
	Seal(scope, plaintext string) (string, error)
	Open(scope, sealed string) (string, error)
}

// Service manages the search providers of organisations.
//
// Storage (partition / sort key):
//
//	searchproviders#<org> / p#<created unix nanos, 20 digits>#<id>   provider (key sealed)
//	searchproviders#<org> / default                                  {"id": ...}
//
// Breakers are kept per provider id in this process: a tripped provider is refused for
// the cool-down on every task this process runs.
type Service struct {
	store   kv.Store
	sealer  Sealer
	factory Factory
	now     func() time.Time
	breaker BreakerOptions

	mu       sync.Mutex
	breakers map[string]*Breaker
}

// Deps are what the search providers are stored and called with.
type Deps struct {
	// Store holds the organisations' providers and their default.
	Store kv.Store
	// Sealer encrypts the API keys at rest.
	Sealer Sealer
	// Factory builds the searcher of a provider from its kind and key.
	Factory Factory
	// Breaker tunes the circuit breaker of each provider; zero fields take the
	// defaults of BreakerOptions.
	Breaker BreakerOptions
}

// New returns a Service.
func New(d Deps) *Service {
	return &Service{store: d.Store, sealer: d.Sealer, factory: d.Factory, now: time.Now, breaker: d.Breaker, breakers: map[string]*Breaker{}}
}

type record struct {
	Provider
	SealedKey string `json:"sealed_key,omitempty"`
	// CreatedBy and CreatorRole are the creating user's id and role. Providers stored
	// before they were recorded have neither and count as created by an admin.
	CreatedBy   string       `json:"created_by,omitempty"`
	CreatorRole account.Role `json:"creator_role,omitempty"`
}

// mayChange refuses (403) a change by a member unless they created the provider and
// it is not the organisation default: the default serves everyone's research, so
// only admins change it (README, Web search providers).
func mayChange(by account.Principal, r record, def string) error {
	switch {
	case by.User.Role == account.RoleAdmin:
		return nil
	case r.CreatedBy == "" || r.CreatedBy != by.User.ID:
		return apperr.New(apperr.ErrForbidden, "Only an admin can delete a search provider created by another user; members delete only their own.")
	case r.ID == def:
		return apperr.New(apperr.ErrForbidden, "This search provider is the organisation default; only an admin can delete it.")
	}
	return nil
}

func pk(org string) string         { return "searchproviders#" + org }
func defaultKey(org string) kv.Key { return kv.Key{PK: pk(org), SK: "default"} }

// def is the organisation\'s default pointer.
func (s *Service) def(org string) kv.Pointer { return kv.Pointer{Store: s.store, Key: defaultKey(org)} }

// Input is the body of a create.
type Input struct {
	Kind   string
	Name   string
	APIKey string
}

// List returns the organisation's providers, oldest first.
func (s *Service) List(ctx context.Context, org string) ([]Provider, error) {
	recs, def, err := s.all(ctx, org)
	if err != nil {
		return nil, err
	}
	out := make([]Provider, 0, len(recs))
	for _, r := range recs {
		r.IsDefault = r.ID == def
		out = append(out, r.Provider)
	}
	return out, nil
}

// Create stores a provider for the caller's organisation. native needs no key; the
// others require one. The first provider an admin creates becomes the default when
// the organisation has none; a member's never does.
func (s *Service) Create(ctx context.Context, by account.Principal, in Input) (Provider, error) {
	org := by.Org.ID
	in.Kind = strings.TrimSpace(in.Kind)
	in.Name = strings.TrimSpace(in.Name)
	switch {
	case in.Kind == "":
		return Provider{}, apperr.Invalid("provider", "provider must not be blank.")
	case !slices.Contains(Kinds, in.Kind):
		return Provider{}, apperr.Invalid("provider", "provider must be one of %s; got %q.", strings.Join(Kinds, ", "), in.Kind)
	case len(in.Name) > MaxNameLen:
		return Provider{}, apperr.Invalid("name", "name is longer than %d characters.", MaxNameLen)
	}
	if in.Name == "" {
		in.Name = in.Kind
	}
	if in.Kind == KindNative {
		if in.APIKey != "" {
			return Provider{}, apperr.Invalid("api_key", "The native provider takes no api_key.")
		}
	} else if strings.TrimSpace(in.APIKey) == "" {
		return Provider{}, apperr.Invalid("api_key", "api_key is required for the %s provider.", in.Kind)
	} else if len(in.APIKey) > MaxKeyLen || strings.ContainsFunc(in.APIKey, unicode.IsSpace) {
		return Provider{}, apperr.Invalid("api_key", "api_key must be at most %d characters without whitespace.", MaxKeyLen)
	}
	recs, def, err := s.all(ctx, org)
	if err != nil {
		return Provider{}, err
	}
	if len(recs) >= MaxPerOrg {
		return Provider{}, apperr.BadRequest("too_many_search_providers", "An organisation can have at most %d search providers; delete one first.", MaxPerOrg)
	}
	now := s.now().UTC()
	r := record{Provider: Provider{ID: uuid.NewString(), Kind: in.Kind, Name: in.Name, CreatedAt: now}, CreatedBy: by.User.ID, CreatorRole: by.User.Role}
	if in.APIKey != "" {
		if r.SealedKey, err = s.sealer.Seal(org, in.APIKey); err != nil {
			return Provider{}, fmt.Errorf("seal api key: %w", err)
		}
	}
	if _, err := kv.PutJSON(ctx, s.store, kv.Key{PK: pk(org), SK: sk(now, r.ID)}, r, kv.Cond{IfAbsent: true}); err != nil {
		return Provider{}, err
	}
	if def == "" && r.CreatorRole != account.RoleMember {
		if err := s.def(org).Set(ctx, r.ID, kv.Cond{IfAbsent: true}); err != nil && !errors.Is(err, apperr.ErrConflict) {
			return Provider{}, err
		}
		if d, _ := s.def(org).Get(ctx); d == r.ID {
			r.IsDefault = true
		}
	}
	return r.Provider, nil
}

func sk(created time.Time, id string) string {
	return fmt.Sprintf("p#%020d#%s", created.UnixNano(), id)
}

// Delete removes a provider; a member deletes only a provider they created that is
// not the default (403). Deleting the default leaves none.
func (s *Service) Delete(ctx context.Context, by account.Principal, id string) error {
	org := by.Org.ID
	r, err := s.get(ctx, org, id)
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
			return fmt.Errorf("clear default search provider: %w", err)
		}
	}
	if err := s.store.Delete(ctx, kv.Key{PK: pk(org), SK: sk(r.CreatedAt, r.ID)}, kv.Cond{}); err != nil {
		return fmt.Errorf("delete search provider %s: %w", id, err)
	}
	return nil
}

// SetDefault makes a provider the organisation default; it needs the admin role (403).
func (s *Service) SetDefault(ctx context.Context, by account.Principal, id string) (Provider, error) {
	if by.User.Role != account.RoleAdmin {
		return Provider{}, apperr.New(apperr.ErrForbidden, "Only an admin can set the organisation's default search provider; your role is "+string(by.User.Role)+".")
	}
	org := by.Org.ID
	r, err := s.get(ctx, org, id)
	if err != nil {
		return Provider{}, err
	}
	if err := s.def(org).Set(ctx, id, kv.Cond{}); err != nil {
		return Provider{}, err
	}
	r.IsDefault = true
	return r.Provider, nil
}

// Resolve returns a provider and its Searcher (wrapped in the provider's circuit
// breaker): providerID, or the organisation default when empty. No provider is a 400
// (code no_search_provider) callers may turn into their own rule; another
// organisation's id is a 404.
func (s *Service) Resolve(ctx context.Context, org, providerID string) (Provider, Searcher, error) {
	providerID, viaDefault, err := s.def(org).Or(ctx, providerID, &apperr.Error{Kind: apperr.ErrBadRequest, Code: CodeNoProvider, Field: "search_provider_id",
		Message: "No search provider is configured for the organisation; create one at /v1/search-providers."})
	if err != nil {
		return Provider{}, nil, err
	}
	r, err := s.get(ctx, org, providerID)
	if err != nil {
		if viaDefault && errors.Is(err, apperr.ErrNotFound) {
			return Provider{}, nil, apperr.BadRequest(CodeNoProvider, "The organisation's default search provider no longer exists; set another default.")
		}
		return Provider{}, nil, err
	}
	key := ""
	if r.SealedKey != "" {
		if key, err = s.sealer.Open(org, r.SealedKey); err != nil {
			return Provider{}, nil, fmt.Errorf("open key of search provider %s: %w", r.ID, err)
		}
	}
	searcher, err := s.factory.Searcher(r.Kind, key)
	if err != nil {
		return Provider{}, nil, err
	}
	r.IsDefault = viaDefault
	return r.Provider, s.breakerFor(r.ID).Wrap(searcher), nil
}

func (s *Service) breakerFor(id string) *Breaker {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.breakers[id]
	if !ok {
		b = NewBreaker(s.breaker)
		s.breakers[id] = b
	}
	return b
}

func (s *Service) all(ctx context.Context, org string) ([]*record, string, error) {
	page, err := s.store.Query(ctx, pk(org), kv.QueryOptions{Prefix: "p#", Limit: MaxPerOrg + 10})
	if err != nil {
		return nil, "", fmt.Errorf("list search providers: %w", err)
	}
	out := make([]*record, 0, len(page.Items))
	for _, it := range page.Items {
		var r record
		if err := json.Unmarshal(it.Data, &r); err != nil {
			return nil, "", fmt.Errorf("decode search provider %s: %w", it.SK, err)
		}
		out = append(out, &r)
	}
	def, err := s.def(org).Get(ctx)
	return out, def, err
}

func (s *Service) get(ctx context.Context, org, id string) (record, error) {
	recs, _, err := s.all(ctx, org)
	if err != nil {
		return record{}, err
	}
	for _, r := range recs {
		if r.ID == id {
			return *r, nil
		}
	}
	return record{}, apperr.NotFound("No search provider %q in this organisation.", id)
}
