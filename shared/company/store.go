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
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/kv"
)

// Store is the company store port. Domains are registrable domains as domain.Normalize
// returns them. Errors: apperr.ErrNotFound for a missing record or state, and
// apperr.ErrConflict when Put loses an optimistic race.
type Store interface {
	// Get returns the record of a domain, with its Version set.
	Get(ctx context.Context, domain string) (Record, error)
	// GetMany returns the records of many domains at once (batched reads of the kv
	// store), by domain; a domain without a record is absent.
	GetMany(ctx context.Context, domains []string) (map[string]Record, error)
	// Put writes a record. rec.Version must be the version read (0 for a new record);
	// on success it is updated to the new version.
	Put(ctx context.Context, rec *Record) error
	// List pages through every record in a stable order. An empty cursor starts, an
	// empty next cursor means the end.
	List(ctx context.Context, cursor string, limit int) (recs []Record, next string, err error)
	// AddCertificates stores certificates under a domain and returns the keys
	// (CertKey) of those that were new; storing the same certificate (same fingerprint
	// and issue time) again changes nothing.
	AddCertificates(ctx context.Context, domain string, certs []Certificate) (added map[string]bool, err error)
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
	// PutSite and Site keep a domain's site material (see Site); Site of a domain
	// without any is apperr.ErrNotFound.
	PutSite(ctx context.Context, domain string, site Site) error
	Site(ctx context.Context, domain string) (Site, error)
	// Sites returns the site material of many domains at once, by domain; a domain
	// without any is absent.
	Sites(ctx context.Context, domains []string) (map[string]Site, error)
	// SetRedirect moves the reverse redirect edge of source from the domain it
	// redirected to (from, "" for none) to the one it redirects to now (to, "" for
	// none). RedirectSources lists the domains whose homepage redirects to target.
	SetRedirect(ctx context.Context, source, from, to string) error
	RedirectSources(ctx context.Context, target string) ([]string, error)
}

// KVStore is the Store on the kv.Store port, so it runs on bbolt and on DynamoDB.
//
// Layout: records live in 16 partitions "company#<shard>" (shard from a hash of the
// domain) with the domain as sort key, so a record is one GetItem and listing every
// company is 16 paged queries, while writes spread over partitions. Certificates and
// pages live in one partition per domain, "co#<domain>". Certificates are kept in
// chunks, one or more per year of issue, "cert#<year>#<part>", each a JSON array sorted
// by issue time and bounded in count and size (DynamoDB items hold 400 KB): loading a
// history is a few writes instead of one per certificate, and a reverse query reads it
// newest first. Pages live under "page#<sha1 of the URL>".
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

// GetMany implements Store.
func (s *KVStore) GetMany(ctx context.Context, domains []string) (map[string]Record, error) {
	keys := make([]kv.Key, len(domains))
	for i, d := range domains {
		keys[i] = recordKey(d)
	}
	items, err := s.kv.GetMany(ctx, keys)
	if err != nil {
		return nil, fmt.Errorf("%d companies: %w", len(domains), err)
	}
	out := make(map[string]Record, len(items))
	for i, d := range domains {
		it, ok := items[keys[i]]
		if !ok {
			continue
		}
		rec, err := decodeRecord(it)
		if err != nil {
			return nil, err
		}
		out[d] = rec
	}
	return out, nil
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

// Chunk bounds: a chunk holds at most chunkCerts certificates and chunkBytes of JSON.
const (
	chunkCerts = 400
	chunkBytes = 300 << 10
)

// MaxCertificateJSON bounds one certificate record (a certificate naming thousands of
// hosts would not fit a chunk).
const MaxCertificateJSON = 64 << 10

// CertKey identifies a certificate: its issue time and fingerprint.
func CertKey(c Certificate) string {
	return c.DateFrom.UTC().Format("20060102T150405Z") + "#" + strings.ToLower(c.SHA1Fingerprint)
}

func chunkPrefix(year int) string { return fmt.Sprintf("cert#%04d#", year) }

// storedChunk is a chunk as read: its key, version and certificates.
type storedChunk struct {
	key   kv.Key
	ver   int64
	certs []Certificate
}

// AddCertificates implements Store. Each year's chunks are read, merged with the new
// certificates and rewritten with optimistic conditions; a lost race re-reads and
// merges again, so concurrent writers lose nothing.
func (s *KVStore) AddCertificates(ctx context.Context, domain string, certs []Certificate) (map[string]bool, error) {
	byYear := map[int][]Certificate{}
	for _, c := range certs {
		y := c.DateFrom.UTC().Year()
		byYear[y] = append(byYear[y], c)
	}
	years := make([]int, 0, len(byYear))
	for y := range byYear {
		years = append(years, y)
	}
	sort.Ints(years)
	added := map[string]bool{}
	for _, y := range years {
		// tried holds what an earlier attempt found new: a write it made before losing a
		// race, or one the client retried after it had landed (DynamoDB answers the retry's
		// condition with a conflict), reads as present on the next attempt, and is this
		// call's addition all the same.
		tried := map[string]bool{}
		for attempt := 0; ; attempt++ {
			n, err := s.addYear(ctx, domain, y, byYear[y])
			if err == nil {
				for k := range n {
					added[k] = true
				}
				for k := range tried {
					added[k] = true
				}
				break
			}
			for k := range n {
				tried[k] = true
			}
			if !errors.Is(err, apperr.ErrConflict) || attempt >= 8 {
				return added, fmt.Errorf("add certificates of %d to %s: %w", y, domain, err)
			}
		}
	}
	return added, nil
}

// addYear merges certs into the year's chunks and returns the ones it found new, also
// with an error from a write (some chunks may be written).
func (s *KVStore) addYear(ctx context.Context, domain string, year int, certs []Certificate) (map[string]bool, error) {
	chunks, err := s.readChunks(ctx, domain, chunkPrefix(year), false)
	if err != nil {
		return nil, err
	}
	all := map[string]Certificate{}
	for _, ch := range chunks {
		for _, c := range ch.certs {
			all[CertKey(c)] = c
		}
	}
	added := map[string]bool{}
	for _, c := range certs {
		k := CertKey(c)
		if _, ok := all[k]; !ok {
			all[k] = c
			added[k] = true
		}
	}
	if len(added) == 0 {
		return added, nil
	}
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys) // issue time first, so the chunks are in time order
	parts, err := splitChunks(keys, all)
	if err != nil {
		return nil, err
	}
	for i, data := range parts {
		key := kv.Key{PK: dataPK(domain), SK: fmt.Sprintf("%s%04d", chunkPrefix(year), i)}
		cond := kv.Cond{IfAbsent: true}
		if i < len(chunks) {
			cond = kv.Cond{IfVersion: chunks[i].ver}
		}
		if _, err := s.kv.Put(ctx, key, data, cond); err != nil {
			return added, err // what this attempt meant to add: some of it may be written
		}
	}
	return added, nil
}

// splitChunks encodes certificates (in key order) into chunks within the bounds.
func splitChunks(keys []string, all map[string]Certificate) ([][]byte, error) {
	var parts [][]byte
	cur := []byte{'['}
	n := 0
	for _, k := range keys {
		b, err := json.Marshal(all[k])
		if err != nil {
			return nil, err
		}
		if len(b) > MaxCertificateJSON {
			return nil, apperr.Invalid("alternative_fqdn", "the certificate %s is too large to store (%d KB of names)", all[k].SHA1Fingerprint, len(b)>>10)
		}
		if n > 0 && (n == chunkCerts || len(cur)+len(b)+2 > chunkBytes) {
			parts = append(parts, append(cur, ']'))
			cur, n = []byte{'['}, 0
		}
		if n > 0 {
			cur = append(cur, ',')
		}
		cur = append(cur, b...)
		n++
	}
	return append(parts, append(cur, ']')), nil
}

// readChunks reads the chunks under a sort-key prefix, in key order or reversed.
func (s *KVStore) readChunks(ctx context.Context, domain, prefix string, reverse bool) ([]storedChunk, error) {
	var out []storedChunk
	err := s.eachChunk(ctx, domain, prefix, reverse, func(ch storedChunk) bool {
		out = append(out, ch)
		return true
	})
	return out, err
}

func (s *KVStore) eachChunk(ctx context.Context, domain, prefix string, reverse bool, fn func(storedChunk) bool) error {
	cursor := ""
	for {
		page, err := s.kv.Query(ctx, dataPK(domain), kv.QueryOptions{Prefix: prefix, Limit: 25, Cursor: cursor, Reverse: reverse})
		if err != nil {
			return fmt.Errorf("certificates of %s: %w", domain, err)
		}
		for _, it := range page.Items {
			var certs []Certificate
			if err := json.Unmarshal(it.Data, &certs); err != nil {
				return fmt.Errorf("decode certificates %s: %w", it.Key, err)
			}
			if !fn(storedChunk{key: it.Key, ver: it.Version, certs: certs}) {
				return nil
			}
		}
		if page.Next == "" {
			return nil
		}
		cursor = page.Next
	}
}

// Certificates implements Store.
func (s *KVStore) Certificates(ctx context.Context, domain string, limit int) ([]Certificate, error) {
	out := []Certificate{}
	seen := map[string]bool{} // a chunk boundary moved by a concurrent writer may repeat one
	err := s.eachChunk(ctx, domain, "cert#", true, func(ch storedChunk) bool {
		for i := len(ch.certs) - 1; i >= 0; i-- {
			k := CertKey(ch.certs[i])
			if seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, ch.certs[i])
			if limit > 0 && len(out) >= limit {
				return false
			}
		}
		return true
	})
	return out, err
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

// gzipWriters reuses compressors: each holds about a megabyte of tables, which bulk
// loads would otherwise allocate per page. Fastest level: pages are written often
// (every crawl, every seed) and read rarely.
var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return zw
}}

func encodePage(p Page) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(&buf)
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
