package namematch

import (
	"context"
	"fmt"
	"sync"

	"github.com/firmoapi/firmo/shared/company"
)

// Source lists every company record; company.Store implements it.
type Source interface {
	List(ctx context.Context, cursor string, limit int) (recs []company.Record, next string, err error)
}

// Syncer keeps the candidate index equal to the company store: it writes the entries
// whose fingerprint changed and deletes the entries of companies that are gone (or
// have no name to match). A fresh or lost index is rebuilt by the same pass, and
// running it twice in a row writes nothing the second time.
type Syncer struct {
	src   Source
	index Index
	mu    sync.Mutex // one pass at a time
}

// NewSyncer makes a Syncer.
func NewSyncer(src Source, index Index) *Syncer { return &Syncer{src: src, index: index} }

// SyncReport says what a pass did.
type SyncReport struct {
	Companies int `json:"companies"` // records read
	Indexed   int `json:"indexed"`   // entries written (new or changed)
	Deleted   int `json:"deleted"`   // entries removed
}

// syncBatch is how many entries one index write carries.
const syncBatch = 1000

// Sync runs one pass.
func (s *Syncer) Sync(ctx context.Context) (SyncReport, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var rep SyncReport
	have, err := s.index.Fingerprints(ctx)
	if err != nil {
		return rep, fmt.Errorf("sync name index: %w", err)
	}
	var batch []Entry
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := s.index.Put(ctx, batch); err != nil {
			return fmt.Errorf("sync name index: %w", err)
		}
		rep.Indexed += len(batch)
		batch = batch[:0]
		return nil
	}
	seen := make(map[string]bool, len(have))
	cursor := ""
	for {
		recs, next, err := s.src.List(ctx, cursor, syncBatch)
		if err != nil {
			return rep, fmt.Errorf("sync name index: list companies: %w", err)
		}
		for _, rec := range recs {
			rep.Companies++
			e := EntryOf(rec)
			if len(e.Text) == 0 {
				continue // nothing to match on: deleted below if indexed
			}
			seen[e.Domain] = true
			if have[e.Domain] == e.Fingerprint {
				continue
			}
			batch = append(batch, e)
			if len(batch) >= syncBatch {
				if err := flush(); err != nil {
					return rep, err
				}
			}
		}
		if next == "" {
			break
		}
		cursor = next
	}
	if err := flush(); err != nil {
		return rep, err
	}
	var gone []string
	for d := range have {
		if !seen[d] {
			gone = append(gone, d)
		}
	}
	for len(gone) > 0 {
		n := min(len(gone), syncBatch)
		if err := s.index.Delete(ctx, gone[:n]); err != nil {
			return rep, fmt.Errorf("sync name index: %w", err)
		}
		rep.Deleted += n
		gone = gone[n:]
	}
	return rep, nil
}
