package geo

import "strings"

// Language is an ISO 639-2 entry.
type Language struct {
	Alpha2        string // ISO 639-1 code when there is one: "de"
	Alpha3        string // ISO 639-2 terminology (T) code: "deu"
	Bibliographic string // ISO 639-2 bibliographic (B) code when it differs from T: "ger"
	Name          string // English name: "German"
	CommonName    string // when iso-codes gives one
}

// LookupLanguage returns the language with the given ISO 639-1 code, ISO 639-2 T code or
// ISO 639-2 B code, any case.
func LookupLanguage(code string) (Language, bool) {
	code = strings.ToLower(strings.TrimSpace(code))
	i, ok := tables().language[code]
	if !ok {
		return Language{}, false
	}
	return languages[i], true
}

// Language639_2 returns the ISO 639-2 terminology code for a language code: an ISO 639-1
// code ("en" -> "eng", "de" -> "deu") or an ISO 639-2 code in either form ("ger" -> "deu",
// "deu" -> "deu").
func Language639_2(code string) (string, bool) {
	l, ok := LookupLanguage(code)
	return l.Alpha3, ok
}

// Language639_1 returns the ISO 639-1 code for a language code: an ISO 639-2 code in
// either form ("deu" or "ger" -> "de") or an ISO 639-1 code itself. Languages without a
// two-letter code ("haw") answer false.
func Language639_1(code string) (string, bool) {
	l, ok := LookupLanguage(code)
	if !ok || l.Alpha2 == "" {
		return "", false
	}
	return l.Alpha2, true
}
