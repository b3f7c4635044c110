// Package domain normalizes company domains, the key every Firmo record is stored under.
//
// Users send domains in every shape: bare names, URLs, e-mail addresses, upper case,
// Unicode. Normalize turns all of them into one ASCII registrable domain
// ("https://WWW.Shop.Example.co.uk:8080/x?q" -> "example.co.uk"), so a company is found
// whichever of its hosts was typed. Host does the same but keeps subdomains, for fetching.
//
// Rules, in order:
//   - surrounding white space is trimmed and the input lowercased;
//   - a scheme ("https://", also a bare "//"), userinfo ("user:pass@", and so the local part
//     of an e-mail address), path, query, fragment, a numeric port and one trailing dot are
//     removed;
//   - the host is converted to ASCII with IDNA 2008/UTS #46 (the lookup profile of
//     golang.org/x/net/idna), so "münchen.de" becomes "xn--mnchen-3ya.de";
//   - IP addresses, hosts with white space or empty labels, labels over 63 or names over 253
//     octets, single-label names and names whose top-level domain is not in the public suffix
//     list are rejected;
//   - Normalize reduces the host to its registrable domain (eTLD+1) with the public suffix
//     list, ICANN and private sections alike: "shop.example.co.uk" -> "example.co.uk",
//     "app.foo.github.io" -> "foo.github.io". A host that is itself a public suffix is
//     rejected ("co.uk"), except a private-section suffix, which is a domain some company
//     registered ("github.io", "blogspot.com") and is kept as its ICANN registrable domain.
package domain

import (
	"net/netip"
	"strings"
	"unicode"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"

	"github.com/firmoapi/firmo/shared/apperr"
)

// DNS limits (RFC 1035), checked on the ASCII form.
const (
	maxNameLen  = 253
	maxLabelLen = 63
)

// maxEcho bounds how much of a rejected input is quoted back in error messages.
const maxEcho = 100

// Normalize returns the registrable domain of input in ASCII form, or an error wrapping
// apperr.ErrInvalid that says why input is no domain.
func Normalize(input string) (string, error) {
	return NormalizeField("", input)
}

// NormalizeField is Normalize for a request parameter: the error is an *apperr.Error
// naming field, ready for a 422 answer.
func NormalizeField(field, input string) (string, error) {
	host, reason := host(input)
	if reason != "" {
		return "", invalid(field, input, reason)
	}
	reg, reason := registrable(host)
	if reason != "" {
		return "", invalid(field, input, reason)
	}
	return reg, nil
}

// Host returns the normalized host of input with its subdomains kept, for building URLs.
// A leading "www." is dropped unless what remains would be a bare public suffix
// ("www.com" stays). The error wraps apperr.ErrInvalid.
func Host(input string) (string, error) {
	h, reason := host(input)
	if reason == "" {
		_, reason = registrable(h)
	}
	if reason != "" {
		return "", invalid("", input, reason)
	}
	if rest, ok := strings.CutPrefix(h, "www."); ok {
		if _, reason := registrable(rest); reason == "" {
			return rest, nil
		}
	}
	return h, nil
}

func invalid(field, input, reason string) error {
	echo := strings.TrimSpace(input)
	if len(echo) > maxEcho {
		echo = echo[:maxEcho] + "..."
	}
	return apperr.Invalid(field, "%q is not a valid domain: %s.", echo, reason)
}

// host extracts and validates the ASCII host name of input. A non-empty reason explains
// a rejection in words fit for an API user.
func host(input string) (h, reason string) {
	s := strings.ToLower(strings.TrimSpace(input))
	if s == "" {
		return "", "it is empty"
	}
	s = stripScheme(s)
	if i := strings.IndexAny(s, "/?#\\"); i >= 0 {
		s = s[:i]
	}
	if i := strings.LastIndexByte(s, '@'); i >= 0 {
		s = s[i+1:]
	}
	if _, err := netip.ParseAddr(s); err == nil || strings.HasPrefix(s, "[") {
		return "", "IP addresses are not domains"
	}
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		if !allDigits(s[i+1:]) {
			return "", "the port is not a number"
		}
		s = s[:i]
	}
	s = strings.TrimSuffix(s, ".")
	if s == "" {
		return "", "it has no host name"
	}
	if strings.IndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
		return "", "it contains white space"
	}
	if _, err := netip.ParseAddr(s); err == nil {
		return "", "IP addresses are not domains"
	}
	ascii, err := idna.Lookup.ToASCII(s)
	if err != nil {
		return "", "it contains characters or labels not allowed in domain names"
	}
	if reason := checkLabels(ascii); reason != "" {
		return "", reason
	}
	return ascii, ""
}

// stripScheme removes "scheme://" or a protocol-relative "//".
func stripScheme(s string) string {
	if rest, ok := strings.CutPrefix(s, "//"); ok {
		return rest
	}
	i := strings.Index(s, "://")
	if i <= 0 {
		return s
	}
	for _, r := range s[:i] {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.') {
			return s
		}
	}
	return s[i+3:]
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func checkLabels(ascii string) string {
	if len(ascii) > maxNameLen {
		return "it is longer than 253 characters"
	}
	labels := strings.Split(ascii, ".")
	if len(labels) < 2 {
		return "it has no top-level domain"
	}
	for _, l := range labels {
		switch {
		case l == "":
			return "it has an empty label"
		case len(l) > maxLabelLen:
			return "a label is longer than 63 characters"
		}
	}
	return ""
}

// registrable returns the registrable domain of a validated ASCII host.
func registrable(h string) (string, string) {
	tld := h[strings.LastIndexByte(h, '.')+1:]
	// The list answers an unlisted TLD with the implicit "*" rule and icann=false; every
	// real TLD is in the ICANN section. A probe label is needed because a TLD listed only
	// through a wildcard ("*.ck") is not itself a rule.
	if _, icann := publicsuffix.PublicSuffix("x." + tld); !icann {
		return "", "." + tld + " is not a known top-level domain"
	}
	suffix, icann := publicsuffix.PublicSuffix(h)
	if suffix != h {
		reg, err := publicsuffix.EffectiveTLDPlusOne(h)
		if err != nil {
			return "", "it has no registrable domain"
		}
		return reg, ""
	}
	if icann {
		return "", "it is a public suffix, not a registrable domain"
	}
	return icannRegistrable(h), ""
}

// icannRegistrable returns the shortest suffix of h that is not an ICANN public suffix:
// the domain a registrar sold, ignoring private-section rules. h must have a known TLD.
func icannRegistrable(h string) string {
	end := len(h)
	for {
		i := strings.LastIndexByte(h[:end], '.')
		candidate := h[i+1:]
		if suffix, icann := publicsuffix.PublicSuffix(candidate); !(icann && suffix == candidate) {
			return candidate
		}
		if i < 0 {
			return h
		}
		end = i
	}
}
