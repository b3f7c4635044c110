package namematch

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"
	"sync"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/gazetteer"
	"github.com/firmoapi/firmo/shared/geo"
)

// Index is the candidate index port: a full-text index over company names and
// alternate names with exact-value location fields. Embedded: shared/namematch/bleveindex (bleve);
// AWS: shared/namematch/osmatch (OpenSearch). The contract suite is namematchtest.Run.
//
// Search errors mean the backend could not answer (the matcher retries, then answers
// 503); an index that answers with no hits is not an error.
type Index interface {
	// Search returns up to req.Limit entries, best first by the backend's relevance.
	Search(ctx context.Context, req Request) ([]Entry, error)
	// Put adds or replaces entries (by domain).
	Put(ctx context.Context, entries []Entry) error
	// Delete removes entries by domain; unknown domains are ignored.
	Delete(ctx context.Context, domains []string) error
	// Fingerprints returns the Fingerprint of every entry, by domain, so a sync writes
	// only what changed.
	Fingerprints(ctx context.Context) (map[string]string, error)
}

// Entry is one company as indexed. Every field but Names is in comparison form, so
// adapters index values as they are, without analysis of their own.
type Entry struct {
	Domain string `json:"domain"`
	// Names are the name and the alternate names as written (stored, not searched).
	Names []string `json:"names"`
	// Text holds each name normalized with abbreviations expanded (space-separated
	// tokens): the full-text field of normal searches.
	Text []string `json:"text"`
	// Exact holds each name normalized without expansion: strict searches match it as
	// a quoted phrase.
	Exact []string `json:"exact"`
	// Joined holds each Text without spaces, so "CocaCola" finds "Coca-Cola".
	Joined []string `json:"joined"`
	// Acronyms of names of three or more words ("ibm" for International Business
	// Machines).
	Acronyms []string `json:"acronyms,omitempty"`
	Country  string   `json:"country,omitempty"` // ISO 3166-1 alpha-2
	State    string   `json:"state,omitempty"`   // ISO 3166-2 code
	City     string   `json:"city,omitempty"`    // CityKey
	Zip      string   `json:"zip,omitempty"`     // ZipKey
	Phones   []string `json:"phones,omitempty"`  // E.164
	// Fingerprint identifies the entry's content (and the normalization version).
	Fingerprint string `json:"fp"`
}

// Request is one candidate search.
type Request struct {
	// Terms are the query's name tokens (normal searches): an entry matches when any
	// term matches a Text token, exactly or within the term's Fuzziness (edits).
	Terms []Term
	// Joined is the query's tokens without spaces, matched against Entry.Joined.
	Joined string
	// Acronym is the query's acronym, matched against Text tokens; a one-token query
	// is also matched against Entry.Acronyms.
	Acronym string
	// Phrase, when set, makes the search strict: entries whose Exact contains this
	// normalized name as a phrase. Terms, Joined and Acronym are then unused.
	Phrase  string
	Filters Filters
	Limit   int
}

// Term is one name token of a search with its weight.
type Term struct {
	Text      string  `json:"text"`
	Boost     float64 `json:"boost"`
	Fuzziness int     `json:"fuzziness"` // 0, 1 or 2 edits
}

// Filters are exact-value conditions an entry must meet; empty ones do not filter.
type Filters struct {
	Country string `json:"country,omitempty"`
	State   string `json:"state,omitempty"`
	City    string `json:"city,omitempty"`
	Zip     string `json:"zip,omitempty"`
	Phone   string `json:"phone,omitempty"`
}

// NormalizationVersion is part of every fingerprint: bump it when Normalize or the
// entry layout changes, and the next sync re-indexes every company.
const NormalizationVersion = 1

// EntryOf builds the index entry of a company record.
func EntryOf(rec company.Record) Entry {
	p := rec.Profile
	e := Entry{Domain: rec.Domain, Country: strings.ToUpper(p.Address.Country)}
	// The profile's name first (what the API shows), then the row's own name when the
	// pipeline chose another, then the alternate names.
	names := append([]string{p.Name, rec.Raw.Name}, rec.Raw.AlternateNames...)
	seen := map[string]bool{}
	for _, n := range names {
		text := Normalize(n, true)
		if len(text.Tokens) == 0 || seen[n] {
			continue
		}
		seen[n] = true
		e.Names = append(e.Names, n)
		e.Text = append(e.Text, text.String())
		e.Exact = append(e.Exact, Normalize(n, false).String())
		e.Joined = append(e.Joined, text.Joined())
		if a := text.Acronym(); a != "" {
			e.Acronyms = append(e.Acronyms, a)
		}
	}
	if e.Country != "" {
		if code, ok := geo.ResolveState(e.Country, p.Address.State); ok {
			e.State = code
		}
	}
	e.City = CityKey(e.Country, p.Address.City)
	e.Zip = ZipKey(p.Address.Zip)
	e.Phones = append(e.Phones, p.Phones...)
	e.Fingerprint = fingerprint(e)
	return e
}

func fingerprint(e Entry) string {
	e.Fingerprint = ""
	b, _ := json.Marshal(e)
	h := fnv.New64a()
	fmt.Fprintf(h, "v%d|", NormalizationVersion)
	h.Write(b)
	return fmt.Sprintf("%016x", h.Sum64())
}

// CityKey is the comparison form of a city: the gazetteer's name for it when the
// gazetteer knows the city (so "Munich" and "München" agree), else the folded text.
// Without a country the first country of the gazetteer knowing the name is used.
func CityKey(country, city string) string {
	if strings.TrimSpace(city) == "" {
		return ""
	}
	if country != "" {
		if p, ok := gazetteer.Lookup(country, city); ok {
			return gazetteer.Fold(p.Name)
		}
		return gazetteer.Fold(city)
	}
	for _, cc := range gazetteerCountries() {
		if p, ok := gazetteer.Lookup(cc, city); ok {
			return gazetteer.Fold(p.Name)
		}
	}
	return gazetteer.Fold(city)
}

var gazetteerCountries = sync.OnceValue(gazetteer.Countries)

// ZipKey is the comparison form of a postal code: upper case, without spaces and
// hyphens.
func ZipKey(zip string) string {
	return strings.ToUpper(strings.NewReplacer(" ", "", "-", "", "\u00a0", "").Replace(strings.TrimSpace(zip)))
}
