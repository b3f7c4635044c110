// Package integration holds an organisation's LLM integrations: the provider, model,
// optional base URL and encrypted api_key that batch tasks use to call a model, and the
// organisation default.
//
// Batch research consumes it through Resolve (a generative client), Judge (the typed
// judgment provider) and ByID.
//
// # Storage (partition / sort key)
//
//	integrations#<org>  / i#<created unix nanos, 20 digits>#<id>   Integration document (key sealed)
//	integrations#<org>  / default                                  {"id": "<integration id>"}
//	integrationid#<org> / <id>                                     {"sk": "i#..."} lookup by id
//
// Sort keys start with the creation time so a query lists integrations oldest first:
// the oldest typed integration is the one typed columns use.
package integration

import (
	"time"
)

// Providers.
const (
	ProviderOpenAI    = "openai"
	ProviderAnthropic = "anthropic"
	ProviderCustom    = "custom"
	ProviderTyped     = "typed"
)

// Providers lists the accepted provider identifiers.
var Providers = []string{ProviderOpenAI, ProviderAnthropic, ProviderCustom, ProviderTyped}

// Error codes of the 400s this package returns.
const (
	CodeTypedNotGenerative = "TYPED_NOT_A_GENERATIVE_ENGINE"
	CodeNoIntegration      = "no_llm_integration"
	CodeTypedDefault       = "typed_cannot_be_default"
)

// Integration is one LLM integration as the API shows it. The api_key is never part
// of it: it stays sealed in storage and is shown as MaskedKey.
type Integration struct {
	ID                string    `json:"integration_id"`
	Name              string    `json:"integration_name"`
	Provider          string    `json:"provider"`
	Model             string    `json:"model_name"`
	BaseURL           *string   `json:"base_url"`
	SupportsWebSearch bool      `json:"supports_web_search"`
	IsDefault         bool      `json:"is_default"`
	ModelDeprecated   bool      `json:"model_deprecated"`
	CreatedAt         time.Time `json:"created_at"`
	UpdatedAt         time.Time `json:"updated_at"`
}

// MaskedKey is how an api_key is shown in every response.
const MaskedKey = "*****"
