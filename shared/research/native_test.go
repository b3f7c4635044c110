package research

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/icpfit"
	"github.com/firmoapi/firmo/shared/task"
)

// recordSet is a Companies of whole records; a domain it lacks is not found.
type recordSet struct {
	recs map[string]company.Record
	home map[string]string
}

func (s recordSet) Record(ctx context.Context, dom string) (company.Record, error) {
	r, ok := s.recs[dom]
	if !ok {
		return company.Record{}, fmt.Errorf("record of %s: %w", dom, apperr.ErrNotFound)
	}
	return r, nil
}

func (s recordSet) Profile(ctx context.Context, dom string) (company.Profile, error) {
	r, err := s.Record(ctx, dom)
	return r.Profile, err
}

func (s recordSet) HomeText(ctx context.Context, dom string) (string, error) {
	h, ok := s.home[dom]
	if !ok {
		return "", fmt.Errorf("homepage of %s: %w", dom, apperr.ErrNotFound)
	}
	return h, nil
}

func record(dom, industry, employees, country, home string) (company.Record, string) {
	return company.Record{Domain: dom, Profile: company.Profile{Domain: dom, Name: "Name of " + dom, Employees: &employees,
		Address: company.Address{Country: country}, IndustryGroups: map[string]float64{industry: 0.9},
		BusinessModel: map[string]float64{"B2B": 0.8}, Description: "A company."}}, home
}

// nativeRig is a rig whose companies are: fit.com (SaaS, 51-200, US, payroll software
// on its homepage), agency.com (a marketing agency), tiny.com (SaaS with 1-10 people in
// Germany), nohome.com (fit.com's profile without a homepage); ghost.com is unknown.
func nativeRig(t *testing.T) *rig {
	r := newRig(t)
	set := recordSet{recs: map[string]company.Record{}, home: map[string]string{}}
	for _, c := range []struct{ dom, ind, emp, country, home string }{
		{"fit.com", "SAAS", "51-200", "US", "Payroll software for growing tech teams."},
		{"agency.com", "MARKETING_ADVERTISING", "51-200", "US", "We are a creative marketing agency."},
		{"tiny.com", "SAAS", "1-10", "DE", "Software for bakers."},
		{"nohome.com", "SAAS", "51-200", "US", ""},
	} {
		rec, home := record(c.dom, c.ind, c.emp, c.country, c.home)
		set.recs[c.dom] = rec
		if home != "" {
			set.home[c.dom] = home
		}
	}
	r.svc.d.Companies = set
	return r
}

var twoDecimals = regexp.MustCompile(`^(0\.\d\d|1\.00)$`)

// TestNativeICPOnBothEndpoints runs native-icp through POST /v1/validate/icp and
// POST /v1/gen/process: no LLM call and no search, the three columns with the
// evidence, the same verdict for the same company from either endpoint, a company
// that meets the criteria above one that hits a reject criterion or misses a
// mandatory one, an unknown domain answered without a verdict, and credits for
// net-new known domains only.
func TestNativeICPOnBothEndpoints(t *testing.T) {
	r := nativeRig(t)
	doms := []string{"fit.com", "agency.com", "tiny.com", "nohome.com", "ghost.com"}
	known := 4
	before, _ := r.bill.Balance(context.Background(), r.org.ID)
	vctx := billing.WithRoute(context.Background(), "POST /v1/validate/icp")
	sub, err := r.svc.SubmitICP(vctx, r.org.ID, ICPRequest{ICPText: testICP, Domains: doms, IntegrationID: NativeICP, WebSearch: true, ContextMode: ModeDomain})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(sub.ColumnName.Names, "|") != "ICP Fit|ICP Score|Reasoning" || sub.TotalDomains != len(doms) {
		t.Fatalf("submitted %+v", sub)
	}
	views := r.wait(t, sub.TaskID)
	validate := views[len(views)-1]
	mid, _ := r.bill.Balance(context.Background(), r.org.ID)
	if want := billing.Price(r.org.Plan, billing.KindCompany, known); before-mid != want {
		t.Errorf("charged %d credits, want %d (the known domains, each net-new)", before-mid, want)
	}

	gctx := billing.WithRoute(context.Background(), "POST /v1/gen/process")
	sub2, err := r.svc.SubmitCompanies(gctx, r.org.ID, CompanyRequest{Options: Options{Query: testICP, IntegrationID: NativeICP}, Domains: doms})
	if err != nil {
		t.Fatal(err)
	}
	views = r.wait(t, sub2.TaskID)
	process := views[len(views)-1]
	if after, _ := r.bill.Balance(context.Background(), r.org.ID); after != mid {
		t.Errorf("the second run charged %d credits for domains billed within 90 days", mid-after)
	}
	if n := len(r.chat.all()); n != 0 {
		t.Errorf("native-icp made %d LLM calls", n)
	}
	if n := r.search.queries.Load(); n != 0 {
		t.Errorf("native-icp ran %d search queries", n)
	}

	m, err := icpfit.NewLoader("").Model()
	if err != nil {
		t.Fatal(err)
	}
	scores := map[string]float64{}
	for _, v := range []task.View{validate, process} {
		if v.Status != task.StatusCompleted || len(v.Results) != len(doms) {
			t.Fatalf("status %s with %d results", v.Status, len(v.Results))
		}
		for _, d := range doms[:known] {
			c := cells(t, v, d)
			s, _ := c[ColICPScore].(string)
			if !twoDecimals.MatchString(s) {
				t.Fatalf("%s: ICP Score %q is not a two-decimal string", d, c[ColICPScore])
			}
			score, _ := strconv.ParseFloat(s, 64)
			if old, seen := scores[d]; seen && old != score {
				t.Errorf("%s scored %.2f and %.2f: not deterministic across endpoints", d, old, score)
			}
			scores[d] = score
			if want := map[bool]string{true: "Yes", false: "No"}[score >= 0.5]; c[ColICPFit] != want {
				t.Errorf("%s: ICP Fit %q with score %s", d, c[ColICPFit], s)
			}
			if reason, _ := c[ColReasoning].(string); !strings.HasPrefix(reason, icpfit.BandOf(score)) {
				t.Errorf("%s: Reasoning %q does not start with the band %q", d, reason, icpfit.BandOf(score))
			}
			ev, _ := c[FieldEvidence].([]any)
			if len(ev) != 4 {
				t.Fatalf("%s: evidence %v, want the four criteria", d, c[FieldEvidence])
			}
			first, _ := ev[0].(map[string]any)
			if first["section"] != icpfit.SectionMandatory || first["criterion"] != "SaaS companies" || first["evidence"] == "" {
				t.Errorf("%s: first evidence %v", d, first)
			}
			if c[FieldModelVersion] != m.Version() {
				t.Errorf("%s: model_version %v, want %q", d, c[FieldModelVersion], m.Version())
			}
		}
		ghost := cells(t, v, "ghost.com")
		for _, col := range NativeColumns {
			if ghost[col] != unknownCell {
				t.Errorf("ghost.com %s = %q, want %q", col, ghost[col], unknownCell)
			}
		}
		if !contains(v.Warnings, warnNativeUnknown) || !contains(v.Warnings, warnNoHomepage) {
			t.Errorf("warnings %q lack the unknown-domain and no-homepage warnings", v.Warnings)
		}
	}
	if !contains(validate.Warnings, warnNativeSearch) || !contains(validate.Warnings, fmt.Sprintf(warnNativeMode, ModeDomain)) {
		t.Errorf("validate warnings %q lack the ignored web_search and context_mode", validate.Warnings)
	}
	if scores["fit.com"] <= scores["agency.com"] || scores["fit.com"] <= scores["tiny.com"] {
		t.Errorf("scores %v: the company meeting every criterion should score above the agency (reject) and the 1-10 company (mandatory size missed)", scores)
	}
	// The row is the model's verdict on the record and its homepage text.
	rec, _ := r.svc.d.Companies.Record(context.Background(), "fit.com")
	crit, _ := icpfit.ParseCriteria(testICP)
	want := m.Score(crit, icpfit.FromRecord(rec, "Payroll software for growing tech teams."))
	if got := cells(t, validate, "fit.com")[ColReasoning]; got != want.Reasoning {
		t.Errorf("fit.com Reasoning %q, want the model's %q", got, want.Reasoning)
	}
	// fit.com's homepage is six words: too thin to rule "marketing agencies" out, so
	// the reject line's evidence carries the doubt and the verdict is not a Yes.
	ev, _ := cells(t, validate, "fit.com")[FieldEvidence].([]any)
	rej, _ := ev[2].(map[string]any)
	if d, _ := rej["doubt"].(string); rej["section"] != icpfit.SectionReject || !strings.Contains(d, "6 words of homepage text") || cells(t, validate, "fit.com")[ColICPFit] != "No" {
		t.Errorf("fit.com: reject evidence %v, fit %v; want the doubt on thin homepage text and No", rej, cells(t, validate, "fit.com")[ColICPFit])
	}
}

// TestNativeICPModelUnavailable: a model file that cannot be loaded is a 503 with
// Retry-After on both endpoints, and only then; missing headings are still a 400.
func TestNativeICPModelUnavailable(t *testing.T) {
	r := nativeRig(t)
	r.svc.d.ICPModels = icpfit.NewLoader(filepath.Join(t.TempDir(), "missing-model.json"))
	_, err := r.svc.SubmitICP(context.Background(), r.org.ID, ICPRequest{ICPText: testICP, Domains: []string{"fit.com"}, IntegrationID: NativeICP})
	d := apperr.Describe(err)
	if d.Status != 503 || d.RetryAfter <= 0 || !strings.Contains(d.Message, "use an LLM integration") || strings.Contains(d.Message, "missing-model.json") {
		t.Errorf("validate: got %+v, want 503 with Retry-After and no file name", d)
	}
	_, err = r.svc.SubmitCompanies(context.Background(), r.org.ID, CompanyRequest{Options: Options{Query: testICP, IntegrationID: NativeICP}, Domains: []string{"fit.com"}})
	if d := apperr.Describe(err); d.Status != 503 || d.RetryAfter <= 0 {
		t.Errorf("process: got %+v, want 503 with Retry-After", d)
	}
	_, err = r.svc.SubmitCompanies(context.Background(), r.org.ID, CompanyRequest{Options: Options{Query: "Mandatory: SaaS", IntegrationID: NativeICP}, Domains: []string{"fit.com"}})
	if d := apperr.Describe(err); d.Status != 400 || d.Code != CodeICPHeadings || d.Field != "query" {
		t.Errorf("headings missing: got %+v, want 400 %s on query", d, CodeICPHeadings)
	}
}
