// Package dataset computes the append datasets of POST /v1/append for a list of
// domains: bizdata (the company profile), domain_status (the latest homepage fetch),
// redirects (the domains whose final redirect lands on a domain), growth (the score and
// the live subdomains at the end of each of the last eight completed quarters),
// vendors (third-party domains from the homepage and DNS) and subdomains (from
// certificate names). Everything is read from what the company pipeline stores (see
// shared/company); nothing is fetched.
//
// It also lays the answer out: one row per input domain in input order, the columns
// named by the rule of the API reference (see Columns), written as JSON or CSV with the
// same cells.
package dataset

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/domain"
)

// Name is a dataset's name as the dataset parameter gives it.
type Name string

// The datasets, in the order their columns appear (All).
const (
	Bizdata      Name = "bizdata"
	DomainStatus Name = "domain_status"
	Redirects    Name = "redirects"
	Growth       Name = "growth"
	Vendors      Name = "vendors"
	Subdomains   Name = "subdomains"
)

// All lists every dataset in column order.
var All = []Name{Bizdata, DomainStatus, Redirects, Growth, Vendors, Subdomains}

// Caps of the API reference's limits table.
const (
	MaxRedirectSources = 1000
	MaxVendors         = company.MaxVendors
	MaxSubdomains      = 300
	// Quarters is the number of completed quarters growth reports.
	Quarters = 8
	// MaxDomains bounds one request's domains (file rows and saved-query domains).
	MaxDomains = 10_000
)

// maxRedirectWalk bounds the walk over the redirect graph behind one domain, so a
// pathological graph cannot stall a request; redirect_count is exact below it.
const maxRedirectWalk = 100_000

// ParseNames validates the dataset parameter's values: at least one, each one of All.
// Repeats are dropped; the result is in All's order. Errors name the parameter.
func ParseNames(values []string) ([]Name, error) {
	want := map[Name]bool{}
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			n := Name(strings.ToLower(strings.TrimSpace(part)))
			if n == "" {
				continue
			}
			if !known(n) {
				return nil, apperr.Invalid("dataset", "unknown dataset %q: use one or more of %s", part, joinNames(All))
			}
			want[n] = true
		}
	}
	if len(want) == 0 {
		return nil, apperr.Invalid("dataset", "dataset is required: give one or more of %s", joinNames(All))
	}
	var out []Name
	for _, n := range All {
		if want[n] {
			out = append(out, n)
		}
	}
	return out, nil
}

func known(n Name) bool {
	for _, a := range All {
		if a == n {
			return true
		}
	}
	return false
}

func joinNames(ns []Name) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = string(n)
	}
	return strings.Join(s, ", ")
}

// Store is what the datasets read of the company store; company.Store satisfies it.
// Append reads records and site material in batches (GetMany, Sites) and queries
// certificates and redirect sources per domain.
type Store interface {
	GetMany(ctx context.Context, domains []string) (map[string]company.Record, error)
	Sites(ctx context.Context, domains []string) (map[string]company.Site, error)
	Certificates(ctx context.Context, domain string, limit int) ([]company.Certificate, error)
	RedirectSources(ctx context.Context, target string) ([]string, error)
}

// Scorer scores certificates on a date; *company.Deriver satisfies it, so growth uses
// the same formula and constants as GET /v1/score.
type Scorer interface {
	Score(certs []company.Certificate, now time.Time) company.Scored
}

// Deps are what a Service needs.
type Deps struct {
	Store  Store
	Scorer Scorer
	// Now is the clock that decides the last completed quarter; nil: time.Now.
	Now func() time.Time
	// Workers bounds the batches and domains read at once; 0: DefaultWorkers. The reads
	// wait on the store (DynamoDB round trips), not on the CPU, so they overlap beyond
	// the core count.
	Workers int
}

// Service computes datasets.
type Service struct {
	store   Store
	scorer  Scorer
	now     func() time.Time
	workers int
}

// New makes a Service.
func New(d Deps) *Service {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Workers <= 0 {
		d.Workers = max(DefaultWorkers, 4*runtime.GOMAXPROCS(0))
	}
	return &Service{store: d.Store, scorer: d.Scorer, now: d.Now, workers: d.Workers}
}

// DefaultWorkers is the default of Deps.Workers.
const DefaultWorkers = 32

// batchDomains is how many domains' records (and sites) one GetMany asks for: the
// kv store's batch (DynamoDB's BatchGetItem takes 100 keys).
const batchDomains = 100

// Input is one row of the request: the domain as given and the row's input columns
// (nil for a domain from a saved query, which has none).
type Input struct {
	Domain  string
	Columns []string
}

// Request is what to append to which rows.
type Request struct {
	Sets []Name // from ParseNames
	// InputHeader names the input columns (the uploaded file's header).
	InputHeader []string
	Rows        []Input
}

// Result is the appended table: Columns names every cell of every row, Rows[i][j] is
// the JSON value of column j in row i (null when there is nothing). Billing says what
// the rows delivered.
type Result struct {
	Columns []string
	Rows    [][]json.RawMessage
	Billing Billing
}

// Billing is what a result delivers, for the charge: the domains of rows whose bizdata
// was found, and per other dataset the domains of rows that returned data (one entry
// per row: a domain listed twice in the file is two rows).
type Billing struct {
	Bizdata []string
	Rows    map[Name][]string
}

// data is one domain's computed datasets: each dataset's field values in its field
// order (nil: every field null), and whether it returned data (what is billed).
type data struct {
	sets    map[Name][]json.RawMessage
	hasData map[Name]bool
}

var null = json.RawMessage("null")

// Append computes the request's datasets for every row.
func (s *Service) Append(ctx context.Context, req Request) (Result, error) {
	if len(req.Rows) > MaxDomains {
		return Result{}, apperr.Invalid("file", "%d domains in one request; at most %d (file rows and saved-query domains together)", len(req.Rows), MaxDomains)
	}
	qs := LastQuarters(s.now(), Quarters)
	fields := map[Name][]string{}
	for _, n := range req.Sets {
		fields[n] = FieldNames(n, qs)
	}
	// Each distinct domain is computed once.
	norm := make([]string, len(req.Rows))
	var distinct []string
	seen := map[string]bool{}
	for i, in := range req.Rows {
		d, err := domain.Normalize(in.Domain)
		if err != nil {
			continue
		}
		norm[i] = d
		if !seen[d] {
			seen[d] = true
			distinct = append(distinct, d)
		}
	}
	computed, err := s.computeAll(ctx, distinct, req.Sets, qs)
	if err != nil {
		return Result{}, err
	}
	res := Result{Columns: Columns(req.Sets, req.InputHeader, qs), Billing: Billing{Rows: map[Name][]string{}}}
	res.Rows = make([][]json.RawMessage, len(req.Rows))
	for i, in := range req.Rows {
		row := make([]json.RawMessage, 0, len(res.Columns))
		shown := norm[i]
		if shown == "" {
			shown = strings.TrimSpace(in.Domain)
		}
		row = append(row, jsonString(shown))
		for k := range req.InputHeader {
			if in.Columns == nil || k >= len(in.Columns) {
				row = append(row, null)
			} else {
				row = append(row, jsonString(in.Columns[k]))
			}
		}
		d := computed[norm[i]]
		for _, n := range req.Sets {
			vals := d.sets[n]
			if vals == nil {
				for range fields[n] {
					row = append(row, null)
				}
				continue
			}
			row = append(row, vals...)
			if !d.hasData[n] {
				continue
			}
			if n == Bizdata {
				res.Billing.Bizdata = append(res.Billing.Bizdata, norm[i])
			} else {
				res.Billing.Rows[n] = append(res.Billing.Rows[n], norm[i])
			}
		}
		res.Rows[i] = row
	}
	return res, nil
}

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// computeAll computes the datasets of every domain: the records (and, for vendors, the
// site material) in batches of batchDomains, then the per-domain queries (certificates,
// redirect sources), all on s.workers goroutines.
func (s *Service) computeAll(ctx context.Context, domains []string, sets []Name, qs []Quarter) (map[string]data, error) {
	needSites := slices.Contains(sets, Vendors)
	var batches [][]string
	for start := 0; start < len(domains); start += batchDomains {
		batches = append(batches, domains[start:min(start+batchDomains, len(domains))])
	}
	recs := make(map[string]company.Record, len(domains))
	sites := map[string]company.Site{}
	var mu sync.Mutex
	err := s.each(ctx, len(batches), func(ctx context.Context, i int) error {
		got, err := s.store.GetMany(ctx, batches[i])
		if err != nil {
			return fmt.Errorf("append: %w", err)
		}
		var st map[string]company.Site
		if needSites && len(got) > 0 {
			found := make([]string, 0, len(got))
			for _, d := range batches[i] {
				if _, ok := got[d]; ok {
					found = append(found, d)
				}
			}
			if st, err = s.store.Sites(ctx, found); err != nil {
				return fmt.Errorf("append: %w", err)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		maps.Copy(recs, got)
		maps.Copy(sites, st)
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make(map[string]data, len(domains))
	err = s.each(ctx, len(domains), func(ctx context.Context, i int) error {
		d := domains[i]
		rec, found := recs[d]
		v, err := s.compute(ctx, d, rec, found, sites[d], sets, qs)
		if err != nil {
			return err
		}
		mu.Lock()
		out[d] = v
		mu.Unlock()
		return nil
	})
	return out, err
}

// each runs fn for 0..n-1 on at most s.workers goroutines, stopping at the first error.
func (s *Service) each(ctx context.Context, n int, fn func(context.Context, int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var firstErr error
	var once sync.Once
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(s.workers, max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := fn(ctx, i); err != nil {
					once.Do(func() { firstErr = err; cancel() })
				}
			}
		}()
	}
feed:
	for i := range n {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return firstErr
}

// compute computes the requested datasets of one domain from its record (found: it
// has one) and site material, querying its certificates and redirect sources.
func (s *Service) compute(ctx context.Context, dom string, rec company.Record, found bool, site company.Site, sets []Name, qs []Quarter) (data, error) {
	d := data{sets: map[Name][]json.RawMessage{}, hasData: map[Name]bool{}}
	for _, n := range sets {
		if !found {
			continue // an unknown domain's row keeps empty fields
		}
		var vals []json.RawMessage
		var has bool
		var err error
		switch n {
		case Bizdata:
			vals, err = profileValues(rec.Profile)
			has = err == nil
		case DomainStatus:
			vals, has = statusValues(rec.Derived.Fetch)
		case Redirects:
			vals, has, err = s.redirectValues(ctx, rec)
		case Growth:
			vals, has, err = s.growthValues(ctx, dom, qs)
		case Vendors:
			vals, has = vendorValues(rec, site)
		case Subdomains:
			subs := rec.Derived.Subdomains
			if len(subs) > MaxSubdomains {
				subs = subs[:MaxSubdomains]
			}
			vals, has = []json.RawMessage{marshal(nonNil(subs))}, len(subs) > 0
		}
		if err != nil {
			return d, fmt.Errorf("append %s %s: %w", n, dom, err)
		}
		d.sets[n], d.hasData[n] = vals, has
	}
	return d, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func marshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return null
	}
	return b
}

// profileFields are the bizdata columns: the profile's JSON fields but domain, which
// every row has already.
var profileFields = sync.OnceValue(func() []string {
	b, _ := json.Marshal(company.Profile{})
	keys, _ := orderedKeys(b)
	out := keys[:0:0]
	for _, k := range keys {
		if k != "domain" {
			out = append(out, k)
		}
	}
	return out
})

// orderedKeys lists a JSON object's keys in document order.
func orderedKeys(b []byte) ([]string, error) {
	dec := json.NewDecoder(strings.NewReader(string(b)))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	var keys []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, t.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

func profileValues(p company.Profile) ([]json.RawMessage, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	keys := profileFields()
	out := make([]json.RawMessage, len(keys))
	for i, k := range keys {
		if v, ok := m[k]; ok {
			out[i] = v
		} else {
			out[i] = null
		}
	}
	return out, nil
}

func statusValues(f *company.FetchStatus) ([]json.RawMessage, bool) {
	if f == nil {
		return nil, false
	}
	return []json.RawMessage{marshal(f.StatusCode), marshal(company.StatusReason(f.StatusCode)), marshal(f.FetchedAt)}, true
}

// RedirectSources returns the domains whose final redirect lands on target: those
// redirecting to it and, through chains, those redirecting to them, nearest first
// (alphabetically within a hop), at most limit of them, and their true number.
func RedirectSources(ctx context.Context, store Store, target string, limit int) ([]string, int, error) {
	visited := map[string]bool{target: true}
	frontier := []string{target}
	var out []string
	total := 0
	for len(frontier) > 0 && total < maxRedirectWalk {
		var next []string
		for _, t := range frontier {
			srcs, err := store.RedirectSources(ctx, t)
			if err != nil {
				return nil, 0, err
			}
			for _, src := range srcs {
				if !visited[src] {
					visited[src] = true
					next = append(next, src)
				}
			}
		}
		sort.Strings(next)
		for _, src := range next {
			total++
			if len(out) < limit {
				out = append(out, src)
			}
		}
		frontier = next
	}
	return out, total, nil
}

// redirectValues are a domain's redirect sources. A domain that itself redirects
// elsewhere is nobody's final destination: it has none.
func (s *Service) redirectValues(ctx context.Context, rec company.Record) ([]json.RawMessage, bool, error) {
	var srcs []string
	total := 0
	if rec.Profile.RedirectDomain == nil {
		var err error
		if srcs, total, err = RedirectSources(ctx, s.store, rec.Domain, MaxRedirectSources); err != nil {
			return nil, false, err
		}
	}
	return []json.RawMessage{marshal(nonNil(srcs)), marshal(total)}, total > 0, nil
}

// vendorValues are a domain's vendors from its record and site material (the zero Site
// when it has none).
func vendorValues(rec company.Record, site company.Site) ([]json.RawMessage, bool) {
	vs, _ := company.Vendors(rec.Domain, rec.Derived.Vendors, site, rec.Profile.MXProvider)
	return []json.RawMessage{marshal(nonNil(vs))}, len(vs) > 0
}
