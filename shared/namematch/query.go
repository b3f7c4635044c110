package namematch

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/geo"
)

// Confidence bounds (spec: 50 always; min_match_confidence 50-100, inclusive).
const (
	MinConfidence     = 50
	MaxConfidence     = 100
	DefaultConfidence = MinConfidence
)

// Field limits of a query.
const (
	maxCityRunes  = 100
	maxZipRunes   = 20
	maxPhoneRunes = 40
	maxStateRunes = 100
)

// Query is a match request as the API takes it: the parameters of GET /v1/match, or
// one row of a bulk match with the bulk parameters. It is echoed in the answer.
type Query struct {
	Name               string `json:"name"`
	Country            string `json:"country,omitempty"`
	State              string `json:"state,omitempty"`
	City               string `json:"city,omitempty"`
	ZipCode            string `json:"zip_code,omitempty"`
	Phone              string `json:"phone,omitempty"`
	MinMatchConfidence int    `json:"min_match_confidence"`
	Strict             bool   `json:"strict"`
	LocalMode          bool   `json:"local_mode"`
}

// parsed is a validated query in comparison form.
type parsed struct {
	q Query
	// name is the normalized name (abbreviations expanded unless strict); exact is the
	// normalized name without expansion, which strict matching compares for equality.
	name  Name
	exact string
	// country is alpha-2; state an ISO 3166-2 code when it resolved under country (or
	// was a full code); stateRaw is kept when it did not, to be resolved under each
	// candidate's country (a state name given without a country).
	country, state, stateRaw string
	city, zip                string
	// phone is E.164 when the number parsed; phoneDigits are its digits otherwise (a
	// local number without a country), compared with the end of candidates' numbers.
	phone, phoneDigits string
}

// parseQuery validates a query strictly (GET /v1/match): every malformed parameter
// is a 422 naming it. An unresolvable state is not an error: it is ignored.
func parseQuery(q Query) (*parsed, error) {
	return parse(q, false)
}

// parseRow reads one bulk row leniently: a country given as a name or alpha-3 code
// is accepted, and a country or phone that cannot be read is ignored rather than
// failing the row; only a blank or overlong name is an error (naming field "name").
func parseRow(q Query) (*parsed, error) {
	return parse(q, true)
}

func parse(q Query, lenient bool) (*parsed, error) {
	q = trimQuery(q)
	if q.MinMatchConfidence == 0 {
		q.MinMatchConfidence = DefaultConfidence
	}
	if q.MinMatchConfidence < MinConfidence || q.MinMatchConfidence > MaxConfidence {
		return nil, apperr.Invalid("min_match_confidence", "min_match_confidence must be between %d and %d, not %d", MinConfidence, MaxConfidence, q.MinMatchConfidence)
	}
	name, err := ParseName("name", q.Name, !q.Strict)
	if err != nil {
		return nil, err
	}
	p := &parsed{q: q, name: name, exact: Normalize(q.Name, false).String()}
	if err := p.location(lenient); err != nil {
		return nil, err
	}
	if err := p.parsePhone(lenient); err != nil {
		return nil, err
	}
	return p, nil
}

func trimQuery(q Query) Query {
	q.Name = strings.TrimSpace(q.Name)
	q.Country = strings.TrimSpace(q.Country)
	q.State = strings.TrimSpace(q.State)
	q.City = strings.TrimSpace(q.City)
	q.ZipCode = strings.TrimSpace(q.ZipCode)
	q.Phone = strings.TrimSpace(q.Phone)
	return q
}

func (p *parsed) location(lenient bool) error {
	q := p.q
	if q.Country != "" {
		if lenient {
			if cc, err := company.CountryCode(q.Country); err == nil {
				p.country = cc
			}
		} else {
			c, ok := geo.LookupCountry(q.Country)
			if !ok || len(q.Country) != 2 {
				return apperr.Invalid("country", "country must be an ISO 3166-1 alpha-2 code such as US or DE, not %q", q.Country)
			}
			p.country = c.Alpha2
		}
	}
	for _, f := range []struct {
		name, value string
		max         int
	}{{"state", q.State, maxStateRunes}, {"city", q.City, maxCityRunes}, {"zip_code", q.ZipCode, maxZipRunes}} {
		if utf8.RuneCountInString(f.value) > f.max {
			if lenient {
				continue
			}
			return apperr.Invalid(f.name, "%s is at most %d characters", f.name, f.max)
		}
	}
	if q.State != "" && utf8.RuneCountInString(q.State) <= maxStateRunes {
		switch code, ok := resolveState(p.country, q.State); {
		case ok:
			p.state = code
			if p.country == "" {
				// A full code ("US-CA") names its country too.
				p.country = code[:2]
			}
		case p.country == "":
			p.stateRaw = q.State
		}
	}
	if utf8.RuneCountInString(q.City) <= maxCityRunes {
		p.city = CityKey(p.country, q.City)
	}
	if utf8.RuneCountInString(q.ZipCode) <= maxZipRunes {
		p.zip = ZipKey(q.ZipCode)
	}
	return nil
}

// resolveState resolves a state under a country, or alone when it is a full ISO
// 3166-2 code.
func resolveState(country, state string) (string, bool) {
	if country != "" {
		return geo.ResolveState(country, state)
	}
	if s, ok := geo.LookupSubdivision(strings.ToUpper(state)); ok && strings.Contains(state, "-") {
		return s.Code, true
	}
	return "", false
}

func (p *parsed) parsePhone(lenient bool) error {
	raw := p.q.Phone
	if raw == "" {
		return nil
	}
	if utf8.RuneCountInString(raw) > maxPhoneRunes {
		if lenient {
			return nil
		}
		return apperr.Invalid("phone", "phone is at most %d characters", maxPhoneRunes)
	}
	if e, ok := company.E164(raw, p.country); ok {
		p.phone = e
		return nil
	}
	var digits strings.Builder
	for _, r := range raw {
		switch {
		case r >= '0' && r <= '9':
			digits.WriteRune(r)
		case unicode.IsSpace(r) || strings.ContainsRune("+-./()", r):
		default:
			if lenient {
				return nil
			}
			return apperr.Invalid("phone", "phone must be a telephone number in E.164 (+14155550100) or local form, not %q", raw)
		}
	}
	d := digits.String()
	if strings.HasPrefix(raw, "+") || len(d) < 6 || len(d) > 15 {
		if lenient {
			return nil
		}
		return apperr.Invalid("phone", "phone %q is not a valid telephone number", raw)
	}
	// A local number whose country is unknown: keep its digits without the trunk
	// prefix, to compare with the end of candidates' E.164 numbers.
	p.phoneDigits = strings.TrimLeft(d, "0")
	return nil
}
