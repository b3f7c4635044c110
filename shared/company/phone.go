package company

import (
	"strings"

	"github.com/nyaruka/phonenumbers"
)

// E164 parses a phone number as written in a country (alpha-2; a number starting with
// "+" or "00" needs none) and returns its E.164 form, or false when it is not a valid
// number there.
func E164(raw, country string) (string, bool) {
	s := strings.TrimSpace(raw)
	if s == "" || len(s) > 40 {
		return "", false
	}
	if rest, ok := strings.CutPrefix(s, "00"); ok {
		s = "+" + rest
	}
	n, err := phonenumbers.Parse(s, strings.ToUpper(country))
	if err != nil || !phonenumbers.IsValidNumber(n) {
		return "", false
	}
	return phonenumbers.Format(n, phonenumbers.E164), true
}
