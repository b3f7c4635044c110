// Package embed is the text embedding port: it turns short texts (job titles, skills,
// profile summaries, ICP descriptions) into unit vectors whose cosine similarity measures how
// alike the texts are in meaning. Contact search stores one vector per contact in a
// vector.Index and embeds every similarity query with the same Embedder.
//
// Adapters: ppmiembed (built in, offline, learned from a corpus committed in the repo) and
// openaiembed (any OpenAI-compatible /v1/embeddings endpoint). The contract is embedtest.Run.
package embed

import (
	"context"
	"strconv"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
)

// Embedder is the port. Embed returns one unit-length vector of Dims() values per text, in
// the order given. An empty or blank text is an error wrapping apperr.ErrInvalid (field
// "texts[i]"), since it has no meaning to place.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Dims() int
}

// CheckTexts validates a batch before any work is done.
func CheckTexts(texts []string) error {
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			return apperr.Invalid(fieldOf(i), "text %d is empty", i)
		}
	}
	return nil
}

func fieldOf(i int) string { return "texts[" + strconv.Itoa(i) + "]" }
