// Package typedllm is the llm.Judge adapter of the "typed" provider: calibrated yes/no,
// fixed-set and scale judgments.
//
// # Wire protocol
//
// The typed provider is any OpenAI-compatible chat-completions endpoint (base_url +
// "/chat/completions", Bearer api_key) whose model can return log-probabilities. One
// judgment is one call:
//
//	{"model": <model_name>, "max_tokens": 1, "temperature": 0, "logprobs": true, "top_logprobs": 5,
//	 "messages": [{"role": "system", "content": <rules + the labelled answers>},
//	              {"role": "user", "content": "Question: ...\n\nContext:\n..."}]}
//
// The answers are labelled with single tokens: "Yes"/"No" for a yes/no question, and
// the letters A, B, C... for the options of a fixed set or the levels of a scale (in
// order). The system message lists the labels and asks for exactly one of them.
//
// The answer is read from choices[0].logprobs.content[0].top_logprobs, not from the
// text: each label's probability is exp(logprob) of its token (case and surrounding
// space ignored; variants summed); labels missing from the top 5 share the mass the
// listed tokens leave over, at most the smallest listed probability each. The label
// probabilities are then renormalised over the allowed answers and tempered with
// Temperature (p_i ∝ p_i^(1/T); T = 1 leaves them as the model gave them), which is
// the calibration step. The Judgment is:
//
//   - yes/no and fixed set: the most probable answer; Confidence is its probability;
//   - scale: Value is the expected level position Σ i·p_i (0 is the first level,
//     fractions lie between levels), rounded to 2 decimals; Confidence is the
//     probability of the most likely level.
//
// When the server returns no logprobs, the text token is taken with Confidence 0.5
// (treated by callers as low confidence).
package typedllm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/fetch"
	"github.com/firmoapi/firmo/shared/llm"
)

// MaxOptions bounds the options of a fixed set or scale (one letter each).
const MaxOptions = 26

// Options configure a Judge.
type Options struct {
	APIKey      string
	BaseURL     string
	Model       string
	HTTPClient  *http.Client
	Temperature float64 // calibration temperature; <= 0 means 1
}

// Judge calls a typed-judgment endpoint.
type Judge struct {
	sdk   openai.Client
	model string
	temp  float64
}

var _ llm.Judge = (*Judge)(nil)

// New returns a Judge.
func New(o Options) *Judge {
	opts := []option.RequestOption{option.WithAPIKey(o.APIKey), option.WithMaxRetries(0)}
	if o.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(strings.TrimRight(o.BaseURL, "/")+"/"))
	}
	if o.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(o.HTTPClient))
	}
	if o.Temperature <= 0 {
		o.Temperature = 1
	}
	return &Judge{sdk: openai.NewClient(opts...), model: o.Model, temp: o.Temperature}
}

// Labels returns the answer tokens of a request.
func Labels(req llm.JudgeRequest) ([]string, error) {
	switch req.Kind {
	case llm.KindYesNo:
		return []string{"Yes", "No"}, nil
	case llm.KindChoice, llm.KindScale:
		if len(req.Options) < 2 || len(req.Options) > MaxOptions {
			return nil, fmt.Errorf("a %s judgment needs 2 to %d options, got %d: %w", req.Kind, MaxOptions, len(req.Options), apperr.ErrInvalid)
		}
		out := make([]string, len(req.Options))
		for i := range req.Options {
			out[i] = string(rune('A' + i))
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown judgment kind %q: %w", req.Kind, apperr.ErrInvalid)
}

// SystemPrompt is the system message of a request (exported for documentation and tests).
func SystemPrompt(req llm.JudgeRequest, labels []string) string {
	var b strings.Builder
	b.WriteString("You are a careful analyst making one typed judgment about a company or person from the context given. ")
	switch req.Kind {
	case llm.KindYesNo:
		b.WriteString("Answer the question with exactly one word: Yes or No.")
	case llm.KindChoice:
		b.WriteString("Pick the one option that fits best. Answer with its letter only.\nOptions:\n")
	case llm.KindScale:
		b.WriteString("Rate on the scale below, from the first level to the last. Answer with the letter of the level only.\nLevels:\n")
	}
	if req.Kind != llm.KindYesNo {
		for i, o := range req.Options {
			fmt.Fprintf(&b, "%s. %s\n", labels[i], o)
		}
	}
	return strings.TrimSpace(b.String())
}

// Judge makes one judgment.
func (j *Judge) Judge(ctx context.Context, req llm.JudgeRequest) (llm.Judgment, error) {
	labels, err := Labels(req)
	if err != nil {
		return llm.Judgment{}, err
	}
	user := "Question: " + strings.TrimSpace(req.Question)
	if c := strings.TrimSpace(req.Context); c != "" {
		user += "\n\nContext:\n" + c
	}
	resp, err := j.sdk.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model:       j.model,
		Messages:    []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(SystemPrompt(req, labels)), openai.UserMessage(user)},
		MaxTokens:   openai.Int(1),
		Temperature: openai.Float(0),
		Logprobs:    openai.Bool(true),
		TopLogprobs: openai.Int(5),
	})
	if err != nil {
		return llm.Judgment{}, classify(err)
	}
	if len(resp.Choices) == 0 {
		return llm.Judgment{}, fmt.Errorf("%w (typed provider answered without choices)", llm.ErrProvider)
	}
	ch := resp.Choices[0]
	top := map[string]float64{}
	if len(ch.Logprobs.Content) > 0 {
		for _, t := range ch.Logprobs.Content[0].TopLogprobs {
			top[t.Token] += math.Exp(t.Logprob)
		}
		if len(top) == 0 { // only the chosen token's logprob
			top[ch.Logprobs.Content[0].Token] = math.Exp(ch.Logprobs.Content[0].Logprob)
		}
	}
	probs, ok := Probabilities(labels, top, j.temp)
	if !ok {
		i := match(labels, ch.Message.Content)
		if i < 0 {
			return llm.Judgment{}, fmt.Errorf("%w (typed provider answered %q, not one of %s)", llm.ErrProvider, ch.Message.Content, strings.Join(labels, ", "))
		}
		probs = make([]float64, len(labels))
		probs[i] = 1
		out := decide(req, probs)
		out.Confidence = 0.5
		return out, nil
	}
	out := decide(req, probs)
	if resp.JSON.Usage.Valid() {
		out.CostUSD = llm.Cost("typed", j.model, int(resp.Usage.PromptTokens), int(resp.Usage.CompletionTokens), 0)
	}
	return out, nil
}

// Probabilities turns token probabilities into calibrated probabilities over labels.
// ok is false when no listed token is an allowed label.
func Probabilities(labels []string, top map[string]float64, temp float64) ([]float64, bool) {
	p := make([]float64, len(labels))
	seen, listed, minListed := 0, 0.0, 1.0
	for tok, v := range top {
		listed += v
		if v < minListed {
			minListed = v
		}
		if i := match(labels, tok); i >= 0 {
			if p[i] == 0 {
				seen++
			}
			p[i] += v
		}
	}
	if seen == 0 {
		return nil, false
	}
	if missing := len(labels) - seen; missing > 0 {
		share := math.Max(0, 1-listed) / float64(missing)
		share = math.Min(share, minListed)
		for i := range p {
			if p[i] == 0 {
				p[i] = share
			}
		}
	}
	if temp <= 0 {
		temp = 1
	}
	sum := 0.0
	for i := range p {
		p[i] = math.Pow(p[i], 1/temp)
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
	return p, true
}

func decide(req llm.JudgeRequest, p []float64) llm.Judgment {
	best := 0
	for i := range p {
		if p[i] > p[best] {
			best = i
		}
	}
	out := llm.Judgment{Confidence: p[best]}
	switch req.Kind {
	case llm.KindYesNo:
		out.Value = []string{"Yes", "No"}[best]
	case llm.KindChoice:
		out.Value = req.Options[best]
	case llm.KindScale:
		pos := 0.0
		for i := range p {
			pos += float64(i) * p[i]
		}
		out.Value = strconv.FormatFloat(math.Round(pos*100)/100, 'f', -1, 64)
	}
	return out
}

// match finds the label a token stands for: case and surrounding spaces or
// punctuation ignored ("yes", " Yes", "B.", "(B").
func match(labels []string, tok string) int {
	t := strings.TrimFunc(tok, func(r rune) bool { return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') })
	for i, l := range labels {
		if strings.EqualFold(t, l) {
			return i
		}
	}
	return -1
}

func classify(err error) error {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		ve := llm.VendorError{Status: apiErr.StatusCode, Code: apiErr.Code, Type: apiErr.Type, Message: apiErr.Message}
		if apiErr.Response != nil {
			ve.RetryAfter = llm.RetryAfter(apiErr.Response.Header, time.Now())
		}
		return llm.Classify("typed", ve)
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	var guard *apperr.Error
	if errors.As(err, &guard) && guard.Code == fetch.CodeRefused {
		return fmt.Errorf("%w (typed: %s)", llm.ErrProvider, guard.Message)
	}
	return apperr.Retryable(fmt.Errorf("%w (typed: %v)", llm.ErrProvider, err), 0)
}
