package company

import (
	"context"
	"net/url"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/firmoapi/firmo/shared/domain"
	"github.com/firmoapi/firmo/shared/score"
)

// PipelineVersion is bumped whenever Derive changes what it computes, so the
// reprocessing job re-derives every record made by an older pipeline. Version 2 added
// the homepage's fetch status, form hosts among the vendors (capped at MaxVendors), the
// reverse redirect index, and subdomains without wildcard or e-mail names. Version 3
// classifies the homepage's statements (title, description, headings, declared
// schema.org types) apart from its text and reads the about page too. Version 4's
// industry model also learns from the NAICS descriptions and no longer reads the words
// every company's site uses (team, family, quality, customers), and the legal form a
// page or the legal notice page states (e.V., registered charity, public-law body)
// tips the industry. Version 5 reads Swedish, Norwegian, Danish, Finnish, Polish,
// Chinese and Japanese pages through a compact lexicon. Version 6 reads the page's
// <title> whole, reports the plain second-best industry, gives ties between business
// models to the industry's usual customers, and knows more trades. Version 7's
// industry model also learns from the EU's NACE activity titles in seven languages.
// Version 8's industry model no longer reads marketing words (solutions, technology,
// systems) as software or IT, files alarm and CCTV installers as a building trade,
// and keeps words of another meaning apart (French "données", Dutch "zorgen",
// "-schap", German "Büro").
// Version 8 also scores business models as the probability that the company serves each
// kind of customer: its industries' usual customers as a prior, strong and weak cues
// as evidence. Version 9 knows the everyday words of computer repair
// shops, home organisers, facility services, first-aid and development-aid
// organisations and leisure venues (bowling, escape rooms), and keeps
// apart more words of another meaning (Spanish "filas", "carpetas", "libre",
// Portuguese "implantação", "portaria"). Version 10 reads the German inflections of
// the public-sector cues ("aus dem öffentlichen Sektor", "der öffentlichen Hand").
const PipelineVersion = 10

// Extractor reads a page: its title, meta description, main text and language (ISO
// 639-2). shared/extract implements it (adapted in shared/app).
type Extractor interface {
	Extract(html []byte, pageURL string) (Extracted, error)
}

// Extracted is what an Extractor returns.
type Extracted struct {
	Title, Description, Text, Language string
}

// Classifier labels a company from its text. shared/industry implements it (adapted
// in shared/app).
type Classifier interface {
	Classify(text, lang string) Classification
}

// PageClassifier is a Classifier that can also read a page apart: its own statements
// (title, description, headings, declared schema.org and Open Graph types, the
// company's domain) weighed over its running text. shared/industry implements it;
// the pipeline uses it when its Classifier has it.
type PageClassifier interface {
	ClassifyPage(p PageStatements) Classification
}

// PageStatements is a page read apart for a PageClassifier (the fields of
// industry.Page).
type PageStatements struct {
	Domain      string
	Title       string
	Description string
	Headings    []string
	Types       []string
	Text        string
	Lang        string
	// Legal is the text of the company's legal notice (imprint) page, where its
	// legal form and register entry are stated; read for those only.
	Legal string
}

// Classification is a Classifier's answer. Sub is non-nil when the text was scored
// against the sub-industry labels.
type Classification struct {
	Groups        map[string]float64 // top two industries
	Sub           map[string]float64
	BusinessModel map[string]float64
	Keywords      map[string]float64
}

// Deriver is the derivation pipeline: it computes every derived field of a company
// from its raw row, certificates and pages. Each dependency may be nil; the fields it
// feeds are then left empty (description from the raw row, industries from the raw
// industry column, mx_provider unresolved).
type Deriver struct {
	extract   Extractor
	classify  Classifier
	mx        MXResolver
	constants score.Constants
	now       func() time.Time
}

// DeriverDeps are the parts of the pipeline. A nil one leaves the fields it feeds
// empty (see Deriver).
type DeriverDeps struct {
	// Extractor reads the home page. nil: description from the raw row only.
	Extractor Extractor
	// Classifier labels the company from its text. nil: industries from the raw
	// industry column only.
	Classifier Classifier
	// MX resolves the domain's mail exchangers. nil: mx_provider unresolved.
	MX MXResolver
	// Now is the pipeline's clock (Deriver.Now); nil: time.Now.
	Now func() time.Time
}

// NewDeriver makes a Deriver that scores with the default constants of shared/score.
func NewDeriver(d DeriverDeps) *Deriver {
	if d.Now == nil {
		d.Now = time.Now
	}
	return &Deriver{extract: d.Extractor, classify: d.Classifier, mx: d.MX, constants: score.DefaultConstants(), now: d.Now}
}

// withoutText is the pipeline without page extraction and classification: the cheap
// part of a derivation.
func (d *Deriver) withoutText() *Deriver {
	q := *d
	q.extract, q.classify = nil, nil
	return &q
}

// Now is the pipeline's clock.
func (d *Deriver) Now() time.Time { return d.now().UTC() }

// Inputs are the raw signals of one company.
type Inputs struct {
	Domain string
	Raw    Raw
	Certs  []Certificate
	Pages  []Page
}

// Derive computes a record's profile, score and bookkeeping from its inputs. Pages
// whose text was never extracted are extracted here; the caller may store them back
// (the returned list, same order as in.Pages).
func (d *Deriver) Derive(ctx context.Context, in Inputs) (Profile, Scored, Derived, []Page) {
	now := d.Now()
	pages := d.ensureText(in.Domain, in.Pages)
	home, homeIdx := homepage(in.Domain, pages)
	about, _ := aboutPage(in.Domain, pages)
	legal, _ := legalPage(in.Domain, pages)
	p := Profile{Domain: in.Domain, UpdateDate: Date(now)}

	d.applyCerts(&p, in.Certs, now)
	sc := d.Score(in.Certs, now)
	p.Score = profileScore(sc)

	country, _ := CountryCode(in.Raw.Country)
	g := resolveAddress(country, strings.TrimSpace(in.Raw.State), strings.TrimSpace(in.Raw.City))
	p.Address = Address{Street: in.Raw.Street, City: in.Raw.City, State: g.State, Zip: in.Raw.Zip, Country: country}
	p.Latitude, p.Longitude, p.GeoPrecision = g.Lat, g.Lon, g.Precision

	var links pageLinks
	if homeIdx >= 0 {
		links = scanLinks([]byte(home.HTML), in.Domain)
		p.RedirectDomain = redirectOf(in.Domain, home, links)
		if home.Title == "" {
			home.Title = links.Title
		}
	}
	p.Phones = phones(in.Raw.Phone, links.Phones, country)
	p.PublicEmails = nonNilList(links.Emails)
	p.SocialURLs = nonNilList(links.Social)

	p.Name = companyName(in, home)
	p.Description = description(home, in.Raw.Description)
	if home.Language != "" {
		lang := home.Language
		p.Language = &lang
	}
	d.applyIndustry(&p, in, home, about, legal, links)

	if b, err := EmployeeBucket(in.Raw.Employees); err == nil && b != "" {
		p.Employees = &b
	}
	p.RevenueRange = RevenueUnknown
	if b, err := RevenueBucket(in.Raw.RevenueRange); err == nil {
		p.RevenueRange = b
	}
	p.MXProvider = d.mxProvider(ctx, in.Domain)

	der := Derived{
		PipelineVersion: PipelineVersion,
		At:              now,
		CertsAt:         now,
		Certificates:    len(in.Certs),
		Vendors:         links.Vendors,
		Subdomains:      subdomains(in.Domain, in.Certs),
		Fetch:           fetchStatus(in.Domain, in.Pages),
	}
	return p, sc, der, pages
}

// profileScore is the score as the profile shows it. The API reference gives the profile's score
// the range 1-800 while GET /score answers 0-800: a company with no certificates, or one
// whose score decayed to nothing, shows 1 in its profile (the lowest rank) and the
// computed 0 on /score, whose parameters explain it.
func profileScore(sc Scored) int { return max(1, int(sc.Score)) }

// Rescore recomputes only what depends on the date and the certificates: status,
// start and end dates and the score. The scheduled job runs it daily on every record.
func (d *Deriver) Rescore(rec *Record, certs []Certificate) {
	now := d.Now()
	d.applyCerts(&rec.Profile, certs, now)
	rec.Score = d.Score(certs, now)
	rec.Profile.Score = profileScore(rec.Score)
	rec.Profile.UpdateDate = Date(now)
	rec.Derived.CertsAt = now
	rec.Derived.Certificates = len(certs)
	rec.Derived.Subdomains = subdomains(rec.Domain, certs)
}

func (d *Deriver) applyCerts(p *Profile, certs []Certificate, now time.Time) {
	st := deriveStatus(certs, now)
	p.Status, p.StartDate, p.EndDate = st.Status, st.StartDate, st.EndDate
}

// Score scores certificates on a date with the pipeline's constants.
func (d *Deriver) Score(certs []Certificate, now time.Time) Scored {
	sc := make([]score.Certificate, len(certs))
	for i, c := range certs {
		sc[i] = score.Certificate{DateFrom: c.DateFrom, DateTo: c.DateTo}
	}
	r := score.Compute(sc, now, d.constants)
	out := Scored{On: Date(now), Score: r.Score, Parameters: r.Parameters}
	if !r.FirstEvent.IsZero() {
		out.FirstEvent = Date(r.FirstEvent)
	}
	return out
}

// ensureText extracts the home page, the about page and the legal notice page when
// they were stored without text (stored raw by a bulk load, before an extractor was
// configured, or by an older pipeline). Other pages are left as stored: the profile
// reads only these three, and extraction is the costliest step of a derivation.
func (d *Deriver) ensureText(dom string, pages []Page) []Page {
	if d.extract == nil {
		return pages
	}
	var out []Page
	for _, pick := range []func(string, []Page) (Page, int){homepage, aboutPage, legalPage} {
		pg, i := pick(dom, pages)
		if i < 0 || pg.Text != "" || pg.HTML == "" || pg.StatusCode >= 300 {
			continue
		}
		if out == nil {
			out = append([]Page(nil), pages...)
		}
		out[i] = d.ExtractPage(pg)
	}
	if out == nil {
		return pages
	}
	return out
}

// ExtractPage fills a page's title, description, text and language from its HTML. A
// page the extractor cannot read keeps empty text (and is retried on the next run).
func (d *Deriver) ExtractPage(pg Page) Page {
	if d.extract == nil || pg.HTML == "" {
		return pg
	}
	r, err := d.extract.Extract([]byte(pg.HTML), pg.URL)
	if err != nil {
		return pg
	}
	pg.Title, pg.Description, pg.Text, pg.Language = r.Title, r.Description, r.Text, r.Language
	return pg
}

func (d *Deriver) applyIndustry(p *Profile, in Inputs, home, about, legal Page, links pageLinks) {
	raw := in.Raw
	text := strings.TrimSpace(strings.Join([]string{home.Title, home.Description, home.Text}, "\n"))
	if text == "" {
		text = raw.Description
	}
	if d.classify != nil && strings.TrimSpace(text) != "" {
		var c Classification
		if pc, ok := d.classify.(PageClassifier); ok {
			ps := pageStatements(in.Domain, home, about, links, raw.Description)
			ps.Legal = legal.Text
			c = pc.ClassifyPage(ps)
		} else {
			c = d.classify.Classify(text, home.Language)
		}
		p.IndustryGroups = roundMap(c.Groups)
		p.SubIndustry = roundMap(c.Sub)
		if c.Sub != nil && p.SubIndustry == nil {
			p.SubIndustry = map[string]float64{}
		}
		p.BusinessModel = roundMap(c.BusinessModel)
		p.Keywords = roundMap(c.Keywords)
		return
	}
	// Nothing to classify: the row's own industry column, as given, is all there is.
	if list, err := industryList(raw.Industry); err == nil && len(list) > 0 {
		p.IndustryGroups = map[string]float64{}
		for i, v := range list {
			if i == 2 {
				break
			}
			p.IndustryGroups[v] = 1
		}
	}
}

func roundMap(m map[string]float64) map[string]float64 {
	if m == nil {
		return nil
	}
	out := make(map[string]float64, len(m))
	for k, v := range m {
		out[k] = round4(v)
	}
	return out
}

func (d *Deriver) mxProvider(ctx context.Context, dom string) *string {
	if d.mx == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	recs, err := d.mx.LookupMX(ctx, dom)
	if err != nil {
		return nil
	}
	prov, ok := MXProvider(recs)
	if !ok {
		return nil
	}
	return &prov
}

// pageStatements reads the home page apart for a PageClassifier: title, meta
// description, headings and declared types from the home page; running text from the
// home page and the about page (what a company does is often said there); the row's
// description when there is no page text.
func pageStatements(dom string, home, about Page, links pageLinks, rawDescription string) PageStatements {
	ps := PageStatements{Domain: dom, Title: headTitle(home.Title, links.Title), Description: home.Description, Headings: links.Headings, Types: links.Types, Lang: home.Language}
	var text []string
	for _, t := range []string{home.Text, about.Title, about.Description, about.Text} {
		if t = strings.TrimSpace(t); t != "" {
			text = append(text, t)
		}
	}
	if len(text) == 0 && ps.Title == "" && ps.Description == "" {
		text = append(text, rawDescription)
	}
	ps.Text = strings.Join(text, "\n")
	if ps.Lang == "" || ps.Lang == "und" {
		ps.Lang = about.Language
	}
	return ps
}

// headTitle is the title statement of a page: the extracted title (which keeps one
// part of the <title>, or a heading) together with the <title> itself when that says
// more. "Startseite - Reinico-Gebäudereinigung" is extracted as "Startseite", and the
// part dropped is often the company's trade.
func headTitle(extracted, head string) string {
	e, h := strings.TrimSpace(extracted), strings.TrimSpace(head)
	el, hl := strings.ToLower(e), strings.ToLower(h)
	switch {
	case h == "" || strings.Contains(el, hl):
		return e
	case strings.Contains(hl, el):
		return h
	}
	return e + " | " + h
}

// aboutSlugs are the last path segments of "about us" pages in the languages the
// pipeline reads (and a few neighbours).
var aboutSlugs = map[string]bool{
	"about": true, "about-us": true, "aboutus": true, "about-the-company": true, "company": true, "who-we-are": true, "our-story": true,
	"ueber-uns": true, "uber-uns": true, "über-uns": true, "wir": true, "wir-ueber-uns": true, "unternehmen": true, "das-unternehmen": true, "firma": true,
	"a-propos": true, "qui-sommes-nous": true, "notre-entreprise": true, "entreprise": true, "societe": true,
	"quienes-somos": true, "sobre-nosotros": true, "nosotros": true, "empresa": true, "la-empresa": true,
	"sobre": true, "sobre-nos": true, "quem-somos": true, "a-empresa": true,
	"chi-siamo": true, "azienda": true, "l-azienda": true, "chi-sono": true,
	"over-ons": true, "over": true, "wie-zijn-wij": true, "bedrijf": true, "om-oss": true, "om-os": true, "om": true,
}

// legalSlugs are the last path segments of legal notice (imprint) pages.
var legalSlugs = map[string]bool{
	"impressum": true, "imprint": true, "legal": true, "legal-notice": true, "legal-notices": true, "legal-information": true,
	"mentions-legales": true, "mentions-légales": true, "informations-legales": true,
	"aviso-legal": true, "nota-legal": true, "informacion-legal": true, "aviso-legal-y-privacidad": true,
	"informacao-legal": true, "termos-legais": true,
	"note-legali": true, "informazioni-legali": true, "colofon": true, "colophon": true,
}

// aboutPage picks the company's about page: a page on the domain (or its www host)
// whose last path segment (without .html) is one of aboutSlugs, the shortest path
// first. Index -1 when there is none.
func aboutPage(dom string, pages []Page) (Page, int) { return slugPage(dom, pages, aboutSlugs) }

// legalPage picks the company's legal notice page as aboutPage does, by legalSlugs.
func legalPage(dom string, pages []Page) (Page, int) { return slugPage(dom, pages, legalSlugs) }

func slugPage(dom string, pages []Page, slugs map[string]bool) (Page, int) {
	best, bestLen := -1, 0
	for i, pg := range pages {
		u, err := url.Parse(pg.URL)
		if err != nil || pg.StatusCode >= 300 {
			continue
		}
		h := strings.ToLower(u.Hostname())
		if h != dom && h != "www."+dom {
			continue
		}
		p := strings.Trim(strings.ToLower(u.Path), "/")
		last := p[strings.LastIndex(p, "/")+1:]
		for _, ext := range []string{".html", ".htm", ".php"} {
			last = strings.TrimSuffix(last, ext)
		}
		if !slugs[last] {
			continue
		}
		if best < 0 || len(p) < bestLen {
			best, bestLen = i, len(p)
		}
	}
	if best < 0 {
		return Page{}, -1
	}
	return pages[best], best
}

// homepage picks the company's home page among its pages: the root path of the domain
// or its www host, the most recently fetched. Index -1 when there is none.
func homepage(dom string, pages []Page) (Page, int) {
	best := -1
	for i, pg := range pages {
		u, err := url.Parse(pg.URL)
		if err != nil || (u.Path != "" && u.Path != "/") {
			continue
		}
		h := strings.ToLower(u.Hostname())
		if h != dom && h != "www."+dom {
			continue
		}
		if best < 0 || pg.FetchedAt.After(pages[best].FetchedAt) {
			best = i
		}
	}
	if best < 0 {
		return Page{}, -1
	}
	return pages[best], best
}

// redirectOf is the registrable domain a homepage redirects to (HTTP redirect recorded
// as the page's final URL, or a meta refresh), when it is another domain.
func redirectOf(dom string, home Page, links pageLinks) *string {
	for _, target := range []string{home.FinalURL, links.Refresh} {
		if target == "" {
			continue
		}
		u, err := url.Parse(target)
		if err != nil || u.Host == "" {
			continue
		}
		if reg, err := domain.Normalize(u.Host); err == nil && reg != dom {
			return &reg
		}
	}
	return nil
}

func phones(raw string, fromPage []string, country string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range append([]string{raw}, fromPage...) {
		if e, ok := E164(s, country); ok && !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return nonNilList(out)
}

// companyName is the row's name, else the homepage title's first part ("Acme GmbH |
// Software" gives "Acme GmbH"), else the organisation of a certificate, else "".
func companyName(in Inputs, home Page) string {
	if n := strings.TrimSpace(in.Raw.Name); n != "" {
		return n
	}
	if t := strings.TrimSpace(home.Title); t != "" {
		for _, sep := range []string{" | ", " – ", " — ", " - ", " · ", ": "} {
			if i := strings.Index(t, sep); i > 0 {
				t = t[:i]
				break
			}
		}
		return strings.TrimSpace(t)
	}
	for _, c := range in.Certs {
		if c.Organization != "" {
			return c.Organization
		}
	}
	return ""
}

// maxDescription bounds a description taken from page text (in characters).
const maxDescription = 300

// description is the homepage's meta description, else its first sentences, else the
// row's description.
func description(home Page, raw string) string {
	if d := strings.TrimSpace(home.Description); d != "" {
		return d
	}
	if t := strings.TrimSpace(home.Text); t != "" {
		return firstSentences(t, maxDescription)
	}
	return strings.TrimSpace(raw)
}

// firstSentences cuts text after the last sentence end within max characters (or at a
// word boundary when there is none).
func firstSentences(text string, max int) string {
	text = strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(text) <= max {
		return text
	}
	cut := []rune(text)[:max]
	s := string(cut)
	if i := strings.LastIndexAny(s, ".!?"); i > max/3 {
		return s[:i+1]
	}
	if i := strings.LastIndexFunc(s, unicode.IsSpace); i > 0 {
		return s[:i] + "…"
	}
	return s + "…"
}

// maxSubdomains caps the subdomain list (the append dataset's cap).
const maxSubdomains = 300

// subdomains lists the hosts under dom that its certificates name, most certificates
// first (then alphabetically), at most maxSubdomains: the apex and www are not
// subdomains, and wildcard names ("*.dom") and e-mail addresses some certificates carry
// as names are not hosts.
func subdomains(dom string, certs []Certificate) []string {
	count := SubdomainCounts(dom, certs)
	out := make([]string, 0, len(count))
	for n := range count {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool {
		if count[out[i]] != count[out[j]] {
			return count[out[i]] > count[out[j]]
		}
		return out[i] < out[j]
	})
	if len(out) > maxSubdomains {
		out = out[:maxSubdomains]
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// SubdomainCounts counts, for each subdomain of dom its certificates name, the
// certificates naming it (see subdomains for what is a subdomain).
func SubdomainCounts(dom string, certs []Certificate) map[string]int {
	count := map[string]int{}
	names := map[string]bool{}
	for _, c := range certs {
		clear(names)
		for _, n := range append([]string{c.FQDN}, c.AlternativeFQDN...) {
			if n, ok := SubdomainName(dom, n); ok {
				names[n] = true
			}
		}
		for n := range names {
			count[n]++
		}
	}
	return count
}

// SubdomainName returns a certificate name as a subdomain of dom (lower case, no
// trailing dot), or false when it is not one: the apex, www, a wildcard, an e-mail
// address, or a name outside dom.
func SubdomainName(dom, name string) (string, bool) {
	n := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(name)), ".")
	if strings.HasPrefix(n, "*.") || strings.ContainsAny(n, "@ /:") || n == dom || n == "www."+dom || !strings.HasSuffix(n, "."+dom) {
		return "", false
	}
	return n, true
}
