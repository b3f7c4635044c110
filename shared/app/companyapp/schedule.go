package companyapp

import (
	"context"
	"errors"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/namematch"
)

// ScheduleReport is what one scheduler invocation did: the reprocessing pass, the email
// patterns published (contact search on OpenSearch) and, when a name index is
// configured, the company-name index sync that follows them.
type ScheduleReport struct {
	Reprocess company.JobReport     `json:"reprocess"`
	Patterns  int                   `json:"patterns_published"`
	Names     *namematch.SyncReport `json:"names,omitempty"`
}

// nameSyncShare is the part of an invocation's remaining time kept for the name-index
// sync (at most nameSyncMax), so reprocessing cannot starve it.
const (
	nameSyncShare = 3
	nameSyncMax   = 5 * time.Minute
)

// HandleSchedule is functions/scheduler's handler: it continues the reprocessing pass
// (ReprocessOnce), publishes the email patterns of the domains marked since
// (PublishPatterns, within the reprocessing's time), then syncs the company-name index with the company table so
// matching follows what reprocessing and ingests changed. Both stop well before the
// Lambda's deadline: reprocessing leaves a third of the remaining time (at most 5
// minutes) to the sync, and the sync keeps reprocessMargin; a sync cut short has written
// whole batches, and the next tick compares fingerprints again and finishes the work.
// Without a name index (AWS without FIRMO_OPENSEARCH_URL) only reprocessing runs.
func (f *Composer) HandleSchedule(ctx context.Context) (ScheduleReport, error) {
	reprocessCtx := ctx
	if dl, ok := ctx.Deadline(); ok && f.names.wired {
		keep := min(time.Until(dl)/nameSyncShare, nameSyncMax)
		var cancel context.CancelFunc
		reprocessCtx, cancel = context.WithDeadline(ctx, dl.Add(-keep))
		defer cancel()
	}
	var out ScheduleReport
	rep, err := f.ReprocessOnce(reprocessCtx)
	out.Reprocess = rep
	if err != nil && ctx.Err() != nil {
		return out, err
	}
	patternCtx := reprocessCtx
	if dl, ok := reprocessCtx.Deadline(); ok {
		var cancel context.CancelFunc
		patternCtx, cancel = context.WithDeadline(reprocessCtx, dl.Add(-reprocessMargin))
		defer cancel()
	}
	n, perr := f.PublishPatterns(patternCtx)
	out.Patterns = n
	if perr != nil && patternCtx.Err() == nil {
		f.core.Log.Error("email pattern publishing", "err", perr)
		err = errors.Join(err, perr)
	} else if n > 0 {
		f.core.Log.Info("email pattern publishing", "domains", n)
	}
	if !f.names.wired {
		return out, err
	}
	syncCtx := ctx
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		syncCtx, cancel = context.WithDeadline(ctx, dl.Add(-reprocessMargin))
		defer cancel()
	}
	start := time.Now()
	names, serr := f.SyncNames(syncCtx)
	out.Names = &names
	f.core.Log.Info("company-name index sync", "companies", names.Companies, "indexed", names.Indexed, "deleted", names.Deleted, "took", time.Since(start).Round(time.Millisecond).String(), "err", serr)
	return out, errors.Join(err, serr)
}

// Scheduler composes the company family on AWS from the environment and returns the
// handler functions/scheduler starts.
func Scheduler(ctx context.Context, getenv config.Getenv) (func(context.Context, events.EventBridgeEvent) (ScheduleReport, error), error) {
	f := &Composer{}
	if _, err := app.FromEnv(ctx, getenv, f); err != nil {
		return nil, err
	}
	return f.HandleEvent, nil
}

// HandleEvent is the scheduler's handler: every EventBridge tick runs HandleSchedule
// (the event carries nothing it needs).
func (f *Composer) HandleEvent(ctx context.Context, _ events.EventBridgeEvent) (ScheduleReport, error) {
	return f.HandleSchedule(ctx)
}
