// Package llm is the port to large language models: one isolated completion per call
// (Client) and typed judgments with calibrated probabilities (Judge). Adapters live in
// packages named by their technology: openaillm (OpenAI and any OpenAI-compatible
// endpoint), anthropicllm and typedllm. Every adapter reports token usage and the cost
// of the call from the price table in prices.go.
package llm

import (
	"context"
	"errors"
)

// Request is one isolated completion: no conversation state is kept between calls.
type Request struct {
	Model     string
	System    string
	Prompt    string
	MaxTokens int // <= 0 takes the adapter's default
	// WebSearch asks for the model's built-in search tool, when the model supports it;
	// adapters ignore it for models without one.
	WebSearch bool
	// JSONFields, when set, asks for a JSON object with exactly these keys.
	JSONFields []string
	// JSONSchema, when set, asks for one JSON object valid against this JSON Schema
	// (OpenAI-compatible endpoints get it as response_format json_schema, strict; every
	// adapter also states it in the system prompt). SchemaName names it (letters,
	// digits, _ and -). It takes precedence over JSONFields.
	JSONSchema map[string]any
	SchemaName string
}

// Response is the answer of one completion.
type Response struct {
	Text             string
	PromptTokens     int
	CompletionTokens int
	UsageReported    bool    // false when the server sent no usage block
	SearchCalls      int     // searches run by the model's built-in tool
	CostUSD          float64 // from the price table; 0 for unknown models
	// Replayed marks an answer kept from the same call made earlier in a redone unit
	// of work (Replayable): no call was made now, so tokens and cost are zero and the
	// caller counts no spend for it (the first run counted it).
	Replayed bool `json:"-"`
}

// Client completes prompts.
type Client interface {
	Complete(ctx context.Context, req Request) (Response, error)
}

// Judgment kinds.
const (
	KindYesNo  = "noul"   // yes/no
	KindChoice = "choice" // one of a fixed set
	KindScale  = "scale"  // ordered levels; the value is a position between them
)

// JudgeRequest asks one typed question about one record.
type JudgeRequest struct {
	Kind     string // KindYesNo, KindChoice or KindScale
	Question string
	Context  string
	// Options are the choice options, or the scale levels in order; unused for yes/no.
	Options []string
}

// Judgment is a typed answer.
type Judgment struct {
	// Value is "Yes"/"No", the chosen option, or a scale position such as "0.5"
	// (0 is the first level, 1 the second, fractions lie between).
	Value string
	// Confidence is the calibrated probability of the chosen answer (for a scale, of the
	// most likely level).
	Confidence float64
	CostUSD    float64
	// Replayed: as Response.Replayed; CostUSD is zero then.
	Replayed bool `json:"-"`
}

// Judge answers typed questions.
type Judge interface {
	Judge(ctx context.Context, req JudgeRequest) (Judgment, error)
}

// Error kinds of the adapters. Rate limits are returned as apperr.Retryable errors
// wrapping ErrRateLimited so the task engine retries them.
var (
	ErrOutOfCredits = errors.New("llm provider: out of credits or quota")
	ErrAuth         = errors.New("llm provider: authentication failed (check the api_key)")
	ErrRateLimited  = errors.New("llm provider: rate limited")
	ErrBadModel     = errors.New("llm provider: model not found")
	ErrProvider     = errors.New("llm provider: request failed")
)
