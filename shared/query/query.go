// Package query holds saved queries: the domain and persona lists an organisation
// saves (exclusion lists, CRM snapshots, contact searches) and reuses to scope or
// exclude companies and people.
//
// # Seam for the features that use saved queries
//
//   - Contact search saves each search with SaveSearch(ctx, org, actor, ActionDiscover,
//     params, domains) so users can reuse it, and filters its candidates with
//     Service.Scope(ctx, org, inclusionIDs, exclusionIDs): Scope.Allows(domain, personaID)
//     says whether a contact may be returned.
//   - Segmentation and append call Resolve(ctx, org, ids) and union the domains in.
//   - CRM suppress snapshots a CRM with CreateList (action exclusion_list).
//
// Domain lists scope or exclude companies, persona lists scope or exclude people; one
// query may hold both. Stored domains are normalized by domain.Normalize, so callers
// compare normalized domains.
//
// # Storage (partition / sort key)
//
//	queries#<org>               / q#<query_id>   Query: metadata and the first PreviewDomains domains
//	querydata#<org>#<query_id>  / d#<n>          chunk n of the domains (JSON array)
//	querydata#<org>#<query_id>  / p#<n>          chunk n of the persona ids
//
// Lists of up to MaxEntries do not fit one DynamoDB item (400 KB), so they are chunked.
// The metadata item is the commit point: it is written first in state "creating", then
// the chunks, then it turns "active"; deletion turns it "deleting" before removing the
// chunks. Only active queries are visible, and List purges queries left creating or
// deleting by a crash, so no partial list is ever read or left behind for good.
// Chunks never change once written (PATCH changes only name and tags): Replace, which
// gives a CRM snapshot new contents under the same id, writes a new generation of chunks
// (sort keys g<n>.d#, g<n>.p#), turns the metadata to it and then removes the old one,
// so Resolve caches contents by query id and generation.
package query

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/domain"
	"github.com/firmoapi/firmo/shared/kv"
)

// Actions of saved queries.
const (
	ActionExclusionList = "exclusion_list"
	ActionDiscover      = "discover"
)

// Limits of the API reference and of this implementation.
const (
	MaxEntries       = 240_000 // domains, and separately persona ids, kept per query
	MinListDomains   = 20      // a domain exclusion list needs at least this many
	MaxNameLen       = 255
	MaxTags          = 50
	MaxTagLen        = 64
	PreviewDomains   = 100 // domains shown per query in listings; domain_count is the total
	maxChunkBytes    = 150_000
	purgeAfter       = 10 * time.Minute
	maxPurgesPerList = 5
)

// Query states.
const (
	stateCreating = "creating"
	stateActive   = "active"
	stateDeleting = "deleting"
)

// Query is a saved query's metadata.
type Query struct {
	ID           string          `json:"query_id"`
	Name         string          `json:"query_name"`
	Action       string          `json:"action"`
	UserID       string          `json:"user_id"`
	UserName     string          `json:"user_name"`
	Created      time.Time       `json:"created"`
	MTime        time.Time       `json:"mtime"`
	DomainCount  int             `json:"domain_count"`
	PersonaCount int             `json:"persona_count"`
	Preview      []string        `json:"preview"` // the first PreviewDomains domains
	Params       json.RawMessage `json:"query_params,omitempty"`
	Tags         []string        `json:"tags"`
	Truncated    bool            `json:"truncated"` // entries beyond MaxEntries were dropped
	State        string          `json:"state"`
	DomainChunks int             `json:"domain_chunks"`
	PersonaChunk int             `json:"persona_chunks"`
	// Gen counts the times Replace gave the query new contents: its chunks are stored
	// under the generation's prefixes (chunkPrefix), so a reader never mixes two.
	Gen int `json:"gen,omitempty"`
}

// Actor is who asks: members change their own queries, admins any of the organisation's.
type Actor struct {
	UserID   string
	UserName string
	Admin    bool
}

// Service stores saved queries. It is safe for concurrent use.
type Service struct {
	store kv.Store
	now   func() time.Time
	cache *listCache
}

// Option configures a Service.
type Option func(*Service)

// WithClock sets the clock (tests).
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// New returns a Service on store.
func New(store kv.Store, opts ...Option) *Service {
	s := &Service{store: store, now: time.Now, cache: newListCache(2_000_000)}
	for _, o := range opts {
		o(s)
	}
	return s
}

func metaKey(orgID, id string) kv.Key { return kv.Key{PK: "queries#" + orgID, SK: "q#" + id} }
func dataPK(orgID, id string) string  { return "querydata#" + orgID + "#" + id }

// NewList is a list to save.
type NewList struct {
	Name       string
	Action     string
	Domains    []string // raw domains; normalized and deduplicated on save
	PersonaIDs []int64
	Params     json.RawMessage // query_params: a JSON object, or nil
}

// CreateExclusionList saves an exclusion list under the API reference's rules: a name of 1 to 255
// characters, domains and/or persona ids, at least MinListDomains distinct domains when
// domains are given, duplicates removed after normalization, and at most MaxEntries of
// each (the rest is dropped and the query marked Truncated).
func (s *Service) CreateExclusionList(ctx context.Context, orgID string, by Actor, name string, domains []string, personaIDs []int64) (Query, error) {
	name, err := checkName("query_name", name)
	if err != nil {
		return Query{}, err
	}
	if len(domains) == 0 && len(personaIDs) == 0 {
		return Query{}, &apperr.Error{Kind: apperr.ErrBadRequest, Field: "domains", Message: "An exclusion list needs domains or persona_ids; both are empty."}
	}
	ds, err := normalizeDomains(domains)
	if err != nil {
		return Query{}, err
	}
	if len(domains) > 0 && len(ds) < MinListDomains {
		return Query{}, &apperr.Error{Kind: apperr.ErrBadRequest, Field: "domains", Message: fmt.Sprintf(
			"A domain exclusion list needs at least %d distinct domains; got %d after normalization and removing duplicates.", MinListDomains, len(ds))}
	}
	ps, err := checkPersonas(personaIDs)
	if err != nil {
		return Query{}, err
	}
	return s.create(ctx, orgID, by, NewList{Name: name, Action: ActionExclusionList}, ds, ps)
}

// CreateList saves a list built by Firmo itself (a CRM snapshot, say) without the
// exclusion-list minimum: invalid domains are skipped, duplicates removed, and at most
// MaxEntries of each kind kept.
func (s *Service) CreateList(ctx context.Context, orgID string, by Actor, l NewList) (Query, error) {
	name, err := checkName("query_name", l.Name)
	if err != nil {
		return Query{}, err
	}
	if l.Action == "" {
		return Query{}, fmt.Errorf("saved query without an action: %w", apperr.ErrInvalid)
	}
	if err := checkParams(l.Params); err != nil {
		return Query{}, err
	}
	ps, err := checkPersonas(l.PersonaIDs)
	if err != nil {
		return Query{}, err
	}
	l.Name = name
	return s.create(ctx, orgID, by, l, lenientDomains(l.Domains), ps)
}

// SaveSearch saves a search so it can be reused: action (ActionDiscover for contact
// search), its parameters (any JSON-encodable object) and the company domains it
// returned. It is named after the action and time.
func (s *Service) SaveSearch(ctx context.Context, orgID string, by Actor, action string, params any, domains []string) (Query, error) {
	raw, err := json.Marshal(params)
	if err != nil {
		return Query{}, fmt.Errorf("encode search parameters: %w", err)
	}
	if params == nil {
		raw = nil
	}
	name := fmt.Sprintf("%s %s", searchLabel(action), s.now().UTC().Format("2006-01-02 15:04:05 UTC"))
	return s.CreateList(ctx, orgID, by, NewList{Name: name, Action: action, Domains: domains, Params: raw})
}

func searchLabel(action string) string {
	switch action {
	case ActionDiscover:
		return "Contact search"
	case "":
		return "Search"
	}
	return strings.ToUpper(action[:1]) + action[1:]
}

func checkName(field, name string) (string, error) {
	name = strings.TrimSpace(name)
	switch n := utf8.RuneCountInString(name); {
	case n == 0:
		return "", apperr.Invalid(field, "%s is required and must not be blank", field)
	case n > MaxNameLen:
		return "", apperr.Invalid(field, "%s must be at most %d characters, not %d", field, MaxNameLen, n)
	}
	return name, nil
}

func checkParams(p json.RawMessage) error {
	if len(p) == 0 {
		return nil
	}
	var obj map[string]any
	if err := json.Unmarshal(p, &obj); err != nil {
		return fmt.Errorf("query_params must be a JSON object: %w", apperr.ErrInvalid)
	}
	return nil
}

// normalizeDomains normalizes, rejecting the first invalid domain (422 naming it), and
// removes duplicates keeping the first occurrence's order.
func normalizeDomains(in []string) ([]string, error) {
	out := make([]string, 0, len(in))
	seen := make(map[string]bool, len(in))
	for i, d := range in {
		n, err := domain.NormalizeField(fmt.Sprintf("domains[%d]", i), d)
		if err != nil {
			return nil, err
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}

// lenientDomains is normalizeDomains for Firmo's own lists: what does not normalize is skipped.
func lenientDomains(in []string) []string {
	out := make([]string, 0, len(in))
	seen := make(map[string]bool, len(in))
	for _, d := range in {
		n, err := domain.Normalize(d)
		if err != nil || seen[n] {
			continue
		}
		seen[n] = true
		out = append(out, n)
	}
	return out
}

func checkPersonas(in []int64) ([]int64, error) {
	out := make([]int64, 0, len(in))
	seen := make(map[int64]bool, len(in))
	for i, p := range in {
		if p <= 0 {
			return nil, apperr.Invalid(fmt.Sprintf("persona_ids[%d]", i), "persona ids are positive integers, not %d", p)
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out, nil
}

func (s *Service) create(ctx context.Context, orgID string, by Actor, l NewList, domains []string, personas []int64) (Query, error) {
	truncated := false
	if len(domains) > MaxEntries {
		domains, truncated = domains[:MaxEntries], true
	}
	if len(personas) > MaxEntries {
		personas, truncated = personas[:MaxEntries], true
	}
	now := s.now().UTC()
	q := Query{
		ID: uuid.NewString(), Name: l.Name, Action: l.Action, UserID: by.UserID, UserName: by.UserName,
		Created: now, MTime: now, DomainCount: len(domains), PersonaCount: len(personas),
		Preview: domains[:min(len(domains), PreviewDomains)], Params: l.Params, Tags: []string{},
		Truncated: truncated, State: stateCreating,
	}
	dchunks, err := chunk(domains)
	if err != nil {
		return Query{}, err
	}
	pchunks, err := chunk(personas)
	if err != nil {
		return Query{}, err
	}
	q.DomainChunks, q.PersonaChunk = len(dchunks), len(pchunks)
	key := metaKey(orgID, q.ID)
	ver, err := s.putMeta(ctx, key, q, kv.Cond{IfAbsent: true})
	if err != nil {
		return Query{}, fmt.Errorf("save query: %w", err)
	}
	pk := dataPK(orgID, q.ID)
	err = s.writeChunks(ctx, pk, chunkPrefix("d#", 0), dchunks)
	if err == nil {
		err = s.writeChunks(ctx, pk, chunkPrefix("p#", 0), pchunks)
	}
	if err == nil {
		q.State = stateActive
		_, err = s.putMeta(ctx, key, q, kv.Cond{IfVersion: ver})
	}
	if err != nil {
		// Nothing half-written stays: remove the chunks and the metadata.
		s.purge(context.WithoutCancel(ctx), orgID, q.ID)
		return Query{}, fmt.Errorf("save query %s: %w", q.ID, err)
	}
	return q, nil
}

// chunk splits a list into JSON arrays of at most maxChunkBytes.
func chunk[T any](list []T) ([][]byte, error) {
	var out [][]byte
	var cur []byte
	for _, v := range list {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		if len(cur) > 0 && len(cur)+len(b)+2 > maxChunkBytes {
			out = append(out, append(cur, ']'))
			cur = nil
		}
		if len(cur) == 0 {
			cur = append(cur, '[')
		} else {
			cur = append(cur, ',')
		}
		cur = append(cur, b...)
	}
	if len(cur) > 0 {
		out = append(out, append(cur, ']'))
	}
	return out, nil
}

func chunkSK(prefix string, i int) string { return fmt.Sprintf("%s%05d", prefix, i) }

// chunkPrefix is the sort-key prefix of a generation's domain ("d#") or persona ("p#")
// chunks: the kind alone for the first generation, as queries were always stored.
func chunkPrefix(kind string, gen int) string {
	if gen == 0 {
		return kind
	}
	return fmt.Sprintf("g%d.%s", gen, kind)
}

// Replace gives an active query of Firmo's own (a CRM snapshot) new contents under
// the same id, as CreateList would save them (invalid domains skipped, duplicates
// removed, at most MaxEntries of each). Name, action, owner and tags are kept; mtime
// is now. Readers see the old contents or the new, never a mix. Another
// organisation's query, or one deleted meanwhile, is not found.
func (s *Service) Replace(ctx context.Context, orgID, id string, l NewList) (Query, error) {
	if err := checkParams(l.Params); err != nil {
		return Query{}, err
	}
	personas, err := checkPersonas(l.PersonaIDs)
	if err != nil {
		return Query{}, err
	}
	domains, truncated := lenientDomains(l.Domains), false
	if len(domains) > MaxEntries {
		domains, truncated = domains[:MaxEntries], true
	}
	if len(personas) > MaxEntries {
		personas, truncated = personas[:MaxEntries], true
	}
	dchunks, err := chunk(domains)
	if err != nil {
		return Query{}, err
	}
	pchunks, err := chunk(personas)
	if err != nil {
		return Query{}, err
	}
	q, ver, err := s.getMeta(ctx, orgID, id)
	if err != nil {
		return Query{}, err
	}
	if q.State != stateActive {
		return Query{}, notFound(id)
	}
	old, gen := q.Gen, q.Gen+1
	pk := dataPK(orgID, id)
	err = s.writeChunks(ctx, pk, chunkPrefix("d#", gen), dchunks)
	if err == nil {
		err = s.writeChunks(ctx, pk, chunkPrefix("p#", gen), pchunks)
	}
	if err == nil {
		q.Gen, q.MTime, q.Truncated = gen, s.now().UTC(), truncated
		q.DomainCount, q.PersonaCount, q.DomainChunks, q.PersonaChunk = len(domains), len(personas), len(dchunks), len(pchunks)
		q.Preview = domains[:min(len(domains), PreviewDomains)]
		if l.Params != nil {
			q.Params = l.Params
		}
		_, err = s.putMeta(ctx, metaKey(orgID, id), q, kv.Cond{IfVersion: ver})
	}
	if err != nil {
		// The new generation is not referenced: remove it, keep the old contents.
		s.dropGeneration(context.WithoutCancel(ctx), pk, gen)
		if errors.Is(err, apperr.ErrConflict) {
			return Query{}, fmt.Errorf("replace query %s: changed meanwhile: %w", id, apperr.ErrConflict)
		}
		return Query{}, fmt.Errorf("replace query %s: %w", id, err)
	}
	s.cache.drop(orgID, id)
	// A reader that read the old metadata just before may still be reading the old
	// chunks; it then sees a short read and fails once (see load), never a mix.
	if err := s.dropGeneration(ctx, pk, old); err != nil {
		return q, nil // leftover chunks are unreferenced; purge removes them with the query
	}
	return q, nil
}

// dropGeneration deletes the chunks of one generation.
func (s *Service) dropGeneration(ctx context.Context, pk string, gen int) error {
	for _, kind := range []string{"d#", "p#"} {
		for {
			page, err := s.store.Query(ctx, pk, kv.QueryOptions{Prefix: chunkPrefix(kind, gen), Limit: 100})
			if err != nil {
				return err
			}
			for _, it := range page.Items {
				if err := s.store.Delete(ctx, it.Key, kv.Cond{}); err != nil {
					return err
				}
			}
			if page.Next == "" {
				break
			}
		}
	}
	return nil
}

func (s *Service) writeChunks(ctx context.Context, pk, prefix string, chunks [][]byte) error {
	for i, c := range chunks {
		if _, err := s.store.Put(ctx, kv.Key{PK: pk, SK: chunkSK(prefix, i)}, c, kv.Cond{}); err != nil {
			return fmt.Errorf("write chunk %d: %w", i, err)
		}
	}
	return nil
}

func (s *Service) putMeta(ctx context.Context, key kv.Key, q Query, cond kv.Cond) (int64, error) {
	b, err := json.Marshal(q)
	if err != nil {
		return 0, err
	}
	return s.store.Put(ctx, key, b, cond)
}

func (s *Service) getMeta(ctx context.Context, orgID, id string) (Query, int64, error) {
	if _, err := uuid.Parse(id); err != nil {
		return Query{}, 0, notFound(id)
	}
	it, err := s.store.Get(ctx, metaKey(orgID, id))
	if errors.Is(err, apperr.ErrNotFound) {
		return Query{}, 0, notFound(id)
	}
	if err != nil {
		return Query{}, 0, fmt.Errorf("get query %s: %w", id, err)
	}
	var q Query
	if err := json.Unmarshal(it.Data, &q); err != nil {
		return Query{}, 0, fmt.Errorf("decode query %s: %w", id, err)
	}
	return q, it.Version, nil
}

func notFound(id string) error {
	if len(id) > 64 {
		id = id[:64] + "..."
	}
	return apperr.NotFound("No saved query %q exists in your organisation.", id)
}

// Get returns an active query of the organisation; another organisation's is not found.
func (s *Service) Get(ctx context.Context, orgID, id string) (Query, error) {
	q, _, err := s.getMeta(ctx, orgID, id)
	if err != nil {
		return Query{}, err
	}
	if q.State != stateActive {
		return Query{}, notFound(id)
	}
	return q, nil
}

// List returns the organisation's active queries that have domains, most recently
// modified first, from offset, at most limit of them, and how many there are in all.
func (s *Service) List(ctx context.Context, orgID string, limit, offset int) ([]Query, int, error) {
	var all []Query
	var stale []string
	now := s.now()
	opts := kv.QueryOptions{Prefix: "q#", Limit: 1000}
	for {
		page, err := s.store.Query(ctx, "queries#"+orgID, opts)
		if err != nil {
			return nil, 0, fmt.Errorf("list queries: %w", err)
		}
		for _, it := range page.Items {
			var q Query
			if err := json.Unmarshal(it.Data, &q); err != nil {
				return nil, 0, fmt.Errorf("decode query %s: %w", it.Key, err)
			}
			switch {
			case q.State == stateActive && q.DomainCount > 0:
				all = append(all, q)
			case q.State != stateActive && now.Sub(q.MTime) > purgeAfter:
				stale = append(stale, q.ID)
			}
		}
		if page.Next == "" {
			break
		}
		opts.Cursor = page.Next
	}
	for i, id := range stale {
		if i == maxPurgesPerList {
			break
		}
		s.purge(ctx, orgID, id) // housekeeping: a failure is retried by the next listing
	}
	sort.Slice(all, func(i, j int) bool {
		if !all[i].MTime.Equal(all[j].MTime) {
			return all[i].MTime.After(all[j].MTime)
		}
		return all[i].ID > all[j].ID
	})
	total := len(all)
	if offset >= total {
		return []Query{}, total, nil
	}
	return all[offset:min(total, offset+limit)], total, nil
}

// Patch renames a query and/or replaces its tags. At least one must be given.
func (s *Service) Patch(ctx context.Context, orgID, id string, by Actor, name *string, tags *[]string) (Query, error) {
	if name == nil && tags == nil {
		return Query{}, apperr.Invalid("body", "give query_name and/or tags")
	}
	var newName string
	var newTags []string
	var err error
	if name != nil {
		if newName, err = checkName("query_name", *name); err != nil {
			return Query{}, err
		}
	}
	if tags != nil {
		if newTags, err = checkTags(*tags); err != nil {
			return Query{}, err
		}
	}
	for range 5 {
		q, ver, err := s.getMeta(ctx, orgID, id)
		if err != nil {
			return Query{}, err
		}
		if q.State != stateActive {
			return Query{}, notFound(id)
		}
		if err := by.mayChange(q); err != nil {
			return Query{}, err
		}
		if name != nil {
			q.Name = newName
		}
		if tags != nil {
			q.Tags = newTags
		}
		q.MTime = s.now().UTC()
		if _, err := s.putMeta(ctx, metaKey(orgID, id), q, kv.Cond{IfVersion: ver}); err == nil {
			return q, nil
		} else if !errors.Is(err, apperr.ErrConflict) {
			return Query{}, fmt.Errorf("update query %s: %w", id, err)
		}
	}
	return Query{}, fmt.Errorf("update query %s: %w", id, apperr.ErrConflict)
}

func checkTags(in []string) ([]string, error) {
	if len(in) > MaxTags {
		return nil, apperr.Invalid("tags", "at most %d tags, not %d", MaxTags, len(in))
	}
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for i, t := range in {
		t = strings.TrimSpace(t)
		field := fmt.Sprintf("tags[%d]", i)
		switch n := utf8.RuneCountInString(t); {
		case n == 0:
			return nil, apperr.Invalid(field, "tags must not be blank")
		case n > MaxTagLen:
			return nil, apperr.Invalid(field, "a tag has at most %d characters, not %d", MaxTagLen, n)
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out, nil
}

func (a Actor) mayChange(q Query) error {
	if a.Admin || (a.UserID != "" && a.UserID == q.UserID) {
		return nil
	}
	return &apperr.Error{Kind: apperr.ErrForbidden, Message: "Only the user who saved this query or an organisation admin can change or delete it."}
}

// Delete removes a query and its lists. Another organisation's query is not found.
func (s *Service) Delete(ctx context.Context, orgID, id string, by Actor) error {
	for range 5 {
		q, ver, err := s.getMeta(ctx, orgID, id)
		if err != nil {
			return err
		}
		if q.State == stateCreating {
			return notFound(id)
		}
		if err := by.mayChange(q); err != nil {
			return err
		}
		if q.State == stateActive {
			// Hide it first, so a failure midway leaves no half-deleted list visible;
			// a retried DELETE (or a later listing) finishes the job.
			q.State, q.MTime = stateDeleting, s.now().UTC()
			if _, err := s.putMeta(ctx, metaKey(orgID, id), q, kv.Cond{IfVersion: ver}); errors.Is(err, apperr.ErrConflict) {
				continue
			} else if err != nil {
				return fmt.Errorf("delete query %s: %w", id, err)
			}
		}
		s.cache.drop(orgID, id)
		return s.purge(ctx, orgID, id)
	}
	return fmt.Errorf("delete query %s: %w", id, apperr.ErrConflict)
}

// purge deletes a query's chunks, then its metadata.
func (s *Service) purge(ctx context.Context, orgID, id string) error {
	pk := dataPK(orgID, id)
	for {
		page, err := s.store.Query(ctx, pk, kv.QueryOptions{Limit: 100})
		if err != nil {
			return fmt.Errorf("purge query %s: %w", id, err)
		}
		for _, it := range page.Items {
			if err := s.store.Delete(ctx, it.Key, kv.Cond{}); err != nil {
				return fmt.Errorf("purge query %s: %w", id, err)
			}
		}
		if page.Next == "" {
			break
		}
	}
	if err := s.store.Delete(ctx, metaKey(orgID, id), kv.Cond{}); err != nil {
		return fmt.Errorf("purge query %s: %w", id, err)
	}
	return nil
}
