package industry

import (
	"bufio"
	_ "embed"
	"fmt"
	"math"
	"strings"
)

// Business models are read from cue phrases (business_models.txt), matched word for
// word on the text's lowercased, accent-folded words with stopwords kept ("for
// businesses", "für Unternehmen", "entre particuliers"). Words, not stems: "company"
// (the firm itself) is no cue where "companies" (its customers) is, and stemming
// would also turn Dutch "overheid" (government) into "over". Each label's hits (an occurrence of one of its
// cues, at most cueCap per cue) add up, plus a prior: the label typical of the
// text's top industry (typicalModel), weighted by that industry's score. A label's
// confidence is 1 - exp(-hits/2): one clear cue gives 0.39, two 0.63, four 0.86.
// Public bodies (GOVERNMENT on top with a score of at least govMinTop) serve
// citizens and businesses: for them B2C hits count as G2C and B2B hits as G2B, and
// their own G2C and G2B cues count; for everyone else those cues do not.

//go:embed business_models.txt
var businessModelsFile string

// businessModels are the labels of Result.BusinessModel.
var businessModels = []string{"B2B", "B2C", "B2G", "G2B", "G2C", "D2C", "C2C", "C2B"}

// BusinessModels returns the labels Result.BusinessModel may hold.
func BusinessModels() []string { return append([]string(nil), businessModels...) }

const (
	cueCap    = 3    // occurrences of one cue that count
	minModel  = 0.15 // least confidence reported
	priorHits = 1.0  // hits the typical model of the top industry adds, times its score
	govMinTop = 0.4  // GOVERNMENT score from which a text is a public body's
	priorTie  = 0.05 // hits the typical model adds beyond its weighted prior (ties)
)

// typicalModel is the business model most companies of an industry have: a page
// that says nothing about its customers gets it, weighted by the industry's score.
// Where an industry's companies split (law firms, accountants, builders serve
// households and firms alike), the label is the one of the small local firms whose
// pages say least.
var typicalModel = map[string]string{
	"SAAS": "B2B", "SOFTWARE": "B2B", "CLOUD_COMPUTING": "B2B", "IT_SERVICES": "B2B",
	"CYBERSECURITY": "B2B", "TELECOMMUNICATIONS": "B2C", "ELECTRONICS": "B2B",
	"FINANCIAL_SERVICES": "B2B", "BANKING": "B2C", "INSURANCE": "B2C", "REAL_ESTATE": "B2C",
	"HEALTHCARE": "B2C", "PHARMACEUTICALS": "B2B", "MEDICAL_DEVICES": "B2B", "EDUCATION": "B2C",
	"RETAIL": "B2C", "ECOMMERCE": "B2C", "CONSUMER_GOODS": "B2C", "FOOD_BEVERAGE": "B2C",
	"HOSPITALITY": "B2C", "TRAVEL": "B2C", "MANUFACTURING": "B2B", "AUTOMOTIVE": "B2C",
	"AEROSPACE_DEFENSE": "B2G", "CONSTRUCTION": "B2C", "ENERGY": "B2C", "AGRICULTURE": "B2B",
	"LOGISTICS": "B2B", "MEDIA_ENTERTAINMENT": "B2C", "MARKETING_ADVERTISING": "B2B",
	"LEGAL_SERVICES": "B2C", "CONSULTING": "B2B", "STAFFING_RECRUITING": "B2B", "GOVERNMENT": "G2C",
	"NON_PROFIT": "B2C", "CHEMICALS": "B2B", "MINING_METALS": "B2B", "ENVIRONMENTAL_SERVICES": "B2B",
	"PERSONAL_SERVICES": "B2C",
}

// typicalSubModel overrides typicalModel where a sub-industry's customers differ
// from its industry's: wealth managers serve households, payment firms merchants.
var typicalSubModel = map[string]string{
	"FINANCIAL_SERVICES/PAYMENTS": "B2B", "FINANCIAL_SERVICES/ASSET_MANAGEMENT": "B2C",
	"FINANCIAL_SERVICES/ACCOUNTING_TAX": "B2B", "FINANCIAL_SERVICES/FINTECH_LENDING": "B2C",
	"FINANCIAL_SERVICES/CRYPTO": "B2C", "FINANCIAL_SERVICES/PRIVATE_EQUITY_VC": "B2B",
	"FINANCIAL_SERVICES/FINANCIAL_ADVISORY": "B2C",
	"BANKING/COMMERCIAL_BANKING":            "B2B", "BANKING/INVESTMENT_BANKING": "B2B", "INSURANCE/REINSURANCE": "B2B",
	"REAL_ESTATE/COMMERCIAL_PROPERTY": "B2B", "REAL_ESTATE/COWORKING": "B2B", "REAL_ESTATE/PROPTECH": "B2B",
	"EDUCATION/CORPORATE_TRAINING": "B2B", "HOSPITALITY/CATERING_EVENTS": "B2B",
	"CONSTRUCTION/COMMERCIAL_BUILDING": "B2B", "CONSTRUCTION/CIVIL_ENGINEERING": "B2G", "CONSTRUCTION/BUILDING_MATERIALS": "B2B",
	"ENERGY/OIL_GAS": "B2B", "ENERGY/WIND": "B2B", "ENERGY/HYDROGEN": "B2B",
	"LOGISTICS/REMOVALS": "B2C", "AUTOMOTIVE/AUTO_PARTS": "B2B", "ELECTRONICS/CONSUMER_ELECTRONICS": "B2C",
	"FOOD_BEVERAGE/FOOD_PROCESSING": "B2B", "PHARMACEUTICALS/PHARMACIES": "B2C", "PHARMACEUTICALS/NUTRACEUTICALS": "B2C",
	"MEDICAL_DEVICES/HEARING_VISION": "B2C", "TELECOMMUNICATIONS/NETWORK_INFRASTRUCTURE": "B2B",
	"TELECOMMUNICATIONS/VOIP_UNIFIED_COMMS": "B2B", "TELECOMMUNICATIONS/SATELLITE": "B2B", "SOFTWARE/MOBILE_APPS": "B2C",
	"AGRICULTURE/AGTECH": "B2B", "MEDIA_ENTERTAINMENT/EVENTS": "B2C", "STAFFING_RECRUITING/JOB_BOARDS": "B2C",
}

// priorFloor is the least industry score the typical model is weighted with: a page
// whose industry is uncertain still gets its best guess's customers.
const priorFloor = 0.5

// cue is one phrase of a label, as folded words.
type cue struct {
	id    int
	label string
	words []string
}

// cueSet indexes the cues by their first word.
type cueSet struct{ byFirst map[string][]cue }

func loadCues(stops map[string]map[string]bool) (*cueSet, error) {
	a := newAnalyzer("en", stops)
	valid := map[string]bool{}
	for _, l := range businessModels {
		valid[l] = true
	}
	set := &cueSet{byFirst: map[string][]cue{}}
	seen := map[string]bool{}
	label := ""
	sc := bufio.NewScanner(strings.NewReader(businessModelsFile))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, "["):
			label = strings.TrimSuffix(strings.TrimPrefix(line, "["), "]")
			if !valid[label] {
				return nil, fmt.Errorf("business_models.txt:%d: %q is not a business model", n, label)
			}
			continue
		}
		lang, phrases, ok := strings.Cut(line, ":")
		if !ok || label == "" || (lang != "*" && langCodes[lang] != lang) {
			return nil, fmt.Errorf("business_models.txt:%d: want \"lang: phrase, phrase\" under a [LABEL] header", n)
		}
		for _, p := range strings.Split(phrases, ",") {
			if p = strings.TrimSpace(p); p == "" {
				continue
			}
			var words []string
			for _, t := range a.tokens(p) {
				words = append(words, fold(t.surface))
			}
			key := label + "|" + strings.Join(words, " ")
			if len(words) == 0 || seen[key] {
				continue
			}
			seen[key] = true
			set.byFirst[words[0]] = append(set.byFirst[words[0]], cue{id: len(seen), label: label, words: words})
		}
	}
	return set, sc.Err()
}

// hits counts the cue occurrences of each label in a text.
func (s *cueSet) hits(toks []token) map[string]float64 {
	words := make([]string, len(toks))
	for i, t := range toks {
		words[i] = fold(t.surface)
	}
	per := map[int]int{} // occurrences per cue id
	out := map[string]float64{}
	for i, w := range words {
		for _, c := range s.byFirst[w] {
			if i+len(c.words) > len(words) || !matches(words[i:], c.words) || per[c.id] >= cueCap {
				continue
			}
			per[c.id]++
			out[c.label]++
		}
	}
	return out
}

func matches(words, cue []string) bool {
	for j, w := range cue {
		if words[j] != w {
			return false
		}
	}
	return true
}

// businessModel scores the business-model labels of a text whose top industry (if
// any) is topIndustry with score topScore, and whose best sub-industry of it (if
// any) is topSub.
func (s *cueSet) businessModel(toks []token, topIndustry, topSub string, topScore float64) map[string]float64 {
	h := s.hits(toks)
	m := typicalModel[topIndustry]
	if sm := typicalSubModel[topSub]; sm != "" && strings.HasPrefix(topSub, topIndustry+"/") {
		m = sm
	}
	if m != "" {
		// priorTie makes the typical model win a tie with one cue's worth of hits for
		// another label: a single cue is as often the page describing itself
		// ("industrial design", "official distributors") as its customers.
		h[m] += priorHits*max(topScore, priorFloor) + priorTie
	}
	public := topIndustry == "GOVERNMENT" && topScore >= govMinTop
	if public {
		h["G2C"] += h["B2C"]
		h["G2B"] += h["B2B"]
		delete(h, "B2C")
		delete(h, "B2B")
		delete(h, "B2G")
	} else {
		delete(h, "G2C")
		delete(h, "G2B")
	}
	out := map[string]float64{}
	for label, n := range h {
		if conf := 1 - math.Exp(-n/2); conf >= minModel {
			out[label] = conf
		}
	}
	return out
}
