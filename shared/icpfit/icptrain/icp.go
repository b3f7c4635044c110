package icptrain

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/firmoapi/firmo/shared/geo"
	"github.com/firmoapi/firmo/shared/icpfit"
	"github.com/firmoapi/firmo/shared/world"
)

// industryPhrases are the words the generator writes for each of the world's
// industries; icpfit's vocabulary reads each back to a set holding that industry.
var industryPhrases = map[string][]string{
	"SOFTWARE":              {"SaaS", "software company", "software vendor", "Software"},
	"IT_SERVICES":           {"IT services", "IT service provider", "managed service provider"},
	"FINANCIAL_SERVICES":    {"financial services", "fintech", "financial services firm"},
	"HEALTHCARE":            {"healthcare", "healthcare provider", "clinic"},
	"RETAIL":                {"retail", "retailer", "retailers"},
	"MANUFACTURING":         {"manufacturer", "manufacturing", "industrial"},
	"LOGISTICS":             {"logistics", "logistics provider", "freight"},
	"REAL_ESTATE":           {"real estate", "property", "real estate company"},
	"EDUCATION":             {"education", "training provider", "edtech"},
	"HOSPITALITY":           {"hospitality", "hotel", "hotels"},
	"LEGAL_SERVICES":        {"law firm", "legal services", "lawyers"},
	"CONSTRUCTION":          {"construction company", "construction", "builders"},
	"MARKETING_ADVERTISING": {"marketing agency", "agency", "advertising agency"},
}

// modelPhrases are the words the generator writes for business models.
var modelPhrases = map[string][]string{
	"B2B": {"B2B", "sells to businesses", "business customers"},
	"B2C": {"B2C", "consumer-facing", "sells to consumers"},
	"B2G": {"B2G", "public sector customers", "sells to government"},
	"D2C": {"D2C", "direct-to-consumer"},
}

// sizeCuts are the round head counts ICP writers use.
var sizeCuts = []int{10, 20, 50, 100, 200, 250, 500, 1000, 2000, 5000}

// Generator writes ICPs from the demo world's vocabularies: industries, countries,
// business models, head counts, revenue, homepage technologies and mail providers.
type Generator struct {
	countries []string
	models    []string
	techs     []string
}

// NewGenerator returns a generator over the world's vocabularies.
func NewGenerator() *Generator {
	var models []string
	for _, m := range world.BusinessModels() {
		if _, ok := modelPhrases[m]; ok {
			models = append(models, m)
		}
	}
	return &Generator{countries: world.CountryCodes(), models: models, techs: icpfit.Technologies()}
}

// ICP writes one ICP around an anchor company (truth): most mandatory lines hold for
// the anchor, some are drawn at random, so that pairing the ICP with the anchor or
// another company gives fits and non-fits. Reject and nice-to-have lines are drawn
// at random.
func (g *Generator) ICP(r *rand.Rand, anchor icpfit.Company) icpfit.Criteria {
	var c icpfit.Criteria
	kinds := []string{"industry", "size", "geo", "model", "tech", "revenue", "combo", "text"}
	weights := []int{30, 20, 20, 12, 10, 6, 12, 10}
	n := 1 + r.IntN(3)
	used := map[string]bool{}
	for len(c.Mandatory) < n {
		k := kinds[pickWeighted(r, weights)]
		if used[k] {
			if len(used) >= len(kinds) {
				break
			}
			continue
		}
		used[k] = true
		c.Mandatory = append(c.Mandatory, fill(g.line(r, k, anchor, r.IntN(100) < 80)))
	}
	for range r.IntN(3) {
		k := []string{"industry", "size", "geo", "model", "tech"}[r.IntN(5)]
		c.Reject = append(c.Reject, fill(g.line(r, k, anchor, r.IntN(100) < 15)))
	}
	for range r.IntN(3) {
		k := []string{"tech", "geo", "size", "model"}[r.IntN(4)]
		c.Nice = append(c.Nice, fill(g.line(r, k, anchor, r.IntN(2) == 0)))
	}
	return c
}

// line writes one criterion of a kind; with hold it holds for the anchor.
func (g *Generator) line(r *rand.Rand, k string, a icpfit.Company, hold bool) string {
	switch k {
	case "industry":
		ind := a.Industries[0]
		if !hold {
			ind = pick(r, world.Industries)
		}
		p := pick(r, industryPhrases[ind])
		if r.IntN(4) == 0 {
			p += " or " + pick(r, industryPhrases[pick(r, world.Industries)])
		}
		return p
	case "size":
		return sizeLine(r, a.Employees, hold)
	case "geo":
		return g.geoLine(r, a, hold)
	case "model":
		m := a.BusinessModel
		if !hold || modelPhrases[m] == nil {
			m = pick(r, g.models)
		}
		return pick(r, modelPhrases[m])
	case "tech":
		t := ""
		if hold && len(a.Technologies) > 0 {
			t = techName(pick(r, a.Technologies))
		}
		if t == "" {
			t = pick(r, g.techs)
		}
		return pick(r, []string{"uses %s", "runs %s", "%s customer", "on %s"}) + "|" + t
	case "revenue":
		return revenueLine(r, a.RevenueRange, hold)
	case "text":
		ind := a.Industries[0]
		if !hold {
			ind = pick(r, world.Industries)
		}
		return pick(r, []string{"offers %s", "provides %s", "%s"}) + "|" + strings.ToLower(pick(r, world.Services(ind)))
	default: // combo: "B2B SaaS", "software company in Germany"
		ind := a.Industries[0]
		if !hold {
			ind = pick(r, world.Industries)
		}
		p := pick(r, industryPhrases[ind])
		if r.IntN(2) == 0 {
			m := a.BusinessModel
			if modelPhrases[m] == nil || !hold {
				m = pick(r, g.models)
			}
			return modelPhrases[m][0] + " " + p
		}
		return p + " " + g.geoLine(r, a, hold)
	}
}

// fill applies a "format|argument" line ("uses %s|HubSpot").
func fill(s string) string {
	f, arg, ok := strings.Cut(s, "|")
	if !ok {
		return s
	}
	return fmt.Sprintf(f, arg)
}

// techName is the product a detected domain belongs to.
func techName(dom string) string {
	for _, t := range icpfit.Technologies() {
		for _, d := range icpfit.TechnologyDomains(t) {
			if dom == d || strings.HasSuffix(dom, "."+d) {
				return t
			}
		}
	}
	return ""
}

func countryName(code string) string {
	if c, ok := geo.LookupCountry(code); ok {
		return c.DisplayName()
	}
	return code
}

func (g *Generator) geoLine(r *rand.Rand, a icpfit.Company, hold bool) string {
	cc := a.Country
	if !hold {
		cc = pick(r, g.countries)
	}
	switch k := r.IntN(10); {
	case k < 2 && hold && a.State != "" && (cc == "US" || cc == "DE" || cc == "CA" || cc == "AU"):
		return "based in " + a.State
	case k < 4:
		other := pick(r, g.countries)
		for other == cc {
			other = pick(r, g.countries)
		}
		return fmt.Sprintf("based in %s or %s", countryName(cc), countryName(other))
	case k < 5 && (cc == "DE" || cc == "AT" || cc == "CH"):
		return "in the DACH region"
	case k < 6 && cc == "US":
		return "US-based"
	default:
		return pick(r, []string{"based in %s", "headquartered in %s", "in %s"}) + "|" + countryName(cc)
	}
}

// sizeLine writes a head-count criterion around n.
func sizeLine(r *rand.Rand, n int, hold bool) string {
	lo := sizeCuts[r.IntN(len(sizeCuts)-1)]
	hi := sizeCuts[r.IntN(len(sizeCuts)-1)+1]
	if hold {
		// A range around the anchor's head count.
		lo, hi = 1, 100000
		for _, c := range sizeCuts {
			if c <= n && r.IntN(3) > 0 {
				lo = c
			}
			if c >= n && hi == 100000 && r.IntN(3) > 0 {
				hi = c
			}
		}
	}
	switch {
	case lo <= 1 && hi >= 100000:
		return fmt.Sprintf("at least %d employees", 1)
	case lo <= 1:
		return pick(r, []string{"fewer than %s employees", "at most %s employees", "up to %s employees"}) + "|" + fmt.Sprint(hi+boolInt(r.IntN(3) == 0))
	case hi >= 100000:
		return pick(r, []string{"more than %s employees", "%s+ employees", "at least %s staff"}) + "|" + fmt.Sprint(lo)
	case lo >= hi:
		return fmt.Sprintf("at least %d employees", lo)
	default:
		return fmt.Sprintf("%d-%d employees", lo, hi)
	}
}

// revenueLine writes a revenue criterion; buckets are the profile's.
func revenueLine(r *rand.Rand, bucket string, hold bool) string {
	cuts := []float64{1, 10, 100, 1000}
	v := map[string]float64{"<1M": 0.5, "1-10M": 5, "10-100M": 50, "100M-1B": 500, ">1B": 5000}[bucket]
	if !hold || v == 0 {
		v = math.Pow(10, r.Float64()*4-0.3)
	}
	c := cuts[r.IntN(len(cuts))]
	money := func(m float64) string {
		if m >= 1000 {
			return fmt.Sprintf("$%gB", m/1000)
		}
		return fmt.Sprintf("$%gM", m)
	}
	if v >= c {
		return "annual revenue over " + money(c)
	}
	return "revenue under " + money(c)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func pick[T any](r *rand.Rand, list []T) T { return list[r.IntN(len(list))] }

func pickWeighted(r *rand.Rand, weights []int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	n := r.IntN(total)
	for i, w := range weights {
		if n < w {
			return i
		}
		n -= w
	}
	return len(weights) - 1
}
