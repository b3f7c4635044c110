package patternbook

import (
	"context"
	"fmt"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/patternstore"
)

// Publish reads every address again and replaces the published patterns with what they
// give (patternstore.PublishAll: each domain's summary and the model's totals), for
// processes that must not read every address (a contacts Lambda on OpenSearch answers
// from patternstore.Reader, equal to this book's answer). It returns how many domains
// have a pattern. The company pipeline keeps them current between two Publish calls,
// domain by domain (patternstore.Publisher).
func (b *Book) Publish(ctx context.Context) (int, error) {
	if b.store == nil {
		return 0, fmt.Errorf("publish email patterns: no store: %w", apperr.ErrInternal)
	}
	seen, err := b.observations(ctx)
	if err != nil {
		return 0, err
	}
	return patternstore.PublishAll(ctx, b.store, seen)
}
