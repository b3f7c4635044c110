package research

import (
	"context"
	"errors"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/icpfit"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/task"
)

// ICP validation (POST /v1/validate/icp, kind validate_icp) is batch research with a
// fixed question: does each company fit the ideal customer profile? It runs on the
// same record path as gen_process (context, search, one LLM call, billing); what
// differs is the prompt, the two fixed search queries and the answer's three columns.
// integration_id native-icp runs the native model instead (native.go).

// KindICP is the task kind of an LLM ICP validation.
const KindICP = "validate_icp"

// The columns of an LLM ICP validation.
const (
	ColFit        = "Fit"
	ColConfidence = "Confidence"
	ColReasoning  = "Reasoning"
)

// ICPColumns are an LLM ICP validation's column_name.
var ICPColumns = []string{ColFit, ColConfidence, ColReasoning}

var icpFields = []field{{Key: "fit", Label: ColFit}, {Key: "confidence", Label: ColConfidence}, {Key: "reasoning", Label: ColReasoning}}

// icpSearchQueries is how many queries a record runs with web_search: low depth, the
// two fixed queries of icpQueries.
const icpSearchQueries = 2

// ICPRequest is a POST /v1/validate/icp body.
type ICPRequest struct {
	ICPText          string
	Domains          []string
	ContextMode      string
	IntegrationID    string
	WebSearch        bool
	SearchProviderID string
}

// SubmitICP validates and submits an ICP validation: an LLM run (validate_icp) or,
// with integration_id native-icp, a native one (native_icp).
func (s *Service) SubmitICP(ctx context.Context, orgID string, r ICPRequest) (task.Submitted, error) {
	if r.ContextMode == "" {
		r.ContextMode = ModeWebsite
	}
	if err := checkEnum("context_mode", r.ContextMode, companyModes); err != nil {
		return task.Submitted{}, err
	}
	if err := checkText("icp_text", r.ICPText); err != nil {
		return task.Submitted{}, err
	}
	keys, err := domainKeys(r.Domains)
	if err != nil {
		return task.Submitted{}, err
	}
	if r.IntegrationID == NativeICP {
		return s.submitNative(ctx, orgID, nativeRequest{Text: r.ICPText, TextField: "icp_text", Mode: r.ContextMode, WebSearch: r.WebSearch,
			SearchProviderID: r.SearchProviderID, Keys: keys})
	}
	o := Options{Query: r.ICPText, IntegrationID: r.IntegrationID, WebSearch: r.WebSearch, SearchProviderID: r.SearchProviderID,
		SearchContextSize: "low", ContextMode: r.ContextMode}
	if err := checkIDs(o); err != nil {
		return task.Submitted{}, err
	}
	integ, client, err := s.d.Integrations.Resolve(ctx, orgID, o.IntegrationID)
	if err != nil {
		return task.Submitted{}, err
	}
	if client == nil {
		return task.Submitted{}, &apperr.Error{Kind: apperr.ErrBadRequest, Code: integration.CodeTypedNotGenerative, Field: "integration_id",
			Message: "A typed-judgment integration cannot run an ICP validation; pass an LLM integration UUID or native-icp."}
	}
	p := params{Query: r.ICPText, Mode: r.ContextMode, IntegrationID: integ.ID, Prompt: r.ICPText, Fields: icpFields}
	if r.WebSearch {
		if err := s.planSearch(ctx, orgID, o, &p, integ.SupportsWebSearch); err != nil {
			return task.Submitted{}, err
		}
		if p.SearchQueries > 0 {
			p.SearchQueries = icpSearchQueries
		}
	}
	rf := &task.ResponseFormat{ResponseType: "json", Description: r.ICPText, FieldLabels: map[string]string{}, TypedColumns: []task.TypedColumn{}}
	for _, f := range icpFields {
		rf.FieldLabels[f.Key] = f.Label
	}
	sub := task.Submission{ColumnName: task.Columns(ICPColumns...), ResponseFormat: rf}
	return s.enqueue(ctx, orgID, KindICP, "domains", keys, nil, p, sub)
}

// checkText checks a prompt field: required, non-blank, within maxQueryBytes.
func checkText(fieldName, text string) error {
	if strings.TrimSpace(text) == "" {
		return apperr.Invalid(fieldName, "%s must be a non-empty text", fieldName)
	}
	if len(text) > maxQueryBytes {
		return apperr.Invalid(fieldName, "%s is %d bytes; the limit is %d", fieldName, len(text), maxQueryBytes)
	}
	return nil
}

const icpSystemPrompt = "You are a B2B sales analyst who validates companies against an ideal customer profile (ICP). " +
	"Judge only from the context given (company profile, homepage text, web search results) and general knowledge of the company; " +
	"never assume facts the context does not support. A company fits when it meets every mandatory criterion and no reject criterion; " +
	"answer Yes only when the context shows every reject criterion to be false: a reject criterion the context leaves open means No, " +
	"and the reasoning names it. " +
	"nice-to-have criteria raise confidence but do not decide fit. Confidence is high when the context clearly settles every mandatory " +
	"and reject criterion, medium when one of them is inferred, low when the context is thin or contradictory."

// icpPrompt turns the ICP text into criteria for the model and asks for the verdict
// on one company.
func icpPrompt(icpText, contextText string) string {
	var b strings.Builder
	b.WriteString("Ideal customer profile:\n")
	b.WriteString(strings.TrimSpace(icpText))
	b.WriteString("\n\nCriteria: ")
	if c, ok := icpCriteria(icpText); ok {
		b.WriteString("the profile's own criteria are\n")
		b.WriteString(c)
	} else {
		b.WriteString("first turn the profile above into concrete, checkable criteria in three groups: Mandatory (every one must hold), " +
			"Reject if (any one rules the company out) and Nice-to-have (supporting evidence). Cover industry, size, revenue, location, " +
			"business model and technologies wherever the profile mentions them.")
	}
	b.WriteString("\n\nThen check each criterion against the company below and answer with Fit (Yes or No), Confidence (high, medium or low) " +
		"and Reasoning (one or two sentences naming the criteria that decided).\n\nCompany:\n")
	b.WriteString(contextText)
	return b.String()
}

// icpQueries are an ICP validation's two fixed search queries per company: what it is,
// and who it sells to.
func icpQueries(rc *recordCtx) []string {
	return []string{rc.subject + " company overview", `"` + rc.domain + `" industry customers employees`}
}

// icpCells normalizes an ICP validation's answer: Fit Yes or No, Confidence high,
// medium or low, Reasoning at most two sentences. A value outside those is an
// "Error: ..." cell rather than a guess; an error cell generate wrote stays.
func icpCells(row map[string]any) {
	text := func(k string) (string, bool) {
		v, _ := row[k].(string)
		return strings.TrimSpace(v), strings.HasPrefix(v, "Error:")
	}
	if v, failed := text(ColFit); !failed {
		switch strings.ToLower(strings.Trim(v, ".! ")) {
		case "yes", "true", "y", "fit":
			row[ColFit] = "Yes"
		case "no", "false", "n", "no fit":
			row[ColFit] = "No"
		default:
			row[ColFit] = "Error: the model's answer gave no Yes/No fit"
		}
	}
	if v, failed := text(ColConfidence); !failed {
		w, _, _ := strings.Cut(strings.ToLower(strings.Trim(v, ".! ")), " ")
		switch w {
		case "high", "medium", "low":
			row[ColConfidence] = w
		default:
			row[ColConfidence] = "Error: the model's answer gave no high, medium or low confidence"
		}
	}
	if v, failed := text(ColReasoning); !failed {
		if v == "" {
			row[ColReasoning] = "Error: the model's answer gave no reasoning"
		} else {
			row[ColReasoning] = clipRunes(firstSentences(v, 2), 600)
		}
	}
}

// rejectRule applies the native model's reject rule (shared/icpfit.Blockers) to the
// model's answer, on the company's record and homepage text as Firmo holds them:
//   - a Yes beside a reject line the record matches becomes No, confidence low (the
//     context contradicts itself), the reasoning naming the line and its evidence;
//   - a Yes beside a reject line the record cannot rule out with confidence (no data,
//     or the classifier's scores leave it open) stays Yes only when the model's
//     confidence is high, which the prompt defines as the context clearly settling
//     every reject criterion; otherwise it becomes No in the same way.
//
// A prompt without reject lines under the three headings, a No, or an error cell is
// left as it is.
func (s *Service) rejectRule(ctx context.Context, prm params, rc *recordCtx, row map[string]any) error {
	if row[ColFit] != "Yes" {
		return nil
	}
	crit, missing := icpfit.ParseCriteria(prm.Prompt)
	if len(missing) > 0 || len(crit.Reject) == 0 {
		return nil
	}
	co := icpfit.Company{Domain: rc.domain}
	if rc.profiled {
		rec, err := s.d.Companies.Record(ctx, rc.domain)
		switch {
		case err == nil:
			co = icpfit.FromRecord(rec, rc.home)
		case !errors.Is(err, apperr.ErrNotFound):
			return err
		}
	}
	var open []string
	for _, b := range icpfit.Blockers(crit, co) {
		switch {
		case b.Matched:
			row[ColFit], row[ColConfidence] = "No", "low"
			row[ColReasoning] = clipRunes("Company record: "+b.Reason+".", 600)
			return nil
		case row[ColConfidence] != "high":
			open = append(open, b.Reason)
		}
	}
	if len(open) > 0 {
		row[ColFit], row[ColConfidence] = "No", "low"
		row[ColReasoning] = clipRunes("Company record: "+open[0]+".", 600)
	}
	return nil
}

// firstSentences keeps the first n sentences of s (ended by ., ! or ? and a space).
func firstSentences(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	for i := 0; i+1 < len(s); i++ {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?') && s[i+1] == ' ' {
			n--
			if n == 0 {
				return s[:i+1]
			}
		}
	}
	return s
}
