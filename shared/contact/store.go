package contact

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
)

// Shards spreads contact records over partitions, so a DynamoDB table has no single hot
// partition and List can read shards independently.
const Shards = 16

// Store keeps raw contacts in a kv.Store. Records live under "contact#<id mod 16>";
// lookup items map a lowercased email, a LinkedIn username and an ingest natural key to
// a persona id. A lookup item is only a hint: readers check the record still carries
// the value, so a changed email never answers for its old address.
type Store struct {
	kv   kv.Store
	sink func(ctx context.Context, r Raw) error
}

// NewStore returns the store over s.
func NewStore(s kv.Store) *Store { return &Store{kv: s} }

// OnChange sets fn to receive every contact a Put (or an ingest) changed, after it is
// stored: the write of an outside search index (contact search on OpenSearch). An error
// of fn is Put's error. Set it before the store is used.
func (s *Store) OnChange(fn func(ctx context.Context, r Raw) error) { s.sink = fn }

func recordKey(id int64) kv.Key {
	return kv.Key{PK: "contact#" + strconv.FormatInt(id%Shards, 10), SK: fmt.Sprintf("p#%020d", id)}
}

func lookupKey(kind, value string) kv.Key {
	return kv.Key{PK: "contact-" + kind + "#" + value, SK: "id"}
}

var seqKey = kv.Key{PK: "contact-seq", SK: "seq"}

// Get returns the raw contact of a persona id (apperr.ErrNotFound when none).
func (s *Store) Get(ctx context.Context, id int64) (Raw, error) {
	if id <= 0 {
		return Raw{}, fmt.Errorf("persona %d: %w", id, apperr.ErrNotFound)
	}
	it, err := s.kv.Get(ctx, recordKey(id))
	if err != nil {
		return Raw{}, fmt.Errorf("persona %d: %w", id, err)
	}
	var r Raw
	if err := json.Unmarshal(it.Data, &r); err != nil {
		return Raw{}, fmt.Errorf("decode persona %d: %w", id, err)
	}
	return r, nil
}

// Put stores r (r.PersonaID must be set) and its lookup items; changed is false when the
// stored record was already identical, so ingesting a file twice changes nothing.
func (s *Store) Put(ctx context.Context, r Raw) (changed bool, err error) {
	if r.PersonaID <= 0 {
		return false, apperr.Invalid("persona_id", "persona_id must be a positive integer")
	}
	data, err := json.Marshal(r)
	if err != nil {
		return false, err
	}
	old, err := s.kv.Get(ctx, recordKey(r.PersonaID))
	switch {
	case err == nil && string(old.Data) == string(data):
		return false, nil
	case err != nil && !errors.Is(err, apperr.ErrNotFound):
		return false, err
	}
	if _, err := s.kv.Put(ctx, recordKey(r.PersonaID), data, kv.Cond{}); err != nil {
		return false, fmt.Errorf("put persona %d: %w", r.PersonaID, err)
	}
	idb := []byte(strconv.FormatInt(r.PersonaID, 10))
	if e := strings.ToLower(strings.TrimSpace(r.Email)); e != "" {
		if _, err := s.kv.Put(ctx, lookupKey("email", e), idb, kv.Cond{}); err != nil {
			return true, err
		}
	}
	if u := LinkedinUsername(r.LinkedinURL); u != "" {
		if _, err := s.kv.Put(ctx, lookupKey("li", u), idb, kv.Cond{}); err != nil {
			return true, err
		}
	}
	if s.sink != nil {
		if err := s.sink(ctx, r); err != nil {
			return true, fmt.Errorf("persona %d stored, not indexed: %w", r.PersonaID, err)
		}
	}
	return true, nil
}

func (s *Store) lookup(ctx context.Context, kind, value string) (int64, error) {
	it, err := s.kv.Get(ctx, lookupKey(kind, value))
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(string(it.Data), 10, 64)
}

// ByEmail finds the contact whose email equals email, ignoring case.
func (s *Store) ByEmail(ctx context.Context, email string) (Raw, error) {
	e := strings.ToLower(strings.TrimSpace(email))
	id, err := s.lookup(ctx, "email", e)
	if err != nil {
		return Raw{}, fmt.Errorf("contact with email %q: %w", email, err)
	}
	r, err := s.Get(ctx, id)
	if err != nil {
		return Raw{}, err
	}
	if strings.ToLower(strings.TrimSpace(r.Email)) != e {
		return Raw{}, fmt.Errorf("contact with email %q: %w", email, apperr.ErrNotFound)
	}
	return r, nil
}

// ByLinkedin finds the contact of a LinkedIn profile URL or bare username.
func (s *Store) ByLinkedin(ctx context.Context, urlOrUser string) (Raw, error) {
	u := LinkedinUsername(urlOrUser)
	if u == "" {
		return Raw{}, fmt.Errorf("linkedin %q: %w", urlOrUser, apperr.ErrNotFound)
	}
	id, err := s.lookup(ctx, "li", u)
	if err != nil {
		return Raw{}, fmt.Errorf("contact with linkedin %q: %w", u, err)
	}
	r, err := s.Get(ctx, id)
	if err != nil {
		return Raw{}, err
	}
	if LinkedinUsername(r.LinkedinURL) != u {
		return Raw{}, fmt.Errorf("contact with linkedin %q: %w", u, apperr.ErrNotFound)
	}
	return r, nil
}

// IDFor returns the persona id of a natural key (see naturalKey), assigning the next
// free id the first time the key is seen. Two racing ingests agree: the loser of the
// IfAbsent write reads the winner's id.
func (s *Store) IDFor(ctx context.Context, natural string) (int64, error) {
	k := lookupKey("nat", natural)
	if id, err := s.lookup(ctx, "nat", natural); err == nil {
		return id, nil
	} else if !errors.Is(err, apperr.ErrNotFound) {
		return 0, err
	}
	id, err := s.NextID(ctx)
	if err != nil {
		return 0, err
	}
	_, err = s.kv.Put(ctx, k, []byte(strconv.FormatInt(id, 10)), kv.Cond{IfAbsent: true})
	if errors.Is(err, apperr.ErrConflict) {
		return s.lookup(ctx, "nat", natural)
	}
	return id, err
}

// ClaimID records that an explicit persona id is taken, so generated ids skip it. It
// runs before ingest starts writing, from one process: it is not safe against a
// concurrent NextID.
func (s *Store) ClaimID(ctx context.Context, id int64) error {
	it, err := s.kv.Get(ctx, seqKey)
	cur := int64(0)
	switch {
	case err == nil:
		cur = it.Counters["n"]
	case !errors.Is(err, apperr.ErrNotFound):
		return err
	}
	if cur >= id {
		return nil
	}
	_, err = s.kv.Add(ctx, seqKey, "n", id-cur, kv.AddCond{})
	return err
}

// NextID hands out a new persona id.
func (s *Store) NextID(ctx context.Context) (int64, error) {
	return s.kv.Add(ctx, seqKey, "n", 1, kv.AddCond{})
}

// List calls fn for every stored contact, shard by shard in persona id order within a
// shard.
func (s *Store) List(ctx context.Context, fn func(Raw) error) error {
	for shard := 0; shard < Shards; shard++ {
		cursor := ""
		for {
			page, err := s.kv.Query(ctx, "contact#"+strconv.Itoa(shard), kv.QueryOptions{Prefix: "p#", Limit: 1000, Cursor: cursor})
			if err != nil {
				return fmt.Errorf("list contacts: %w", err)
			}
			for _, it := range page.Items {
				var r Raw
				if err := json.Unmarshal(it.Data, &r); err != nil {
					return fmt.Errorf("decode %s: %w", it.Key, err)
				}
				if err := fn(r); err != nil {
					return err
				}
			}
			if page.Next == "" {
				break
			}
			cursor = page.Next
		}
	}
	return nil
}
