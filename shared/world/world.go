// Package world generates Firmo's demo world: a deterministic set of companies across
// sixteen countries and seven languages, each with the raw material Firmo's pipeline
// works from (a company row as a registry feed would give it, ten years of certificate
// history, homepage and team-page HTML, MX records) and the generator's truth (industry,
// business model, language, status, mail provider, team) kept apart for grading the
// pipeline. The world gives no derived field: status, dates, score, language,
// description, keywords, industries, E.164 phones, coordinates, state names and mail
// providers are all for the pipeline to find.
//
// The same Options give byte-identical output. Each company draws from its own random
// stream (seeded by the world seed and its index), so company i is the same whatever
// the world's size, and generating one company does not require generating the others.
package world

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"

	"github.com/firmoapi/firmo/shared/gazetteer"
)

// Options define a world. The same Options give the same world, byte for byte.
type Options struct {
	Seed      uint64 `json:"seed"`
	Companies int    `json:"companies"`
	// Contacts is reserved for contact search, which adds people to the world; the
	// company world already writes the team pages they will come from.
	Contacts int `json:"contacts"`
	// AsOf is the world's "today": certificate histories run up to it and every live
	// company holds a certificate valid on it. Only its date counts.
	AsOf time.Time `json:"as_of"`
}

// Normalized returns the options with AsOf reduced to its UTC midnight.
func (o Options) Normalized() Options {
	y, m, d := o.AsOf.UTC().Date()
	o.AsOf = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return o
}

// World is a generated world.
type World struct {
	opts  Options
	skel  []skeleton
	index map[string]int
}

// Shape is how a company's certificate issuance developed over the years.
type Shape string

const (
	ShapeSteady    Shape = "steady"
	ShapeGrowing   Shape = "growing"
	ShapeDeclining Shape = "declining"
	ShapeNew       Shape = "new"
	ShapeClosed    Shape = "closed"
	ShapeBursty    Shape = "bursty"
	ShapeLegacy    Shape = "legacy" // long-lived certificates, some over three years
)

var shapes = []struct {
	s      Shape
	weight int
}{{ShapeSteady, 30}, {ShapeGrowing, 20}, {ShapeDeclining, 12}, {ShapeNew, 10}, {ShapeClosed, 15}, {ShapeBursty, 8}, {ShapeLegacy, 5}}

// skeleton is the part of a company decided before any other: what the domain, the
// DNS zone and redirects need.
type skeleton struct {
	domain     string // ASCII registrable domain
	unicode    string // the domain as its owner writes it (IDN), "" when ASCII
	plain      string // the ASCII label the domain is made from, for numbering duplicates
	tld        string
	name       string // legal name
	short      string // the distinctive part of the name
	country    country
	place      gazetteer.Place
	lang       string
	industry   string
	model      string
	employees  int
	shape      Shape
	founded    time.Time
	closed     time.Time // zero while alive
	redirectTo int       // index of the company this domain redirects to, or -1
	mail       mxKind
}

// New generates a world's skeleton; Company fills in each company on demand.
func New(opts Options) *World {
	opts = opts.Normalized()
	w := &World{opts: opts, skel: make([]skeleton, opts.Companies), index: make(map[string]int, opts.Companies)}
	for i := range w.skel {
		s := w.newSkeleton(i)
		for n := 2; ; n++ {
			if _, dup := w.index[s.domain]; !dup {
				break
			}
			// Taken: the owner registered a numbered name (never a numbered IDN,
			// whose ASCII form would no longer be valid punycode).
			s.domain, s.unicode = fmt.Sprintf("%s%d.%s", s.plain, n, s.tld), ""
		}
		w.index[s.domain] = i
		w.skel[i] = s
	}
	return w
}

// Options returns the world's options.
func (w *World) Options() Options { return w.opts }

// Len is the number of companies.
func (w *World) Len() int { return len(w.skel) }

// Domain returns the registrable domain of company i.
func (w *World) Domain(i int) string { return w.skel[i].domain }

// Lookup returns the index of a world domain.
func (w *World) Lookup(domain string) (int, bool) {
	i, ok := w.index[domain]
	return i, ok
}

// rng returns company i's random stream for one purpose, independent of the others.
func (w *World) rng(i int, purpose uint64) *rand.Rand {
	return rand.New(rand.NewPCG(w.opts.Seed^0x9e3779b97f4a7c15*(purpose+1), uint64(i)))
}

const (
	streamSkeleton = iota
	streamRow
	streamCerts
	streamPages
	streamDNS
)

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

func (w *World) newSkeleton(i int) skeleton {
	r := w.rng(i, streamSkeleton)
	cw := make([]int, len(countries))
	for k, c := range countries {
		cw[k] = c.Weight
	}
	c := countries[pickWeighted(r, cw)]
	place := pick(r, gazetteer.Cities(c.Code))
	lang := c.Lang
	if l, ok := c.CityLang[place.Name]; ok {
		lang = l
	}
	if lang != "en" && r.IntN(100) < 8 {
		lang = "en" // some companies run their site in English only
	}
	s := skeleton{country: c, place: place, lang: lang, industry: pick(r, Industries), redirectTo: -1}
	// Names and domains are drawn before anything that depends on the world's date, so a
	// seed gives the same domains whatever day the world is made on.
	s.name, s.short = companyName(r, lexicons()[lang], c, s.industry)
	s.domain, s.unicode, s.plain, s.tld = domainFor(r, s.short, s.industry, lexicons()[lang], c)
	s.model = pick(r, models[s.industry])
	// Head counts are log-normal: most companies are small, a few are very large.
	s.employees = int(math.Min(math.Max(math.Exp(3+1.6*r.NormFloat64()), 1), 60000))
	sw := make([]int, len(shapes))
	for k, sh := range shapes {
		sw[k] = sh.weight
	}
	s.shape = shapes[pickWeighted(r, sw)].s
	asOf := w.opts.AsOf
	switch s.shape {
	case ShapeNew:
		s.founded = asOf.AddDate(0, 0, -30-r.IntN(600))
	default:
		s.founded = asOf.AddDate(-2-r.IntN(13), 0, -r.IntN(365))
	}
	if s.shape == ShapeClosed {
		life := asOf.Sub(s.founded)
		s.closed = s.founded.Add(time.Duration(float64(life) * (0.3 + 0.65*r.Float64())))
		if asOf.Sub(s.closed) < 60*24*time.Hour {
			s.closed = asOf.AddDate(0, 0, -60-r.IntN(300))
		}
		// A closed company's domain sometimes redirects to the company that took it over.
		if i > 0 && r.IntN(100) < 30 {
			s.redirectTo = r.IntN(i)
		}
	}
	s.mail = mailFor(r, c, s)
	return s
}

func companyName(r *rand.Rand, lx lexicon, c country, industry string) (name, short string) {
	legal := pick(r, c.Legal)
	word := pick(r, lx.list("name.word."+industry))
	switch r.IntN(4) {
	case 0: // a family name: "Müller Bau GmbH"
		short = pick(r, lx.list("last"))
		return fmt.Sprintf("%s %s %s", short, word, legal), short
	case 1: // two partners: "Rossi & Bianchi S.r.l."
		a, b := pick(r, lx.list("last")), pick(r, lx.list("last"))
		if a == b {
			b = pick(r, lx.list("name.root"))
		}
		short = a + " & " + b
		return fmt.Sprintf("%s %s", short, legal), short
	default: // a coined name: "Nordlicht Software GmbH"
		short = pick(r, lx.list("name.root"))
		if r.IntN(3) == 0 {
			return fmt.Sprintf("%s %s", short, legal), short
		}
		return fmt.Sprintf("%s %s %s", short, word, legal), short
	}
}

// domainFor makes a domain from the distinctive part of a name: "Müller & Weber" gives
// "mueller-weber.de", sometimes the Unicode form "müller-weber.de" (an IDN), sometimes
// with the industry word ("nordlicht-software.de").
func domainFor(r *rand.Rand, short, industry string, lx lexicon, c country) (ascii, uni, plain, tld string) {
	tld = pick(r, c.TLDs)
	words := strings.Fields(strings.ReplaceAll(short, "&", " "))
	if r.IntN(3) == 0 {
		words = append(words, pick(r, lx.list("name.word."+industry)))
	}
	sep := ""
	if r.IntN(2) == 0 {
		sep = "-"
	}
	var label []string
	for _, wd := range words {
		label = append(label, strings.ToLower(wd))
	}
	raw := strings.Join(label, sep)
	plain = slug(raw, true)
	if plain == "" {
		plain = "firma"
	}
	if hasNonASCII(raw) && r.IntN(5) == 0 {
		if idn := slug(raw, false); idn != "" {
			if a, err := idnaASCII(idn + "." + tld); err == nil {
				return a, idn + "." + tld, plain, tld
			}
		}
	}
	return plain + "." + tld, "", plain, tld
}

func hasNonASCII(s string) bool {
	for _, r := range s {
		if r > 127 {
			return true
		}
	}
	return false
}

// slug keeps letters and digits of s and hyphens between words. With ascii it folds
// "ü" to "ue" and drops other accents, as company domains do.
func slug(s string, ascii bool) string {
	// The folding changes nothing in ASCII, where it only costs (a seed slugs every
	// person's name).
	if ascii && hasNonASCII(s) {
		s = strings.NewReplacer("ä", "ae", "ö", "oe", "ü", "ue", "ß", "ss").Replace(s)
		t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
		s, _, _ = transform.String(t, s)
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '-' || r == ' ' || r == '\'' || r == '.':
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
				b.WriteByte('-')
			}
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if ascii && r > 127 {
				continue
			}
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return strings.Trim(b.String(), "-")
}

// DateOf formats a world's date.
func DateOf(o Options) string { return o.AsOf.UTC().Format(time.DateOnly) }
