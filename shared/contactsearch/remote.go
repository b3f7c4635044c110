package contactsearch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/firmoapi/firmo/shared/vector"
)

// RemoteIndex is a contact vector index kept outside the process, OpenSearch k-NN
// (shared/contactsearch/osindex), in place of the in-memory HNSW graph, while the filters
// still run on the snapshot. No composition uses it any more: with OpenSearch the whole
// search runs there (Engine, shared/contactsearch/ossearch). It holds one document
// per contact: the filter fields, the vector and a fingerprint of both.
//
// With a remote index:
//   - a refresh writes only the documents of new and changed contacts (Put, in batches of
//     remoteBatch) and removes the documents of contacts that are gone; the first build
//     of a process (a Lambda's cold start) reads what the index holds (Stored) and reuses
//     the stored vectors of unchanged contacts instead of embedding them again;
//   - filters are still evaluated on the in-memory snapshot; a similarity search over the
//     filtered candidates runs in the index as k-NN with the candidates as its filter,
//     except when the candidates are few (vector.UseExact: candidates x dims <= 2M) or
//     more than MaxCandidates: those are scanned exactly in memory over the snapshot's
//     vectors. A search over every contact is plain k-NN.
type RemoteIndex interface {
	Dims() int
	// MaxCandidates is the most ids a Search's Filter.IDs may carry (OpenSearch: the
	// terms filter's index.max_terms_count).
	MaxCandidates() int
	EnsureIndex(ctx context.Context) error
	Stored(ctx context.Context, fn func(id int64, fp string, vec []float32) error) error
	Put(ctx context.Context, docs []Document) error
	Remove(ctx context.Context, ids []int64) error
	Search(ctx context.Context, query []float32, k int, f vector.Filter) ([]vector.Hit, error)
}

// Document is one contact as a RemoteIndex holds it: the fields contact search filters
// on, the vector and the fingerprint. The index stores every field; how it names them is
// the adapter's business.
//
// The JSON form (Vector and FP left out) is what fingerprint hashes, so renaming a JSON
// name changes every fingerprint and makes the next refresh embed and rewrite every
// contact.
type Document struct {
	PersonaID      int64     `json:"persona_id"`
	Domain         string    `json:"domain,omitempty"`
	Name           string    `json:"name,omitempty"`
	Title          string    `json:"title,omitempty"`
	Department     string    `json:"department,omitempty"`
	Seniority      string    `json:"seniority,omitempty"`
	Country        string    `json:"country,omitempty"`
	State          string    `json:"state,omitempty"`
	Skills         []string  `json:"skills,omitempty"`
	Summary        string    `json:"summary,omitempty"`
	HasEmail       bool      `json:"has_email"`
	EmailValidated bool      `json:"email_validated"`
	HasPhone       bool      `json:"has_phone"`
	HasMobile      bool      `json:"has_mobile"`
	HasLinkedIn    bool      `json:"has_linkedin"`
	Connections    int       `json:"connections"`
	JobStartDate   string    `json:"jobstart_date,omitempty"` // YYYY-MM-DD or empty
	Industry       []string  `json:"industry,omitempty"`
	Employees      string    `json:"employees,omitempty"`
	CompanyCountry string    `json:"company_country,omitempty"`
	CompanyState   string    `json:"company_state,omitempty"`
	Vector         []float32 `json:"-"` // the contact's embedding
	// FP is the writer's fingerprint of the document (stored, not searched): contact
	// search compares it to decide which documents a refresh rewrites.
	FP string `json:"-"`
}

// remoteBatch bounds one bulk write (about 2 MB of JSON with 384-dim vectors).
const remoteBatch = 500

// remoteState is what the service knows of the remote index.
type remoteState struct {
	index RemoteIndex
	mu    sync.Mutex
	// ready: the index exists (created at first use, not at start-up).
	ready bool
	// held is the fingerprint of every document the index holds, by persona id, as of the
	// last successful sync; nil when unknown (before the first sync, after a failed one),
	// and the next sync then reads the index itself.
	held map[int64]string
}

// remoteDoc is the index document of a snapshot entry (its vector set by the caller).
func remoteDoc(e entry) Document {
	c := e.C
	d := Document{
		PersonaID: c.PersonaID, Domain: c.Domain, Name: c.Name, Title: c.Title, Department: c.Department,
		Seniority: c.Seniority, Country: c.Country, State: e.PersonState, Skills: c.Skills,
		HasEmail: c.Email != nil, EmailValidated: c.EmailValidated, HasPhone: len(c.Phone) > 0,
		HasLinkedIn: e.hasLinkedin, Connections: c.Connections, Industry: c.Industry, Employees: c.Employees,
	}
	if c.Summary != nil {
		d.Summary = *c.Summary
	}
	for _, p := range c.Phone {
		d.HasMobile = d.HasMobile || p.Type == "mobile"
	}
	// The mapping's date format is yyyy-MM-dd; another shape would fail the whole batch.
	if c.JobstartDate != nil {
		if _, err := time.Parse(time.DateOnly, *c.JobstartDate); err == nil {
			d.JobStartDate = *c.JobstartDate
		}
	}
	if e.Co != nil {
		d.CompanyCountry, d.CompanyState = e.Co.Country, e.Co.StateCode
	}
	return d
}

// fingerprint identifies a document's content and the embedded text, so a change of
// either rewrites it (and a changed text is embedded again).
func fingerprint(d Document, text string, dims int) string {
	raw, _ := json.Marshal(d) // a struct of plain fields: cannot fail
	h := sha256.New()
	fmt.Fprintf(h, "%d\n%s\n", dims, text)
	h.Write(raw)
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// syncRemote gives every entry its vector and brings the remote index up to date:
// unchanged contacts keep the vector the index (or prev) holds, the others are embedded
// and written, and documents of contacts that are gone are removed.
func (s *Service) syncRemote(ctx context.Context, sn *snapshot, prev *snapshot) error {
	r := s.remote
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.ready {
		if err := r.index.EnsureIndex(ctx); err != nil {
			return fmt.Errorf("contact index: %w", err)
		}
		r.ready = true
	}
	dims := s.embedder.Dims()
	docs := make([]Document, len(sn.entries))
	fps := make(map[int64]string, len(sn.entries))
	for i, e := range sn.entries {
		docs[i] = remoteDoc(e)
		docs[i].FP = fingerprint(docs[i], e.text, dims)
		fps[e.C.PersonaID] = docs[i].FP
	}
	held, stored, err := s.remoteHeld(ctx, r, prev, fps)
	if err != nil {
		return err
	}
	_, err = s.embedMissing(ctx, sn, func(i int) []float32 {
		id := sn.entries[i].C.PersonaID
		if v := stored[id]; v != nil && held[id] == fps[id] {
			return v
		}
		return prevVector(prev, sn.entries[i])
	})
	if err != nil {
		return err
	}
	r.held = nil // unknown until every write below succeeded
	var batch []Document
	for i := range docs {
		if held[docs[i].PersonaID] == docs[i].FP {
			continue
		}
		docs[i].Vector = sn.vecs[i]
		batch = append(batch, docs[i])
		if len(batch) == remoteBatch {
			if err := r.index.Put(ctx, batch); err != nil {
				return fmt.Errorf("write contact documents: %w", err)
			}
			batch = batch[:0]
		}
	}
	if err := r.index.Put(ctx, batch); err != nil {
		return fmt.Errorf("write contact documents: %w", err)
	}
	var gone []int64
	for id := range held {
		if _, ok := fps[id]; !ok {
			gone = append(gone, id)
		}
	}
	for start := 0; start < len(gone); start += remoteBatch {
		if err := r.index.Remove(ctx, gone[start:min(start+remoteBatch, len(gone))]); err != nil {
			return fmt.Errorf("remove contact documents: %w", err)
		}
	}
	r.held = fps
	return nil
}

// remoteHeld is what the index holds: from the last successful sync when prev is its
// snapshot, else read from the index (fingerprints, and the vectors of the documents
// whose fingerprint still matches, which are reused rather than embedded again).
func (s *Service) remoteHeld(ctx context.Context, r *remoteState, prev *snapshot, want map[int64]string) (map[int64]string, map[int64][]float32, error) {
	if r.held != nil && prev != nil {
		return r.held, nil, nil
	}
	held := map[int64]string{}
	stored := map[int64][]float32{}
	dims := s.embedder.Dims()
	err := r.index.Stored(ctx, func(id int64, fp string, vec []float32) error {
		held[id] = fp
		if fp != "" && want[id] == fp && len(vec) == dims {
			stored[id] = vec
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("read the contact index: %w", err)
	}
	return held, stored, nil
}

// nearest is a similarity search over the snapshot: the local graph, or the remote
// index by the rule on RemoteIndex. Remote hits of contacts the snapshot does not hold
// (written by a newer snapshot elsewhere) are dropped.
func (s *Service) nearest(ctx context.Context, sn *snapshot, q []float32, k int, f vector.Filter) ([]vector.Hit, error) {
	if s.remote == nil {
		g := sn.graph()
		if g == nil {
			return sn.scan(ctx, q, k, f)
		}
		hits, err := g.Search(ctx, q, k, f)
		if err != nil {
			return nil, err
		}
		sn.rescore(q, hits)
		return hits, nil
	}
	if f.Allow != nil {
		// The index cannot run a Go predicate: it becomes the candidate list.
		from := f.IDs
		if from == nil {
			from = sn.ids()
		}
		ids := []int64{}
		for _, id := range from {
			if f.Allow(id) {
				ids = append(ids, id)
			}
		}
		f = vector.Filter{IDs: ids}
	}
	switch remoteWay(f.IDs, len(sn.entries), len(q), s.remote.index.MaxCandidates()) {
	case wayExact:
		return sn.exact(ctx, q, k, f.IDs)
	case wayKNN:
		f.IDs = nil
	}
	hits, err := s.remote.index.Search(ctx, q, k, f)
	if err != nil {
		return nil, err
	}
	out := hits[:0]
	for _, h := range hits {
		if _, ok := sn.byID[h.ID]; ok {
			out = append(out, h)
		}
	}
	return out, nil
}

// searchWay is how a similarity search runs with a remote index.
type searchWay int

const (
	wayKNN         searchWay = iota // k-NN over the whole index
	wayKNNFiltered                  // k-NN with the candidates as a terms filter
	wayExact                        // exact scan of the candidates' vectors in memory
)

// remoteWay picks the way for candidates ids (nil: every contact) out of total, with an
// index that filters by at most maxIDs ids: see RemoteIndex.
func remoteWay(ids []int64, total, dims, maxIDs int) searchWay {
	switch {
	case ids == nil || len(ids) == total:
		return wayKNN
	case len(ids) > maxIDs || vector.UseExact(len(ids), dims):
		return wayExact
	}
	return wayKNNFiltered
}

// ids lists the snapshot's persona ids.
func (sn *snapshot) ids() []int64 {
	out := make([]int64, len(sn.entries))
	for i, e := range sn.entries {
		out[i] = e.C.PersonaID
	}
	return out
}

// exact scans the snapshot's vectors of ids.
func (sn *snapshot) exact(ctx context.Context, q []float32, k int, ids []int64) ([]vector.Hit, error) {
	top := vector.NewTopK(k)
	for n, id := range ids {
		if n%4096 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if i, ok := sn.byID[id]; ok {
			top.Push(vector.Hit{ID: id, Score: vector.Dot(q, sn.vecs[i])})
		}
	}
	return top.Sorted(), nil
}

// rescore replaces the graph's scores, computed on its half-precision copies of the
// vectors, by the cosine with the snapshot's float32 vectors, and re-sorts. Near-ties among
// the returned candidates then fall the way an exact search orders them (it decides which
// c-1 contacts a consensus search adds, and which ten come first), and the similarity a
// result shows is exact. It costs one dot product per hit.
func (sn *snapshot) rescore(q []float32, hits []vector.Hit) {
	for i, h := range hits {
		if j, ok := sn.byID[h.ID]; ok && len(sn.vecs[j]) == len(q) {
			hits[i].Score = vector.Dot(q, sn.vecs[j])
		}
	}
	vector.SortHits(hits)
}
