package query

import "context"

// Scope decides which contacts a search may return, from its inclusion and exclusion
// queries:
//   - exclusion: a contact is dropped when its company domain is in an excluded domain
//     list or its persona id in an excluded persona list;
//   - inclusion: when any inclusion query is given, a contact is kept only when its
//     domain is in an included domain list or its persona id in an included persona
//     list (the union of all inclusion queries). Exclusion wins over inclusion.
//
// Domains are compared in domain.Normalize form, the form records are stored in.
type Scope struct {
	include              bool
	inDomains, exDomains map[string]struct{}
	inPeople, exPeople   map[int64]struct{}
}

// Scope resolves inclusion and exclusion query ids into a Scope. Either list may be empty.
func (s *Service) Scope(ctx context.Context, orgID string, inclusion, exclusion []string) (Scope, error) {
	var sc Scope
	var err error
	if len(inclusion) > 0 {
		sc.include = true
		if sc.inDomains, sc.inPeople, err = s.Resolve(ctx, orgID, inclusion); err != nil {
			return Scope{}, err
		}
	}
	if sc.exDomains, sc.exPeople, err = s.Resolve(ctx, orgID, exclusion); err != nil {
		return Scope{}, err
	}
	return sc, nil
}

// Allows says whether the contact with personaID at the company domain may be returned.
func (sc Scope) Allows(domain string, personaID int64) bool {
	if _, ok := sc.exDomains[domain]; ok {
		return false
	}
	if _, ok := sc.exPeople[personaID]; ok {
		return false
	}
	if !sc.include {
		return true
	}
	if _, ok := sc.inDomains[domain]; ok {
		return true
	}
	_, ok := sc.inPeople[personaID]
	return ok
}

// AllowsCompany says whether any contact at domain may be returned: a pre-filter for
// company-level work (it cannot know persona lists' companies, so with an included
// persona list it keeps every company not excluded).
func (sc Scope) AllowsCompany(domain string) bool {
	if _, ok := sc.exDomains[domain]; ok {
		return false
	}
	if !sc.include || len(sc.inPeople) > 0 {
		return true
	}
	_, ok := sc.inDomains[domain]
	return ok
}

// Restricted reports whether an inclusion query narrows the search.
func (sc Scope) Restricted() bool { return sc.include }

// IncludedDomains and IncludedPersonas are the inclusion sets, for searches that can
// narrow their candidates up front (nil without inclusion queries).
func (sc Scope) IncludedDomains() map[string]struct{} { return sc.inDomains }

// IncludedPersonas: see IncludedDomains.
func (sc Scope) IncludedPersonas() map[int64]struct{} { return sc.inPeople }

// ExcludedDomains and ExcludedPersonas are the exclusion sets, for searches that run the
// scope as a query of their own (nil without exclusion queries).
func (sc Scope) ExcludedDomains() map[string]struct{} { return sc.exDomains }

// ExcludedPersonas: see ExcludedDomains.
func (sc Scope) ExcludedPersonas() map[int64]struct{} { return sc.exPeople }
