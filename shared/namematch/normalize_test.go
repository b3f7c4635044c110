package namematch

import (
	"errors"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
)

func TestNormalize(t *testing.T) {
	cases := []struct {
		name, in string
		expand   bool
		want     string
	}{
		// Unicode folding
		{"accents", "Société Générale", true, "societe generale"},
		{"sharp s", "Großhandel Weiß GmbH", true, "grosshandel weiss"},
		{"letters without decomposition", "Ørsted A/S", true, "orsted"},
		{"full width", "ＡＣＭＥ Corp", true, "acme"},
		{"polish l", "Łódź Logistics Sp. z o.o.", true, "lodz logistics"},
		// punctuation
		{"apostrophe inside a word", "McDonald's Corporation", true, "mcdonalds"},
		{"typographic apostrophe", "Macy’s, Inc.", true, "macys"},
		{"hyphen separates", "Coca-Cola Company", true, "coca cola"},
		{"commas and dots", "Smith, Jones, & Co.", true, "smith jones"},
		{"tight ampersand joins", "AT&T Inc.", true, "att"},
		{"tight ampersand P&G", "P&G", true, "pg"},
		{"spaced ampersand is a connector", "Procter & Gamble Co.", true, "procter gamble"},
		{"and", "Procter and Gamble", true, "procter gamble"},
		{"und", "Müller und Weber GmbH", true, "muller weber"},
		{"et", "Dupont et Fils SARL", true, "dupont fils"},
		{"y", "García y Hernández S.L.", true, "garcia hernandez"},
		{"e between words", "Rossi e Bianchi S.r.l.", true, "rossi bianchi"},
		{"plus", "Rossi + Bianchi", true, "rossi bianchi"},
		// initials
		{"dotted initials", "A.B.C. Holdings", true, "abc holdings"},
		{"spaced initials", "A B C Holdings", true, "abc holdings"},
		{"initials and a name", "J. P. Morgan & Co.", true, "jp morgan"},
		{"one-letter connector stays an initial", "E Y Partners", true, "ey partners"},
		// legal forms of many countries
		{"Inc", "Acme Inc.", true, "acme"},
		{"Incorporated", "Acme Incorporated", true, "acme"},
		{"LLC", "Acme, L.L.C.", true, "acme"},
		{"Ltd", "Acme Ltd", true, "acme"},
		{"Limited", "Acme Limited", true, "acme"},
		{"PLC", "Acme plc", true, "acme"},
		{"Pty Ltd", "Acme Pty. Ltd.", true, "acme"},
		{"GmbH", "Acme GmbH", true, "acme"},
		{"GmbH & Co. KG", "Acme GmbH & Co. KG", true, "acme"},
		{"AG", "Acme AG", true, "acme"},
		{"SA", "Acme S.A.", true, "acme"},
		{"SAS", "Acme S.A.S.", true, "acme"},
		{"SARL", "Acme S.à r.l.", true, "acme"},
		{"S.p.A.", "Acme S.p.A.", true, "acme"},
		{"S.r.l.", "Acme S.r.l.", true, "acme"},
		{"BV", "Acme B.V.", true, "acme"},
		{"NV", "Acme N.V.", true, "acme"},
		{"Oy", "Acme Oy", true, "acme"},
		{"Oyj", "Acme Oyj", true, "acme"},
		{"AB", "Acme AB (publ)", true, "acme"},
		{"AS", "Acme AS", true, "acme"},
		{"ApS", "Acme ApS", true, "acme"},
		{"KK", "Acme K.K.", true, "acme"},
		{"Kabushiki Kaisha", "Acme Kabushiki Kaisha", true, "acme"},
		{"Co., Ltd.", "Acme Co., Ltd.", true, "acme"},
		{"Sp. z o.o.", "Acme Sp. z o.o.", true, "acme"},
		{"S.L.", "Acme S.L.", true, "acme"},
		{"Ltda", "Acme Ltda.", true, "acme"},
		{"Lda", "Acme Lda.", true, "acme"},
		{"S.A. de C.V.", "Acme S.A. de C.V.", true, "acme"},
		{"S. de R.L. de C.V.", "Acme S. de R.L. de C.V.", true, "acme"},
		{"KG", "Acme KG", true, "acme"},
		{"Sdn Bhd", "Acme Sdn. Bhd.", true, "acme"},
		{"leading PT", "PT Acme Tbk", true, "acme"},
		{"leading OOO", "OOO Romashka", true, "romashka"},
		{"leading the", "The Home Depot, Inc.", true, "home depot"},
		{"only a legal form stays", "AG", true, "ag"},
		{"legal word inside stays", "Limited Brands Inc", true, "limited brands"},
		// abbreviations
		{"Intl", "Acme Intl Corp", true, "acme international"},
		{"Int'l", "Acme Int'l", true, "acme international"},
		{"Mfg", "Acme Mfg. Co.", true, "acme manufacturing"},
		{"Tech and Technologies agree", "Acme Technologies", true, "acme technology"},
		{"Tech", "Acme Tech", true, "acme technology"},
		{"Svcs", "Acme Svcs", true, "acme services"},
		{"Natl", "Natl Bank", true, "national bank"},
		{"Assoc", "Smith Assoc", true, "smith associates"},
		{"Bros", "Warner Bros.", true, "warner brothers"},
		{"Grp", "Acme Grp", true, "acme group"},
		{"Hldgs", "Acme Hldgs", true, "acme holdings"},
		{"Mgmt", "Acme Mgmt", true, "acme management"},
		{"Sys", "Acme Sys", true, "acme systems"},
		{"strict keeps abbreviations", "Acme Intl Corp", false, "acme intl"},
		{"strict keeps plural", "Acme Technologies", false, "acme technologies"},
		// non-Latin scripts stay letters
		{"cyrillic", "ООО Ромашка", true, "ромашка"},
		{"japanese legal suffix inside the word", "トヨタ自動車株式会社", true, "トヨタ自動車"},
		{"japanese legal prefix inside the word", "株式会社トヨタ", true, "トヨタ"},
		{"chinese", "华为技术有限公司", true, "华为技术"},
		{"digits", "3M Company", true, "3m"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Normalize(c.in, c.expand).String(); got != c.want {
				t.Errorf("Normalize(%q, %v) = %q, want %q", c.in, c.expand, got, c.want)
			}
		})
	}
}

func TestParseNameEmptyIs422(t *testing.T) {
	for _, in := range []string{"", "   ", "...", " - & - ", "!!!", "\t\n", "&", "'"} {
		t.Run(in, func(t *testing.T) {
			_, err := ParseName("name", in, true)
			var ae *apperr.Error
			if !errors.As(err, &ae) || !errors.Is(err, apperr.ErrInvalid) || ae.Field != "name" {
				t.Fatalf("ParseName(%q) error = %v, want a 422 naming name", in, err)
			}
		})
	}
	long := make([]byte, MaxNameRunes+1)
	for i := range long {
		long[i] = 'a'
	}
	if _, err := ParseName("name", string(long), true); !errors.Is(err, apperr.ErrInvalid) {
		t.Errorf("a %d-character name: error = %v, want 422", len(long), err)
	}
	if n, err := ParseName("name", " x ", true); err != nil || n.String() != "x" {
		t.Errorf("ParseName(\" x \") = %q, %v; want \"x\"", n.String(), err)
	}
}

func TestAcronym(t *testing.T) {
	cases := []struct{ in, want string }{
		{"International Business Machines Corp", "ibm"},
		{"Bank of America", ""}, // two words once "of" is skipped
		{"Smith Software Inc", ""},
		{"American Broadcasting Company", ""}, // "company" is a legal form: two words left
		{"Hewlett Packard Enterprise", "hpe"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			if got := Normalize(c.in, true).Acronym(); got != c.want {
				t.Errorf("Acronym(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}
