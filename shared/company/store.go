package company

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"strconv"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
)

// Store is the company store port. Domains are registrable domains as domain.Normalize
// returns them. Errors: apperr.ErrNotFound for a missing record or state, and
// apperr.ErrConflict when Put loses an optimistic race.
type Store interface {
	// Get returns the record of a domain, with its Version set.
	Get(ctx context.Context, domain string) (Record, error)
	// Put writes a record. rec.Version must be the version read (0 for a new record);
	// on success it is updated to the new version.
	Put(ctx context.Context, rec *Record) error
	// List pages through every record in a stable order. An empty cursor starts, an
	// empty next cursor means the end.
	List(ctx context.Context, cursor string, limit int) (recs []Record, next string, err error)
	// AddCertificate stores a certificate under a domain; storing the same certificate
	// (same fingerprint and issue time) again changes nothing and returns false.
	AddCertificate(ctx context.Context, domain string, c Certificate) (added bool, err error)
	// Certificates lists a domain's certificates newest first (by date_from), at most
	// limit of them (all when limit <= 0).
	Certificates(ctx context.Context, domain string, limit int) ([]Certificate, error)
	// PutPage stores a page under a domain, replacing an earlier page of the same URL.
	PutPage(ctx context.Context, domain string, p Page) error
	// Page returns the stored page of a URL.
	Page(ctx context.Context, domain, url string) (Page, error)
	// Pages lists a domain's pages.
	Pages(ctx context.Context, domain string) ([]Page, error)
	// GetState and PutState keep small named documents: the world's seed, job cursors.
	GetState(ctx context.Context, name string) ([]byte, error)
	PutState(ctx context.Context, name string, data []byte) error
}

// KVStore is the Store on the kv.Store port, so it runs on bbolt and on DynamoDB.
//
// Layout: records live in 16 partitions "company#<shard>" (shard from a hash of the
// domain) with the domain as sort key, so a record is one GetItem and listing every
// company is 16 paged queries, while writes spread over partitions. Certificates and
// pages live in one partition per domain, "co#<domain>": certificates under
// "cert#<date_from>#<sha1>" (so a reverse query is newest first and the same
// certificate maps to the same item) and pages under "page#<sha1 of the URL>".
type KVStore struct{ kv kv.Store }

var _ Store = (*KVStore)(nil)

// NewKVStore makes a KVStore.
func NewKVStore(s kv.Store) *KVStore { return &KVStore{kv: s} }

// Shards is the number of record partitions. Changing it moves every record.
const Shards = 16

func shardOf(domain string) int {
	h := fnv.New32a()
	h.Write([]byte(domain))
	return int(h.Sum32() % Shards)
}

func recordKey(domain string) kv.Key {
	return kv.Key{PK: fmt.Sprintf("company#%02x", shardOf(domain)), SK: domain}
}

func dataPK(domain string) string { return "co#" + domain }

// Get implements Store.
func (s *KVStore) Get(ctx context.Context, domain string) (Record, error) {
	it, err := s.kv.Get(ctx, recordKey(domain))
	if err != nil {
		return Record{}, fmt.Errorf("company %s: %w", domain, err)
	}
	return decodeRecord(it)
}

func decodeRecord(it kv.Item) (Record, error) {
	var rec Record
	if err := json.Unmarshal(it.Data, &rec); err != nil {
		return Record{}, fmt.Errorf("decode company %s: %w", it.SK, err)
	}
	rec.Version = it.Version
	return rec, nil
}

// Put implements Store.
func (s *KVStore) Put(ctx context.Context, rec *Record) error {
	if rec.Domain == "" {
		return fmt.Errorf("put company: empty domain: %w", apperr.ErrInvalid)
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("encode company %s: %w", rec.Domain, err)
	}
	cond := kv.Cond{IfAbsent: rec.Version == 0, IfVersion: rec.Version}
	v, err := s.kv.Put(ctx, recordKey(rec.Domain), data, cond)
	if err != nil {
		return fmt.Errorf("put company %s: %w", rec.Domain, err)
	}
	rec.Version = v
	return nil
}

// List implements Store. The cursor is "<shard>" or "<shard>:<kv cursor>".
func (s *KVStore) List(ctx context.Context, cursor string, limit int) ([]Record, string, error) {
	shard, inner, err := parseListCursor(cursor)
	if err != nil {
		return nil, "", err
	}
	if limit <= 0 {
		limit = 100
	}
	var out []Record
	for shard < Shards && len(out) < limit {
		page, err := s.kv.Query(ctx, fmt.Sprintf("company#%02x", shard), kv.QueryOptions{Limit: limit - len(out), Cursor: inner})
		if err != nil {
			return nil, "", fmt.Errorf("list companies: %w", err)
		}
		for _, it := range page.Items {
			rec, err := decodeRecord(it)
			if err != nil {
				return nil, "", err
			}
			out = append(out, rec)
		}
		if page.Next != "" {
			inner = page.Next
			continue
		}
		shard, inner = shard+1, ""
	}
	if shard >= Shards {
		return out, "", nil
	}
	next := strconv.Itoa(shard)
	if inner != "" {
		next += ":" + inner
	}
	return out, next, nil
}

func parseListCursor(c string) (int, string, error) {
	if c == "" {
		return 0, "", nil
	}
	head, inner, _ := strings.Cut(c, ":")
	shard, err := strconv.Atoi(head)
	if err != nil || shard < 0 || shard > Shards {
		return 0, "", fmt.Errorf("list cursor %q: %w", c, apperr.ErrInvalid)
	}
	return shard, inner, nil
}

// certTime is the sort-key form of a certificate's issue time: fixed width, so the sort
// keys order by time.
const certTime = "20060102T150405Z"

func certKey(domain string, c Certificate) kv.Key {
	return kv.Key{PK: dataPK(domain), SK: "cert#" + c.DateFrom.UTC().Format(certTime) + "#" + strings.ToLower(c.SHA1Fingerprint)}
}

// AddCertificate implements Store.
func (s *KVStore) AddCertificate(ctx context.Context, domain string, c Certificate) (bool, error) {
	data, err := json.Marshal(c)
	if err != nil {
		return false, err
	}
	_, err = s.kv.Put(ctx, certKey(domain, c), data, kv.Cond{IfAbsent: true})
	if errors.Is(err, apperr.ErrConflict) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("add certificate %s to %s: %w", c.SHA1Fingerprint, domain, err)
	}
	return true, nil
}

// Certificates implements Store.
func (s *KVStore) Certificates(ctx context.Context, domain string, limit int) ([]Certificate, error) {
	var out []Certificate
	cursor := ""
	for {
		size := 1000
		if limit > 0 && limit-len(out) < size {
			size = limit - len(out)
		}
		page, err := s.kv.Query(ctx, dataPK(domain), kv.QueryOptions{Prefix: "cert#", Limit: size, Cursor: cursor, Reverse: true})
		if err != nil {
			return nil, fmt.Errorf("certificates of %s: %w", domain, err)
		}
		for _, it := range page.Items {
			var c Certificate
			if err := json.Unmarshal(it.Data, &c); err != nil {
				return nil, fmt.Errorf("decode certificate %s: %w", it.Key, err)
			}
			out = append(out, c)
		}
		if page.Next == "" || (limit > 0 && len(out) >= limit) {
			return out, nil
		}
		cursor = page.Next
	}
}

func pageKey(domain, url string) kv.Key {
	sum := sha1.Sum([]byte(url))
	return kv.Key{PK: dataPK(domain), SK: "page#" + hex.EncodeToString(sum[:])}
}

// MaxStoredPage bounds a stored page item (compressed HTML plus text): DynamoDB items
// hold at most 400 KB.
const MaxStoredPage = 380 << 10

// storedPage is a page as stored: the HTML gzip-compressed, because pages are large and
// compress five to ten times.
type storedPage struct {
	Page
	HTML   string `json:"html,omitempty"`
	HTMLGz []byte `json:"html_gz,omitempty"`
}

func encodePage(p Page) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(p.HTML))
	if err := zw.Close(); err != nil {
		return nil, err
	}
	sp := storedPage{Page: p, HTMLGz: buf.Bytes()}
	sp.Page.HTML = ""
	data, err := json.Marshal(sp)
	if err != nil {
		return nil, err
	}
	if len(data) > MaxStoredPage {
		return nil, apperr.Invalid("html", "the page %s is too large to store (%d KB compressed with its text; at most %d KB)", p.URL, len(data)>>10, MaxStoredPage>>10)
	}
	return data, nil
}

func decodePage(data []byte) (Page, error) {
	var sp storedPage
	if err := json.Unmarshal(data, &sp); err != nil {
		return Page{}, err
	}
	p := sp.Page
	p.HTML = sp.HTML
	if len(sp.HTMLGz) > 0 {
		zr, err := gzip.NewReader(bytes.NewReader(sp.HTMLGz))
		if err != nil {
			return Page{}, err
		}
		html, err := io.ReadAll(zr)
		if err != nil {
			return Page{}, err
		}
		p.HTML = string(html)
	}
	return p, nil
}

// PutPage implements Store.
func (s *KVStore) PutPage(ctx context.Context, domain string, p Page) error {
	data, err := encodePage(p)
	if err != nil {
		return err
	}
	if _, err := s.kv.Put(ctx, pageKey(domain, p.URL), data, kv.Cond{}); err != nil {
		return fmt.Errorf("put page %s: %w", p.URL, err)
	}
	return nil
}

// Page implements Store.
func (s *KVStore) Page(ctx context.Context, domain, url string) (Page, error) {
	it, err := s.kv.Get(ctx, pageKey(domain, url))
	if err != nil {
		return Page{}, fmt.Errorf("page %s: %w", url, err)
	}
	p, err := decodePage(it.Data)
	if err != nil {
		return Page{}, fmt.Errorf("decode page %s: %w", url, err)
	}
	return p, nil
}

// Pages implements Store.
func (s *KVStore) Pages(ctx context.Context, domain string) ([]Page, error) {
	var out []Page
	cursor := ""
	for {
		page, err := s.kv.Query(ctx, dataPK(domain), kv.QueryOptions{Prefix: "page#", Limit: 100, Cursor: cursor})
		if err != nil {
			return nil, fmt.Errorf("pages of %s: %w", domain, err)
		}
		for _, it := range page.Items {
			p, err := decodePage(it.Data)
			if err != nil {
				return nil, fmt.Errorf("decode page %s: %w", it.Key, err)
			}
			out = append(out, p)
		}
		if page.Next == "" {
			return out, nil
		}
		cursor = page.Next
	}
}

func stateKey(name string) kv.Key { return kv.Key{PK: "companystate", SK: name} }

// GetState implements Store.
func (s *KVStore) GetState(ctx context.Context, name string) ([]byte, error) {
	it, err := s.kv.Get(ctx, stateKey(name))
	if err != nil {
		return nil, fmt.Errorf("company state %s: %w", name, err)
	}
	return it.Data, nil
}

// PutState implements Store.
func (s *KVStore) PutState(ctx context.Context, name string, data []byte) error {
	if _, err := s.kv.Put(ctx, stateKey(name), data, kv.Cond{}); err != nil {
		return fmt.Errorf("put company state %s: %w", name, err)
	}
	return nil
}
