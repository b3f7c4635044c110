package contactsearch

import (
	"context"

	"github.com/firmoapi/firmo/shared/emailfind"
)

var _ emailfind.PatternSource = (*Service)(nil)

// CompanyPattern is the company's address pattern inferred from the known emails of its
// contacts (the same inference that fills email_pattern in search results), so the email
// finder tries it right after a caller's known_pattern.
func (s *Service) CompanyPattern(ctx context.Context, domain string) (emailfind.Pattern, bool, error) {
	sn, err := s.current(ctx)
	if err != nil {
		return emailfind.Pattern{}, false, err
	}
	ci := sn.companies[domain]
	if ci == nil || ci.Pattern == nil {
		return emailfind.Pattern{}, false, nil
	}
	return *ci.Pattern, true, nil
}
