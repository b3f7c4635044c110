package research

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/icpfit"
	"github.com/firmoapi/firmo/shared/task"
)

// A native-icp run (integration_id native-icp on POST /v1/validate/icp and on POST
// /v1/gen/process, kind native_icp) scores each company with the native ICP-fit model
// (shared/icpfit) instead of calling an LLM: the criteria are read from the ICP text
// once, at submission, and each record reads the company's record (profile and the
// vendors found on its homepage) and stored homepage text. No web search, no
// integration; the context is always website, and billing is batch research's.

// KindNativeICP is the task kind of a native-icp run, from either endpoint.
const KindNativeICP = "native_icp"

// The columns of a native-icp run.
const (
	ColICPFit   = "ICP Fit"
	ColICPScore = "ICP Score"
)

// NativeColumns are a native-icp run's column_name.
var NativeColumns = []string{ColICPFit, ColICPScore, ColReasoning}

// Evidence fields a native row adds beside its columns.
const (
	FieldEvidence     = "evidence"
	FieldModelVersion = "model_version"
)

// ICPModels loads the native ICP-fit model on first use; *icpfit.Loader implements it.
type ICPModels interface {
	Model() (*icpfit.Model, error)
}

// nativeTimeout bounds one native record: two reads and a scoring.
const nativeTimeout = time.Minute

// Warnings of native runs.
const (
	warnNativeUnknown = "Some domains are not in Firmo's company data; native-icp gave them no verdict (their cells say so)."
	warnNativeSearch  = "native-icp runs no web search; web_search and search_provider_id were ignored."
	warnNativeMode    = "native-icp always reads the website context (company profile plus homepage text); context_mode %q was ignored."
)

// unknownCell fills every column of a domain Firmo has no data on.
const unknownCell = "Error: Firmo has no company data for this domain, so the native model made no verdict"

// nativeRequest is a native-icp submission from either endpoint; TextField names the
// ICP text's parameter (icp_text or query) in errors.
type nativeRequest struct {
	Text, TextField  string
	Mode             string
	WebSearch        bool
	SearchProviderID string
	Keys             []string
}

func (s *Service) nativeKinds() []task.Kind {
	return []task.Kind{{Name: KindNativeICP, Processor: nativeProcessor{s: s}, Columns: NativeColumns, Timeout: nativeTimeout}}
}

// submitNative checks the ICP text's headings (400 icp_headings_missing), loads the
// model (503 with Retry-After when it cannot be), and submits the run.
func (s *Service) submitNative(ctx context.Context, orgID string, r nativeRequest) (task.Submitted, error) {
	if err := checkText(r.TextField, r.Text); err != nil {
		return task.Submitted{}, err
	}
	crit, missing := icpfit.ParseCriteria(r.Text)
	if len(missing) > 0 {
		return task.Submitted{}, &apperr.Error{Kind: apperr.ErrBadRequest, Code: CodeICPHeadings, Field: r.TextField,
			Message: fmt.Sprintf("A native-icp run needs an ICP prompt with the headings Mandatory:, Reject if: and Nice-to-have:; missing %s.", strings.Join(missing, ", "))}
	}
	if len(crit.Mandatory)+len(crit.Reject)+len(crit.Nice) == 0 {
		return task.Submitted{}, apperr.Invalid(r.TextField, "the headings Mandatory:, Reject if: and Nice-to-have: list no criterion; put one per line under them")
	}
	if _, err := s.nativeModel(); err != nil {
		return task.Submitted{}, err
	}
	var warnings []string
	if r.WebSearch || r.SearchProviderID != "" {
		warnings = append(warnings, warnNativeSearch)
	}
	if r.Mode != ModeWebsite {
		warnings = append(warnings, fmt.Sprintf(warnNativeMode, r.Mode))
	}
	rf := &task.ResponseFormat{ResponseType: "native_icp", Description: r.Text,
		FieldLabels: map[string]string{"icp_fit": ColICPFit, "icp_score": ColICPScore, "reasoning": ColReasoning}, TypedColumns: []task.TypedColumn{}}
	sub := task.Submission{ColumnName: task.Columns(NativeColumns...), ResponseFormat: rf, Warnings: warnings}
	return s.enqueue(ctx, orgID, KindNativeICP, "domains", r.Keys, nil, params{Query: r.Text, Mode: ModeWebsite, Criteria: &crit}, sub)
}

// nativeModel is the loaded model, or the 503 of the API reference: the loader's
// error carries the Retry-After, and its cause goes to the log only.
func (s *Service) nativeModel() (*icpfit.Model, error) {
	m, err := s.d.ICPModels.Model()
	if err == nil {
		return m, nil
	}
	s.d.Log.Error("native ICP-fit model unavailable", "err", err)
	after := apperr.RetryAfter(err)
	if after <= 0 {
		after = icpfit.RetryAfter
	}
	return nil, &apperr.Error{Kind: apperr.ErrUnavailable, RetryAfter: after,
		Message: "Native ICP-fit validation is unavailable; retry later, or use an LLM integration."}
}

// icpCriteria writes the ICP text's criteria under their headings when it has all
// three, for the LLM run's prompt.
func icpCriteria(icpText string) (string, bool) {
	c, missing := icpfit.ParseCriteria(icpText)
	if len(missing) > 0 || len(c.Mandatory)+len(c.Reject)+len(c.Nice) == 0 {
		return "", false
	}
	return c.Text(), true
}

// nativeProcessor scores one company.
type nativeProcessor struct{ s *Service }

// Provider gives native records a lane of their own: they call no outside service and
// must not wait behind LLM calls.
func (nativeProcessor) Provider() string { return "native-icp" }

func (p nativeProcessor) Process(ctx context.Context, rec task.Record) (task.Result, error) {
	prm, err := decodeParams(rec.Params)
	if err != nil || prm.Criteria == nil {
		return task.Result{}, fmt.Errorf("task parameters: no ICP criteria (%v)", err)
	}
	m, err := p.s.nativeModel()
	if err != nil {
		return task.Result{}, apperr.Retryable(err, apperr.RetryAfter(err))
	}
	co, err := p.s.d.Companies.Record(ctx, rec.Key)
	if errors.Is(err, apperr.ErrNotFound) {
		return task.Result{Row: map[string]any{ColICPFit: unknownCell, ColICPScore: unknownCell, ColReasoning: unknownCell},
			Warnings: []string{warnNativeUnknown}}, nil
	}
	if err != nil {
		return task.Result{}, err
	}
	var res task.Result
	home, err := p.s.d.Companies.HomeText(ctx, rec.Key)
	switch {
	case errors.Is(err, apperr.ErrNotFound) || (err == nil && strings.TrimSpace(home) == ""):
		res.Warnings = append(res.Warnings, warnNoHomepage)
	case err != nil:
		return task.Result{}, err
	}
	v := m.Score(*prm.Criteria, icpfit.FromRecord(co, clipRunes(home, maxContextRunes)))
	res.Row = nativeRow(v, m.Version())
	if err := p.s.charge(ctx, rec, rec.Key, KindNativeICP); err != nil {
		return task.Result{}, err
	}
	return res, nil
}

// nativeRow is a verdict as the API shows it: the three columns (the score already
// has the two decimals it is shown with, so Fit and the band agree with it) and the
// evidence, every criterion with what decided it.
func nativeRow(v icpfit.Verdict, version string) map[string]any {
	fit := "No"
	if v.Fit {
		fit = "Yes"
	}
	ev := make([]map[string]any, len(v.Criteria))
	for i, c := range v.Criteria {
		ev[i] = map[string]any{"section": c.Section, "criterion": c.Text, "met": c.Met, "strength": c.Strength, "evidence": c.Evidence}
		if c.Doubt != "" {
			ev[i]["doubt"] = c.Doubt
		}
	}
	return map[string]any{ColICPFit: fit, ColICPScore: fmt.Sprintf("%.2f", v.Score), ColReasoning: v.Reasoning,
		FieldEvidence: ev, FieldModelVersion: version}
}

// Record returns a domain's whole record (profile and derived fields), deriving it
// first when it was stored without (as Profile does).
func (c CompanyData) Record(ctx context.Context, dom string) (company.Record, error) {
	if _, err := c.Svc.Profile(ctx, dom); err != nil {
		return company.Record{}, err
	}
	return c.Svc.Store().Get(ctx, dom)
}
