package industry

import (
	"bufio"
	_ "embed"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Business models are read from cue phrases (business_models.txt), matched word for
// word on the text's lowercased, accent-folded words with stopwords kept ("for
// businesses", "für Unternehmen", "entre particuliers"). Words, not stems: "company"
// (the firm itself) is no cue where "companies" (its customers) is, and stemming
// would also turn Dutch "overheid" (government) into "over".
//
// Each label's score is the probability that the company serves those customers
// (a page may serve several: firms and households alike). Its prior is what the
// page's industries' companies typically sell to (customerPrior: the two reported
// industries' mixes, weighted by their scores): most a clear industry's typical
// customers ("SaaS sells to businesses"), less a split one's (builders, law firms and
// farms serve households and firms alike). Each cue the page states multiplies its
// label's odds: a strong cue (a phrase naming the customers: "for businesses", "add
// to cart", "public sector") by e^cueOdds, enough to overturn a clear prior; a weak
// one (marked ~ in the file: a word a page also uses about itself or in passing,
// "families", "book", "free quote", "wholesale", "companies") by e^(weakCue*cueOdds),
// enough to decide a split prior but not to overturn a clear one. A cue counts
// 1 + ln n for n occurrences (at most cueCap), more in the page's statements (title,
// description), and a word inside a longer cue is no cue of its own. A page that
// names no customers gets its prior: about 0.75 for a clear industry's typical customers.
// Labels under minModel are left out. The constants were chosen, and the scores'
// calibration measured, on the development homepages (ACCURACY.md).
// Public bodies (GOVERNMENT on top with a score of at least govMinTop) serve
// citizens and businesses: for them B2C cues count as G2C and B2B cues as G2B, and
// their own G2C and G2B cues count; for everyone else those cues do not.

//go:embed business_models.txt
var businessModelsFile string

// businessModels are the labels of Result.BusinessModel.
var businessModels = []string{"B2B", "B2C", "B2G", "G2B", "G2C", "D2C", "C2C", "C2B"}

// BusinessModels returns the labels Result.BusinessModel may hold.
func BusinessModels() []string { return append([]string(nil), businessModels...) }

// bmParams are the constants of the business-model decision (ACCURACY.md says how
// they were chosen: on the development homepages).
type bmParams struct {
	cueOdds   float64 // log-odds one strong cue adds to its label
	weakCue   float64 // a weak cue's share of a strong one's log-odds
	statement float64 // weight of a cue in the title or description (running text: 1)
	clear     float64 // prior share of a clear industry's typical model
	split     float64 // prior share of a split industry's typical model
}

var defaultBM = bmParams{cueOdds: 3.5, weakCue: 0.4, statement: 1.5, clear: 0.75, split: 0.55}

const (
	cueCap   = 3     // occurrences of one cue that count
	minModel = 0.15  // least confidence reported
	maxModel = 0.995 // the scale of the confidences: a posterior from cues is never certain
	// GOVERNMENT score from which a text is a public body's: public bodies are rare
	// among the companies profiled, so a page read as one with less is a firm's
	govMinTop = 0.4
)

// typicalModel is the business model most companies of an industry have: a page
// that says nothing about its customers gets it. Where an industry's companies split
// (splitIndustries), the label is the one of the small local firms whose pages say
// least, and it gets a smaller share of the prior.
var typicalModel = map[string]string{
	"SAAS": "B2B", "SOFTWARE": "B2B", "CLOUD_COMPUTING": "B2B", "IT_SERVICES": "B2B",
	"CYBERSECURITY": "B2B", "TELECOMMUNICATIONS": "B2C", "ELECTRONICS": "B2B",
	"FINANCIAL_SERVICES": "B2B", "BANKING": "B2C", "INSURANCE": "B2C", "REAL_ESTATE": "B2C",
	"HEALTHCARE": "B2C", "PHARMACEUTICALS": "B2B", "MEDICAL_DEVICES": "B2B", "EDUCATION": "B2C",
	"RETAIL": "B2C", "ECOMMERCE": "B2C", "CONSUMER_GOODS": "B2C", "FOOD_BEVERAGE": "B2C",
	"HOSPITALITY": "B2C", "TRAVEL": "B2C", "MANUFACTURING": "B2B", "AUTOMOTIVE": "B2C",
	"AEROSPACE_DEFENSE": "B2G", "CONSTRUCTION": "B2C", "ENERGY": "B2C", "AGRICULTURE": "B2C",
	"LOGISTICS": "B2B", "MEDIA_ENTERTAINMENT": "B2C", "MARKETING_ADVERTISING": "B2B",
	"LEGAL_SERVICES": "B2C", "CONSULTING": "B2B", "STAFFING_RECRUITING": "B2B", "GOVERNMENT": "G2C",
	"NON_PROFIT": "B2C", "CHEMICALS": "B2B", "MINING_METALS": "B2B", "ENVIRONMENTAL_SERVICES": "B2B",
	"PERSONAL_SERVICES": "B2C",
}

// splitIndustries are the industries whose companies commonly serve households and
// firms alike: builders and tradesmen, law firms and accountants, insurers and
// estate agents, farms (to wholesalers or at the farm gate), removers and couriers,
// garages, waste collectors, cleaners and caterers, energy suppliers and carriers.
// Their typical model is a weaker prior, which a weak cue decides.
const splitIndustries = "CONSTRUCTION LEGAL_SERVICES FINANCIAL_SERVICES INSURANCE REAL_ESTATE AGRICULTURE " +
	"LOGISTICS AUTOMOTIVE ENVIRONMENTAL_SERVICES PERSONAL_SERVICES ENERGY TELECOMMUNICATIONS FOOD_BEVERAGE MEDIA_ENTERTAINMENT"

// typicalSubModel overrides typicalModel where a sub-industry's customers differ
// from its industry's: wealth managers serve households, payment firms merchants.
var typicalSubModel = map[string]string{
	"FINANCIAL_SERVICES/PAYMENTS": "B2B", "FINANCIAL_SERVICES/ASSET_MANAGEMENT": "B2C",
	"FINANCIAL_SERVICES/ACCOUNTING_TAX": "B2B", "FINANCIAL_SERVICES/FINTECH_LENDING": "B2C",
	"FINANCIAL_SERVICES/CRYPTO": "B2C", "FINANCIAL_SERVICES/PRIVATE_EQUITY_VC": "B2B",
	"FINANCIAL_SERVICES/FINANCIAL_ADVISORY": "B2C",
	"BANKING/COMMERCIAL_BANKING":            "B2B", "BANKING/INVESTMENT_BANKING": "B2B", "INSURANCE/REINSURANCE": "B2B",
	"REAL_ESTATE/COMMERCIAL_PROPERTY": "B2B", "REAL_ESTATE/COWORKING": "B2B", "REAL_ESTATE/PROPTECH": "B2B",
	"EDUCATION/CORPORATE_TRAINING":     "B2B",
	"CONSTRUCTION/COMMERCIAL_BUILDING": "B2B", "CONSTRUCTION/CIVIL_ENGINEERING": "B2G", "CONSTRUCTION/BUILDING_MATERIALS": "B2B",
	"ENERGY/WIND": "B2B", "ENERGY/HYDROGEN": "B2B",
	"LOGISTICS/REMOVALS": "B2C", "AUTOMOTIVE/AUTO_PARTS": "B2B", "ELECTRONICS/CONSUMER_ELECTRONICS": "B2C",
	"FOOD_BEVERAGE/FOOD_PROCESSING": "B2B", "PHARMACEUTICALS/PHARMACIES": "B2C", "PHARMACEUTICALS/NUTRACEUTICALS": "B2C",
	"MEDICAL_DEVICES/HEARING_VISION": "B2C", "TELECOMMUNICATIONS/NETWORK_INFRASTRUCTURE": "B2B",
	"TELECOMMUNICATIONS/VOIP_UNIFIED_COMMS": "B2B", "TELECOMMUNICATIONS/SATELLITE": "B2B", "SOFTWARE/MOBILE_APPS": "B2C",
	"AGRICULTURE/AGTECH": "B2B", "MEDIA_ENTERTAINMENT/EVENTS": "B2C", "STAFFING_RECRUITING/JOB_BOARDS": "B2C",
	// farms with a homepage mostly sell at the farm gate, in a farm shop or a box
	// scheme; forestry and fish farms sell to sawmills and wholesalers
	"AGRICULTURE/FORESTRY": "B2B", "AGRICULTURE/AQUACULTURE": "B2B",
	"LEGAL_SERVICES/INTELLECTUAL_PROPERTY": "B2B", "LEGAL_SERVICES/LEGAL_TECH": "B2B", // patent attorneys, legal software
	// (caterers cook for weddings and parties as much as for firms, and fuel dealers
	// deliver heating oil and gas bottles to households: those keep their industries' B2C)
}

// minorPrior is the prior share of the labels that are rarely any industry's typical
// one; the rest goes to the typical model and the other of B2B and B2C.
func minorPrior(label string) (float64, bool) {
	switch label {
	case "B2G":
		return 0.05, true
	case "D2C":
		return 0.03, true
	case "C2C", "C2B":
		return 0.02, true
	}
	return 0, false
}

// consumerTypes are the schema.org types (lowercased) a page declares that say it
// receives the public: shops, restaurants, practices, salons, hotels, garages
// (LocalBusiness subtypes whose customers walk in) and opening hours. Each counts as a
// weak B2C cue; WholesaleStore as a weak B2B one.
const consumerTypes = "openinghoursspecification store restaurant foodestablishment bakery barorpub " +
	"cafeorcoffeeshop brewery winery icecreamshop fastfoodrestaurant lodgingbusiness hotel bedandbreakfast " +
	"hostel campground dentist physician pharmacy optician medicalclinic healthandbeautybusiness beautysalon " +
	"hairsalon dayspa nailsalon tattooparlor autorepair autodealer motorcycledealer motorcyclerepair autowash " +
	"childcare sportsactivitylocation healthclub exercisegym entertainmentbusiness travelagency " +
	"drycleaningorlaundry clothingstore bookstore florist furniturestore grocerystore hardwarestore " +
	"jewelrystore petstore shoestore toystore menu reserveaction foodestablishmentreservation lodgingreservation"

// cue is one phrase of a label, as folded words; weak cues count weakCue.
type cue struct {
	id    int
	label string
	words []string
	weak  bool
}

// cueSet indexes the cues by their first word, with the sets the decision reads
// (built on first use, as the rest of the model: nothing at start-up).
type cueSet struct {
	byFirst  map[string][]cue
	p        bmParams
	split    map[string]bool // splitIndustries
	consumer map[string]bool // consumerTypes
}

func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(s) {
		out[w] = true
	}
	return out
}

func loadCues(stops map[string]map[string]bool) (*cueSet, error) {
	a := newAnalyzer("en", stops)
	valid := map[string]bool{}
	for _, l := range businessModels {
		valid[l] = true
	}
	set := &cueSet{byFirst: map[string][]cue{}, p: defaultBM, split: wordSet(splitIndustries), consumer: wordSet(consumerTypes)}
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
			p = strings.TrimSpace(p)
			weak := strings.HasPrefix(p, "~")
			if p = strings.TrimSpace(strings.TrimPrefix(p, "~")); p == "" {
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
			set.byFirst[words[0]] = append(set.byFirst[words[0]], cue{id: len(seen), label: label, words: words, weak: weak})
		}
	}
	return set, sc.Err()
}

// cueText is one part of a text the cues are read in, and the weight of its cues.
type cueText struct {
	toks []token
	w    float64
}

// hits is the cue evidence of each label in a text's parts: per cue, its weight
// (weakCue for weak ones) times 1 + ln n for its n occurrences (at most cueCap),
// each occurrence weighted by its part's weight.
func (s *cueSet) hits(parts []cueText) map[string]float64 {
	type count struct {
		n, w float64 // occurrences, and their summed part weight
	}
	per := map[int]*count{}
	label := map[int]cue{}
	for _, part := range parts {
		words := make([]string, len(part.toks))
		for i, t := range part.toks {
			words[i] = fold(t.surface)
		}
		// Longest match first, and a word counts for one cue only: "companies"
		// inside "companies of every size" is no second cue.
		for i := 0; i < len(words); i++ {
			var best []cue
			for _, c := range s.byFirst[words[i]] {
				if i+len(c.words) > len(words) || !matches(words[i:], c.words) {
					continue
				}
				if len(best) == 0 || len(c.words) > len(best[0].words) {
					best = []cue{c}
				} else if len(c.words) == len(best[0].words) {
					best = append(best, c) // one phrase, several labels
				}
			}
			if len(best) > 0 {
				i += len(best[0].words) - 1
			}
			for _, c := range best {
				k := per[c.id]
				if k == nil {
					k = &count{}
					per[c.id], label[c.id] = k, c
				}
				if k.n < cueCap {
					k.n++
					k.w += part.w
				}
			}
		}
	}
	ids := make([]int, 0, len(per))
	for id := range per {
		ids = append(ids, id)
	}
	sort.Ints(ids) // sums in one order: the same text, the same scores
	out := map[string]float64{}
	for _, id := range ids {
		k, c := per[id], label[id]
		w := 1.0
		if c.weak {
			w = s.p.weakCue
		}
		// the mean part weight of its occurrences, times 1 + ln n
		out[c.label] += w * k.w / k.n * (1 + math.Log(k.n))
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

// scoredIndustry is one of the industries a text was classified in: its value, its
// most likely sub-industry ("" when none) and its score.
type scoredIndustry struct {
	value, sub string
	score      float64
}

// customerPrior is the prior of the business-model labels of a text classified in
// inds (best first; at most two are read): each industry's mix (industryMix),
// weighted by its score. A text with no industry gets an even B2B/B2C prior.
func (s *cueSet) customerPrior(inds []scoredIndustry) map[string]float64 {
	out := map[string]float64{}
	total := 0.0
	for k, in := range inds {
		if k == 2 {
			break
		}
		mix := s.industryMix(in)
		if mix == nil || in.score <= 0 {
			continue
		}
		for _, l := range businessModels {
			if v, ok := mix[l]; ok {
				out[l] += in.score * v
			}
		}
		total += in.score
	}
	if total == 0 {
		return s.industryMix(scoredIndustry{})
	}
	for l := range out {
		out[l] /= total
	}
	return out
}

// industryMix is the prior of one industry's companies' business models: its typical
// model (its sub-industry's where that differs) gets p.clear (p.split for a split
// industry), the minor labels minorPrior, and the other of B2B and B2C the rest. An
// unknown industry gets B2B and B2C alike; GOVERNMENT (a public body only perhaps, on
// top under govMinTop or second) none.
func (s *cueSet) industryMix(in scoredIndustry) map[string]float64 {
	m := typicalModel[in.value]
	if sm := typicalSubModel[in.sub]; sm != "" && strings.HasPrefix(in.sub, in.value+"/") {
		m = sm
	}
	if in.value == "GOVERNMENT" {
		return nil
	}
	out := map[string]float64{}
	rest := 1.0
	for _, l := range businessModels {
		if v, ok := minorPrior(l); ok {
			out[l] = v
			rest -= v
		}
	}
	switch m {
	case "":
		out["B2B"], out["B2C"] = rest/2, rest/2
		return out
	case "B2B", "B2C":
	default:
		// a minor label typical (defence firms sell to governments): it takes the
		// typical share, businesses most of the rest
		share := s.p.clear
		out[m] = share
		v, _ := minorPrior(m)
		out["B2B"] = rest + v - share - 0.05
		out["B2C"] = 0.05
		return out
	}
	share := s.p.clear
	if s.split[in.value] {
		share = s.p.split
	}
	other := map[string]string{"B2B": "B2C", "B2C": "B2B"}[m]
	out[m], out[other] = share, rest-share
	return out
}

// businessModel scores the business-model labels of a text read in parts, classified
// in inds (best first), whose page declares types (schema.org, lowercased or not).
func (s *cueSet) businessModel(parts []cueText, inds []scoredIndustry, types []string) map[string]float64 {
	h := s.hits(parts)
	for _, t := range types {
		t = strings.ToLower(t)
		if i := strings.LastIndexAny(t, "/#:"); i >= 0 {
			t = t[i+1:]
		}
		switch {
		case s.consumer[t]:
			h["B2C"] += s.p.weakCue
		case t == "wholesalestore":
			h["B2B"] += s.p.weakCue
		}
	}
	var prior map[string]float64
	public := len(inds) > 0 && inds[0].value == "GOVERNMENT" && inds[0].score >= govMinTop
	if public {
		prior = map[string]float64{"G2C": 0.6, "G2B": 0.4}
		h["G2C"] += h["B2C"]
		h["G2B"] += h["B2B"]
	} else {
		prior = s.customerPrior(inds)
	}
	out := map[string]float64{}
	for l, v := range prior {
		// the odds that the company serves l: its prior odds times its cues'
		// likelihood ratios
		z := math.Log(v/(1-v)) + s.p.cueOdds*h[l]
		if conf := maxModel / (1 + math.Exp(-z)); conf >= minModel {
			out[l] = conf
		}
	}
	return out
}
