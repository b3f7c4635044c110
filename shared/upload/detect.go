package upload

import (
	"strings"
	"unicode"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/domain"
)

// ColumnKind is what DetectColumn looks for.
type ColumnKind int

// The column kinds.
const (
	// Domain is a column of company domains or website URLs.
	Domain ColumnKind = iota + 1
	// Name is a column of company names.
	Name
)

// param is the request parameter that names a column of the kind.
func (k ColumnKind) param() string {
	if k == Name {
		return "name_column"
	}
	return "domain_column"
}

func (k ColumnKind) String() string {
	if k == Name {
		return "company name"
	}
	return "domain"
}

// headerNames are the header names of a kind's column, normalized (see headerKey),
// best first.
func headerNames(k ColumnKind) []string {
	if k == Name {
		return []string{
			"companyname", "company", "organisationname", "organizationname", "organisation",
			"organization", "accountname", "account", "businessname", "business", "name",
			"legalname", "firmname", "firm", "employer", "org",
			"firma", "firmenname", "unternehmen", "entreprise", "societe", "raisonsociale", "empresa",
		}
	}
	return []string{
		"domain", "companydomain", "domainname", "website", "companywebsite", "websiteurl",
		"url", "companyurl", "homepage", "web", "site", "webaddress", "webseite", "siteweb",
	}
}

// headerWords are the words that make a header a kind's column when no header is one
// of its names ("Primary Domain", "Company (legal)"). A header holding a domain word
// is never a name column ("Company Website").
func headerWords(k ColumnKind) []string {
	if k == Name {
		return []string{"company", "organisation", "organization", "business"}
	}
	return []string{"domain", "website", "url", "homepage"}
}

// headerKey is a header lowercased with everything but letters and digits removed, so
// "Company_Domain", "company domain" and "Company-Domain" are one.
func headerKey(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch r {
		case 'é', 'è':
			r = 'e'
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// DetectColumn returns the index of t's column of the kind: a header that is one of
// the kind's names (the best by headerNames order), else a header holding one of its
// words, else, for Domain, the column whose values are mostly domains or URLs (e-mail
// addresses do not count), else, when t has one column, that column. The error is
// apperr.Invalid naming the parameter that would name the column (domain_column or
// name_column).
func DetectColumn(t Table, kind ColumnKind) (int, error) {
	keys := make([]string, len(t.Header))
	for i, h := range t.Header {
		keys[i] = headerKey(h)
	}
	for _, name := range headerNames(kind) {
		for i, k := range keys {
			if k == name {
				return i, nil
			}
		}
	}
	for i, k := range keys {
		if containsAny(k, headerWords(kind)) && (kind == Domain || !containsAny(k, headerWords(Domain))) {
			return i, nil
		}
	}
	if kind == Domain {
		if i := domainColumnByValues(t); i >= 0 {
			return i, nil
		}
	}
	if len(t.Header) == 1 {
		return 0, nil
	}
	return -1, apperr.Invalid(kind.param(), "no column of the file was recognised as the %s column; name it with %s (the columns are %s)",
		kind, kind.param(), strings.Join(t.Header, ", "))
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// domainColumnByValues returns the column whose sampled non-blank values are most
// often domains or URLs, if more than half of them are; -1 if none is.
func domainColumnByValues(t Table) int {
	const sample = 200
	best, bestShare := -1, 0.5
	for col := range t.Header {
		seen, hits := 0, 0
		for _, row := range t.Rows {
			v := strings.TrimSpace(row[col])
			if v == "" {
				continue
			}
			seen++
			if looksLikeDomain(v) {
				hits++
			}
			if seen == sample {
				break
			}
		}
		if seen == 0 {
			continue
		}
		if share := float64(hits) / float64(seen); share > bestShare {
			best, bestShare = col, share
		}
	}
	return best
}

// looksLikeDomain reports whether v is a domain or a URL (not an e-mail address, which
// domain.Normalize would also accept).
func looksLikeDomain(v string) bool {
	if strings.Contains(v, "@") {
		return false
	}
	_, err := domain.Normalize(v)
	return err == nil
}
