package company

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
)

// JobOptions tune a reprocessing run.
type JobOptions struct {
	PageSize   int           // records read per page; default 100
	StaleAfter time.Duration // a profile older than this is derived again; default 30 days
	// Force starts a new pass even when today's pass is complete.
	Force bool
	// OnRecord, when set, is told about every record visited (for progress bars).
	OnRecord func()
}

// JobReport says what a run did.
type JobReport struct {
	Visited   int  `json:"visited"`
	Rescored  int  `json:"rescored"`
	Refreshed int  `json:"refreshed"`
	Failed    int  `json:"failed"`
	Complete  bool `json:"complete"` // the pass reached the last record
	Idle      bool `json:"idle"`     // today's pass was already complete: nothing done
}

// jobState is the job's persisted progress, so a run stopped by its deadline (a Lambda
// timeout) or a restart resumes where it left off.
type jobState struct {
	Cursor      string    `json:"cursor"`       // next page of the current pass; "" = start
	PassStarted time.Time `json:"pass_started"` // when the current pass began
	PassDone    string    `json:"pass_done"`    // date (YYYY-MM-DD) of the last completed pass
}

const jobStateName = "reprocess"

// Reprocess runs the scheduled reprocessing job: one pass a day over every company, in
// pages, that re-derives stale profiles (flagged dirty by an interrupted ingest, made by
// an older pipeline version, or older than StaleAfter) and rescores all others (a score
// depends on the date). Progress is saved after every page, so a run cut short by ctx
// resumes on the next call. Once the day's pass is complete, calls return Idle until
// the date changes. A record that fails is counted and skipped, so one bad record
// cannot stall the pass.
func (s *Service) Reprocess(ctx context.Context, opts JobOptions) (JobReport, error) {
	if opts.PageSize <= 0 {
		opts.PageSize = 100
	}
	if opts.StaleAfter <= 0 {
		opts.StaleAfter = 30 * 24 * time.Hour
	}
	var rep JobReport
	st, err := s.loadJob(ctx)
	if err != nil {
		return rep, err
	}
	today := Date(s.derive.Now())
	if st.Cursor == "" {
		if st.PassDone == today && !opts.Force {
			rep.Idle = true
			return rep, nil
		}
		st.PassStarted = s.derive.Now()
	}
	for {
		if err := ctx.Err(); err != nil {
			return rep, nil // out of time: the cursor is saved, the next run resumes
		}
		recs, next, err := s.store.List(ctx, st.Cursor, opts.PageSize)
		if err != nil {
			return rep, err
		}
		for _, rec := range recs {
			s.reprocessOne(ctx, rec, opts, &rep)
			if opts.OnRecord != nil {
				opts.OnRecord()
			}
		}
		st.Cursor = next
		if next == "" {
			st.PassDone = today
			rep.Complete = true
		}
		if err := s.saveJob(ctx, st); err != nil {
			return rep, err
		}
		if next == "" {
			return rep, nil
		}
	}
}

func (s *Service) reprocessOne(ctx context.Context, rec Record, opts JobOptions, rep *JobReport) {
	rep.Visited++
	now := s.derive.Now()
	stale := rec.Derived.Dirty || rec.Derived.PipelineVersion < PipelineVersion || now.Sub(rec.Derived.At) > opts.StaleAfter
	var err error
	switch {
	case stale:
		err = s.Refresh(ctx, rec.Domain)
		rep.Refreshed++
	case rec.Score.On != Date(now):
		var full bool
		full, err = s.rescoreOrRefresh(ctx, rec)
		if full {
			rep.Refreshed++
		} else {
			rep.Rescored++
		}
	}
	if err != nil && ctx.Err() == nil {
		rep.Failed++
	}
}

// rescoreOrRefresh rescores a record, or derives it fully when its certificates changed
// since the last derivation (an ingest that stopped before deriving).
func (s *Service) rescoreOrRefresh(ctx context.Context, rec Record) (bool, error) {
	certs, err := s.store.Certificates(ctx, rec.Domain, 0)
	if err != nil {
		return false, err
	}
	if len(certs) != rec.Derived.Certificates {
		return true, s.Refresh(ctx, rec.Domain)
	}
	return false, s.update(ctx, rec.Domain, func(r *Record) (bool, error) {
		if r.Version == 0 {
			return false, nil
		}
		s.derive.Rescore(r, certs)
		return true, nil
	})
}

func (s *Service) loadJob(ctx context.Context) (jobState, error) {
	var st jobState
	data, err := s.store.GetState(ctx, jobStateName)
	if errors.Is(err, apperr.ErrNotFound) {
		return st, nil
	}
	if err != nil {
		return st, err
	}
	if err := json.Unmarshal(data, &st); err != nil {
		return jobState{}, fmt.Errorf("decode reprocessing state: %w", err)
	}
	return st, nil
}

func (s *Service) saveJob(ctx context.Context, st jobState) error {
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return s.store.PutState(ctx, jobStateName, data)
}
