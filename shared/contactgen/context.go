package contactgen

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/task"
)

// Context modes (context_mode), with the meaning batch research gives them (website:
// the company's profile and pages; profile: the stored profile only; domain: the
// domain name only), read for contact generation, where web search always runs and
// people can only come from pages:
//
//   - website (the default): the stored profile when there is one, the search hits,
//     and the company's site crawled: its homepage, the people pages the homepage
//     links to, the people pages the store holds, and the search hits on the
//     company's host.
//   - profile: the stored profile (name, description, industries, size, location,
//     keywords) instead of the crawl. Its company name shapes the search queries (the
//     LLM engine is also given the profile as context); the pages read are only the
//     search hits on the company's host: no homepage, no link following.
//   - domain: the domain name only. No profile is read (phone numbers are typed
//     without a home country); the queries name the domain; the pages read are only
//     the search hits on the company's host.
//
// In every mode a person comes only from a page that was read: the native engine
// extracts from pages alone, and the LLM engine drops a row whose name occurs on no
// page read (a name the profile alone mentions does not count).
const (
	ModeWebsite = "website"
	ModeProfile = "profile"
	ModeDomain  = "domain"
)

// Warnings of the context modes.
const (
	warnNoProfile = "context_mode profile: some domains have no company profile in Firmo's data; their search queries name the domain only."
)

// mode is the task's context_mode (tasks stored before it was kept: website).
func (p params) mode() string {
	if p.Mode == "" {
		return ModeWebsite
	}
	return p.Mode
}

// material is what one domain's engine reads.
type material struct {
	profile *company.Profile // nil in domain mode, or when none is stored
	pages   []page
}

// gather reads a domain's material as the task's context_mode says: the profile
// (website and profile), the search hits (every mode, queries shaped by icp_text and,
// in profile mode, the company's name) and the pages (the crawled site in website
// mode, the search hits on the company's host otherwise).
func (s *Service) gather(ctx context.Context, rec task.Record, prm params, res *task.Result) (material, error) {
	dom, mode := rec.Key, prm.mode()
	var m material
	if mode != ModeDomain {
		p, err := s.d.Companies.Profile(ctx, dom)
		switch {
		case errors.Is(err, apperr.ErrNotFound):
			if mode == ModeProfile {
				res.Warnings = append(res.Warnings, warnNoProfile)
			}
		case err != nil:
			return m, fmt.Errorf("profile of %s: %w", dom, err)
		default:
			m.profile = &p
		}
	}
	name := ""
	if mode == ModeProfile && m.profile != nil {
		name = m.profile.Name
	}
	hits := s.search(ctx, rec.OrgID, prm, dom, name, res)
	stored, err := s.d.Companies.Pages(ctx, dom)
	if err != nil && !errors.Is(err, apperr.ErrNotFound) {
		return m, fmt.Errorf("pages of %s: %w", dom, err)
	}
	m.pages = s.pages(ctx, dom, stored, hits, mode == ModeWebsite)
	if len(m.pages) == 0 {
		res.Warnings = append(res.Warnings, warnNoPages)
	}
	return m, nil
}

// country is the profile's alpha-2 country ("" without a profile).
func (m material) country() string {
	if m.profile == nil {
		return ""
	}
	return m.profile.Address.Country
}

// clip cuts s to at most n runes.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
