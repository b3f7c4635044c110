package app

import (
	"log/slog"

	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/integration"
)

// promptReader lets contact search read icp_prompt with the organisation's default LLM
// integration, resolved by the same integration service batch research uses. An
// organisation without one, or a call that fails or takes longer than
// contactsearch.DefaultPromptTimeout, gets the rule-based parser's reading; the call
// runs on the organisation's own key and charges no credits (as batch research).
func promptReader(integrations *integration.Service, log *slog.Logger) contactsearch.PromptExtractor {
	return contactsearch.NewLLMPrompts(integrations, contactsearch.DefaultPromptTimeout, log)
}
