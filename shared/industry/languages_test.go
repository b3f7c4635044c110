package industry

import (
	"strings"
	"testing"
)

func TestTextLang(t *testing.T) {
	stops, err := parseStopwords(stopwordsFile)
	if err != nil {
		t.Fatal(err)
	}
	ix := newStopIndex(stops)
	for _, c := range []struct{ code, text, want string }{
		// The extractor knows only the seven full languages: a Swedish page arrives as German.
		{"deu", "Vi är ett byggföretag som bygger och renoverar hus åt dig och din familj. Kontakta oss för en offert på ditt projekt.", "sv"},
		{"nld", "Vi er et rådgivende ingeniørfirma og hjelper deg med byggesaken din. Ta kontakt med oss for et tilbud, det er ikke vanskelig.", "no"},
		{"deu", "Wir sind ein Familienbetrieb und bauen für Sie Häuser, die in der Region seit Jahren geschätzt werden.", "de"},
		{"eng", "We are a family business and we build houses for you in the region.", "en"},
		{"und", "株式会社サンプルは家庭用品のメーカーです。お問い合わせはこちら。", "ja"},
		{"", "我们是一家专业的医疗器械制造商，提供手术器械和诊断设备。", "zh"},
		{"pol", "anything", "pl"},
		// A few Danish words in an English text do not make it Danish.
		{"eng", "Our restaurant in Copenhagen serves Danish food: smørrebrød og øl. Book a table for the evening.", "en"},
	} {
		if got := textLang(c.code, ix, c.text); got != c.want {
			t.Errorf("textLang(%q, %.40q) = %s, want %s", c.code, c.text, got, c.want)
		}
	}
}

func TestCJKCharacterTokens(t *testing.T) {
	a := newAnalyzer("ja", nil)
	var stems []string
	for _, tok := range a.tokens("不動産の売買") {
		stems = append(stems, tok.stem)
	}
	if got := strings.Join(stems, " "); got != "不 動 産 の 売 買" {
		t.Errorf("tokens = %q, want one token a character", got)
	}
	if f := a.termFeatures("不動産"); strings.Join(f, ",") != "不 動,動 産" {
		t.Errorf("termFeatures(不動産) = %q, want its two character pairs", f)
	}
}

func TestLexiconLanguagesCoverEveryIndustry(t *testing.T) {
	stops, _ := parseStopwords(stopwordsFile)
	lex, err := loadLexicon(stops)
	if err != nil {
		t.Fatal(err)
	}
	has := map[string]map[string]bool{}
	for _, e := range lex {
		if has[e.value] == nil {
			has[e.value] = map[string]bool{}
		}
		has[e.value][e.lang] = true
	}
	for _, in := range taxonomy {
		for _, l := range lexiconLanguages {
			if !has[in.Value][l] {
				t.Errorf("%s has no lexicon line in %s", in.Value, l)
			}
		}
	}
	for _, l := range lexiconLanguages[:5] { // the CJK languages need no stopwords
		if len(stops[l]) < 40 {
			t.Errorf("%d stopwords in %s, want at least 40", len(stops[l]), l)
		}
	}
}

func TestClassifiesLexiconLanguages(t *testing.T) {
	c := New()
	for _, x := range []struct{ lang, text, want string }{
		{"deu", "Redovisningsbyrå i Malmö: bokföring, bokslut och skatterådgivning för små och medelstora företag.", "FINANCIAL_SERVICES"},
		{"nld", "Bilverksted i Tromsø: service og reparasjon av alle bilmerker, EU-kontroll og dekkskift.", "AUTOMOTIVE"},
		{"deu", "Tandlæge i Aarhus: klinik med erfarne tandlæger, tandrensning og akut hjælp for patienter.", "HEALTHCARE"},
		{"", "Tilitoimisto Helsingissä: kirjanpito, palkanlaskenta ja veroneuvonta yrityksille.", "FINANCIAL_SERVICES"},
		{"pol", "Biuro rachunkowe w Krakowie: księgowość, kadry i płace, doradztwo podatkowe dla firm.", "FINANCIAL_SERVICES"},
		{"", "東京の法律事務所です。弁護士が企業法務と訴訟を担当します。", "LEGAL_SERVICES"},
		{"", "我们是专业的物流公司，提供货运、仓储和配送服务。", "LOGISTICS"},
	} {
		r := c.Classify(x.text, x.lang)
		if top := topOf(r.Groups); top != x.want {
			t.Errorf("Classify(%.40q) = %v, want %s first", x.text, r.Groups, x.want)
		}
	}
}
