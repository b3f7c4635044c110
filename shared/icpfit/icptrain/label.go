package icptrain

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/icpfit"
	"github.com/firmoapi/firmo/shared/llm"
)

// Labeler gives the verdict for one (ICP, company) pair: true for a fit.
type Labeler interface {
	Label(ctx context.Context, icp icpfit.Criteria, s Subject) (bool, error)
	// Describe names the labels' source for the model file ("truth", "llm:custom/gpt-x").
	Describe() string
}

// Truth labels pairs with the demo world's truth: a fit when every mandatory line
// holds for the generator's truth about the company and no reject line does.
// Nice-to-have lines do not decide. Use it by pointer (&Truth{}): it keeps the
// criterion lines it has read.
type Truth struct{ m icpfit.Model }

// Label judges the criteria against the truth.
func (t *Truth) Label(_ context.Context, icp icpfit.Criteria, s Subject) (bool, error) {
	_, res := t.m.Features(icp, s.Truth)
	return icpfit.Holds(res), nil
}

// Describe is "truth".
func (*Truth) Describe() string { return "truth" }

// LLM labels pairs with an LLM's verdict, asked in the shape of the LLM validation
// run (Fit, Confidence, Reasoning) through the llm port, so any OpenAI-compatible
// endpoint (or another adapter) answers.
type LLM struct {
	Client   llm.Client
	Provider string
	Model    string
	// Usage adds up what the calls cost.
	Usage *Usage
}

// Usage counts LLM calls and their cost; it is safe for concurrent use.
type Usage struct {
	mu                                    sync.Mutex
	Calls, PromptTokens, CompletionTokens int
	CostUSD                               float64
}

func (u *Usage) add(r llm.Response) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.Calls++
	u.PromptTokens += r.PromptTokens
	u.CompletionTokens += r.CompletionTokens
	u.CostUSD += r.CostUSD
}

// Describe is "llm:<provider>/<model>".
func (l LLM) Describe() string { return "llm:" + l.Provider + "/" + l.Model }

// VerdictFields are the verdict's JSON keys, as the LLM validation run returns them.
var VerdictFields = []string{"Fit", "Confidence", "Reasoning"}

// SystemPrompt is the instruction of every verdict call.
const SystemPrompt = "You validate whether a company fits an ideal customer profile (ICP). Judge only from the company data given. " +
	"Fit is Yes only when every criterion under Mandatory: holds and no criterion under Reject if: holds; criteria under Nice-to-have: never decide on their own. " +
	"Confidence is high, medium or low. Reasoning is one or two sentences naming the criteria that decided."

// Prompt is the user message of a verdict call.
func Prompt(icp icpfit.Criteria, co icpfit.Company) string {
	return "ICP:\n" + icp.Text() + "\nCompany data:\n" + CompanyText(co)
}

// Label asks the LLM.
func (l LLM) Label(ctx context.Context, icp icpfit.Criteria, s Subject) (bool, error) {
	req := llm.Request{Model: l.Model, System: SystemPrompt, Prompt: Prompt(icp, s.Company), MaxTokens: 300, JSONFields: VerdictFields}
	var resp llm.Response
	var err error
	// Rate limits and provider hiccups are retried a few times, as the task engine does.
	for attempt := 0; ; attempt++ {
		resp, err = l.Client.Complete(ctx, req)
		if err == nil || !apperr.IsRetryable(err) || attempt == 3 {
			break
		}
		wait := max(apperr.RetryAfter(err), time.Duration(1<<attempt)*time.Second)
		select {
		case <-ctx.Done():
			return false, ctx.Err()
		case <-time.After(min(wait, time.Minute)):
		}
	}
	if err != nil {
		return false, err
	}
	if l.Usage != nil {
		l.Usage.add(resp)
	}
	return ParseVerdict(resp.Text)
}

// ParseVerdict reads the Fit of a JSON verdict (code fences tolerated).
func ParseVerdict(text string) (bool, error) {
	t := strings.TrimSpace(text)
	t = strings.TrimPrefix(strings.TrimPrefix(t, "```json"), "```")
	t = strings.TrimSpace(strings.TrimSuffix(t, "```"))
	if i, j := strings.Index(t, "{"), strings.LastIndex(t, "}"); i >= 0 && j > i {
		t = t[i : j+1]
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(t), &v); err != nil {
		return false, fmt.Errorf("verdict is not a JSON object: %w", err)
	}
	fit, _ := v["Fit"].(string)
	switch strings.ToLower(strings.TrimSpace(fit)) {
	case "yes":
		return true, nil
	case "no":
		return false, nil
	}
	return false, fmt.Errorf("verdict Fit is %q, want Yes or No", fit)
}

// CompanyText writes what the model reads about a company, one field a line, as the
// LLM sees it.
func CompanyText(c icpfit.Company) string {
	var b strings.Builder
	line := func(k, v string) {
		if strings.TrimSpace(v) != "" {
			fmt.Fprintf(&b, "%s: %s\n", k, v)
		}
	}
	line("Name", c.Name)
	line("Domain", c.Domain)
	line("Description", clip(c.Description, 1500))
	line("Industries", strings.Join(c.Industries, ", "))
	line("Sub-industries", strings.Join(c.SubIndustries, ", "))
	line("Business model", c.BusinessModel)
	if c.Employees > 0 {
		line("Employees", fmt.Sprint(c.Employees))
	}
	line("Employees", c.EmployeeRange)
	line("Revenue range", c.RevenueRange)
	line("Country", c.Country)
	line("State", c.State)
	line("Technologies", strings.Join(c.Technologies, ", "))
	line("Keywords", strings.Join(c.Keywords, ", "))
	if t := clip(c.HomepageText, 3000); t != "" {
		b.WriteString("\nHomepage text:\n" + t + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
