package contactgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/people"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/title"
	"github.com/firmoapi/firmo/shared/websearch"
)

// Row is one generated contact (README, Contact generation: the row fields).
type Row struct {
	Name        string          `json:"name"`
	Title       *string         `json:"title"`
	Department  *string         `json:"department"`
	Seniority   *string         `json:"seniority"`
	Email       *string         `json:"email"`
	EmailStatus string          `json:"email_status,omitempty"` // only on rows the finder ran on
	LinkedInURL *string         `json:"linkedin_url"`
	Skills      []string        `json:"skills"` // the pages list none: always null here
	Phone       []contact.Phone `json:"phone"`
	MatchStatus string          `json:"match_status"`
	SourceURL   string          `json:"source_url"`
}

// MatchMatch is match_status of every native row, and of LLM rows whose title fits.
const MatchMatch = "match"

// Warnings a domain may carry.
const (
	warnSearchSetup = "Web search could not run: %s"
	warnSearchNone  = "The search provider ran no query; contacts come from the company's own pages only."
	warnCircuit     = "Search provider %q is failing (circuit breaker open); contacts come from the company's own pages only."
	warnOutOfCredit = "Search provider %q is out of credits; contacts come from the company's own pages only."
	warnNoPages     = "Some companies' pages could not be read (not stored and not fetchable); they have no contacts."
	warnStale       = "People listed only on out-of-date pages (a copyright year two or more years older than the site's newest page) were left out: such pages list people who have left."
	warnFinder      = "find_emails: the email finder is not available in this deployment; rows carry email_status error."
)

type processor struct{ s *Service }

// Provider implements task.Processor: the search provider and the pages are read
// locally or through the guarded client; no LLM vendor is called.
func (processor) Provider() string { return "" }

// Process implements task.Processor: one domain.
func (p processor) Process(ctx context.Context, rec task.Record) (task.Result, error) {
	var prm params
	if err := json.Unmarshal(rec.Params, &prm); err != nil {
		return task.Result{}, fmt.Errorf("decode contact generation params: %w", err)
	}
	if prm.Engine == EngineLLM {
		return p.s.llmEngine(ctx, rec, prm)
	}
	return p.s.native(ctx, rec, prm)
}

// maxFetches bounds the pages fetched live for one domain; maxPersonFetches bounds,
// beside them, the persons' own pages reached by the homepage's links whose text is a
// person's name (a menu of one page per person), read after the team pages, and the
// parts of a team page split by department ("/team/rezeption/" under "/team/").
const (
	maxFetches       = 8
	maxPersonFetches = 16
)

// resultsPerQuery is how many hits each search query asks for.
const resultsPerQuery = 10

func (s *Service) native(ctx context.Context, rec task.Record, prm params) (task.Result, error) {
	var res task.Result
	dom := rec.Key
	m, err := s.gather(ctx, rec, prm, &res)
	if err != nil {
		return res, err
	}
	pages, country := m.pages, m.country()
	found, stale := extract(pages, country)
	if stale {
		res.Warnings = append(res.Warnings, warnStale)
	}
	rows := make([]Row, 0, len(found))
	for _, per := range found {
		rows = append(rows, rowOf(per))
		if len(rows) == prm.MaxContacts {
			break
		}
	}
	s.recordShown(ctx, dom, rows)
	if prm.FindEmails {
		if err := s.findEmails(ctx, rec, dom, rows, &res); err != nil {
			return res, err
		}
	}
	res.Row = s.result(ctx, dom, rows)
	return res, nil
}

// result is a domain's answer: its rows, and the pattern fields when a pattern is known.
func (s *Service) result(ctx context.Context, dom string, rows []Row) map[string]any {
	out := map[string]any{"contacts": rows}
	if s.d.Patterns != nil {
		if pat, ok, err := s.d.Patterns.EmailPattern(ctx, dom); err == nil && ok {
			out["email_pattern"], out["email_pattern_confidence"], out["email_pattern_guess"] = pat.Template, pat.Confidence, pat.Guess
			out["email_pattern_evidence"] = pat.Evidence
		}
	}
	return out
}

// recordShown gives the pattern book the addresses the pages showed (rows hold only
// those before find_emails runs), so the pattern learns from every address seen at
// the domain; a failure to record is logged and changes no row.
func (s *Service) recordShown(ctx context.Context, dom string, rows []Row) {
	if s.d.Patterns == nil {
		return
	}
	for _, r := range rows {
		if r.Email == nil || r.Name == "" {
			continue
		}
		if err := s.d.Patterns.Record(ctx, dom, r.Name, *r.Email, "page:"+r.SourceURL); err != nil {
			s.d.Log.Warn("record a page's address for the email pattern", "domain", dom, "err", err)
		}
	}
}

func rowOf(p people.Person) Row {
	r := Row{Name: p.Name, Phone: p.Phones, MatchStatus: MatchMatch, SourceURL: p.SourceURL}
	if r.Phone == nil {
		r.Phone = []contact.Phone{}
	}
	r.Title, r.Department, r.Seniority = strPtr(p.Title), strPtr(p.Department), strPtr(p.Seniority)
	r.Email, r.LinkedInURL = strPtr(p.Email), strPtr(p.LinkedInURL)
	return r
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// searchQueries shapes the domain's queries with icp_text: the people pages first,
// then the persona's own words. name, when given (context_mode profile), is the
// stored company name, quoted beside the domain.
func searchQueries(icp, dom, name string, n int) []string {
	words := strings.Fields(icp)
	if len(words) > 8 {
		words = words[:8]
	}
	subject := dom
	if name = strings.Join(strings.Fields(strings.ReplaceAll(name, `"`, "")), " "); name != "" {
		subject = dom + ` "` + name + `"`
	}
	qs := []string{
		subject + " team leadership management " + strings.Join(words, " "),
		subject + " about contact imprint",
		subject + " " + strings.Join(words, " "),
		subject + " people board founders",
		subject + " staff directory " + strings.Join(words, " "),
	}
	return qs[:min(n, len(qs))]
}

// search runs the task's search provider and returns the hits' URLs; failures become
// warnings, never a failed domain.
func (s *Service) search(ctx context.Context, org string, prm params, dom, name string, res *task.Result) []string {
	prov, searcher, err := s.d.Searchers.Resolve(ctx, org, prm.SearchProviderID)
	if err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf(warnSearchSetup, apperr.Describe(err).Message))
		return nil
	}
	run := websearch.RunQueries(ctx, searcher, prov.Kind, searchQueries(prm.ICP, dom, name, prm.SearchQueries), resultsPerQuery)
	switch {
	case errors.Is(run.Stopped, websearch.ErrCircuitOpen):
		res.Warnings = append(res.Warnings, fmt.Sprintf(warnCircuit, prov.Name))
	case errors.Is(run.Stopped, websearch.ErrOutOfCredits):
		res.Warnings = append(res.Warnings, fmt.Sprintf(warnOutOfCredit, prov.Name))
	}
	urls := make([]string, 0, len(run.Hits))
	for _, h := range run.Hits {
		urls = append(urls, h.URL)
	}
	use := task.SearchUsage{Provider: prov.Kind, Model: websearch.Models[prov.Kind], QueriesExecuted: run.Executed, QueriesSucceeded: run.Succeeded, CostUSD: run.CostUSD}
	if use.QueriesExecuted == 0 {
		res.Warnings = append(res.Warnings, warnSearchNone)
	}
	res.Search = append(res.Search, use)
	return urls
}

// peoplePath matches the paths of the pages people are listed on, in the world's
// languages.
var peoplePath = regexp.MustCompile(`(?i)team|about|ueber|uber|über|leadership|management|geschaeftsleitung|geschaeftsfuehrung|geschäftsführung|vorstand|direction|direccion|dirección|direzione|directie|lideranca|liderança|equipe|équipe|equipo|equipa|contact|kontakt|contatti|imprint|impressum|mentions|aviso-legal|chi-siamo|chi siamo|quienes|quiénes|over-ons|over ons|sobre|people|staff|board|founders|mitarbeiter|governance|gouvernance|bestuur|vereniging|diretoria|directoria|directiva|directivo|direttivo|consiglio|conselho|consejo|conseil|gerentes|gremien|om-oss|om oss|lederlag|ledelse|styret|organisation|organigram|quem-somos|quem somos|qui-sommes|qui sommes|nosotros|bureau|junta|comit|administration|verwaltungsrat|coaches|trainer|trener|entraineur|entrenador|allenator|faculty|officers|trustees|advisors|advisers|zespol|zespół|zarzad|zarząd|kadra|tým|vedeni|vedení|vybor|výbor|styrelse|medarbetare|bestyrelse|starfsfolk|starfsfólk|stjorn|stjórn|trunadarrad|trúnaðarráð|medarbejdere|hallitus|henkilosto|henkilöstö|csapat|munkatars|munkatárs|ekip|yonetim|yönetim|echipa|echipă|squadra|medewerkers`)

// page is a page to read.
type page struct {
	url, html string
}

// pages gathers the domain's pages to read: with crawl (context_mode website) the
// homepage, the people pages it links to, the stored people pages and the search hits
// on the company's host; without, the search hits on the company's host alone. Each
// page is read from the store when held there, else fetched (at most maxFetches).
func (s *Service) pages(ctx context.Context, dom string, stored []company.Page, hits []string, crawl bool) []page {
	byURL := map[string]company.Page{}
	var home *company.Page
	for i, p := range stored {
		if p.StatusCode < 200 || p.StatusCode > 299 || p.HTML == "" {
			continue
		}
		byURL[p.URL] = p
		if u, err := url.Parse(p.URL); err == nil && (u.Path == "" || u.Path == "/") && (home == nil || p.FetchedAt.After(home.FetchedAt)) {
			home = &stored[i]
		}
	}
	var want []string
	seen := map[string]bool{}
	add := func(u string) {
		if !seen[u] && onDomain(u, dom) {
			seen[u] = true
			want = append(want, u)
		}
	}
	if crawl {
		homeURL := s.origin(dom) + "/"
		if home != nil {
			homeURL = home.URL
		}
		add(homeURL)
		for _, p := range stored {
			if u, err := url.Parse(p.URL); err == nil && peoplePath.MatchString(u.Path) {
				add(p.URL)
			}
		}
	}
	for _, h := range hits {
		add(h)
	}
	var out []page
	fetched, personal := 0, 0
	own := map[string]bool{} // persons' own pages, each linked by the person's name
	for i := 0; i < len(want); i++ {
		u := want[i]
		var body string
		if p, ok := byURL[u]; ok {
			body = p.HTML
		} else if s.d.Fetch != nil && (fetched < maxFetches || own[u] && personal < maxPersonFetches) {
			if fetched < maxFetches {
				fetched++
			} else {
				personal++
			}
			resp, err := s.d.Fetch.Get(ctx, u)
			if err != nil || resp.Status < 200 || resp.Status > 299 {
				continue
			}
			body, u = string(resp.Body), resp.FinalURL
		} else {
			continue
		}
		out = append(out, page{url: u, html: body})
		if crawl && i == 0 { // the homepage: follow its links to people pages, the likeliest first
			links := peopleLinks(body, u)
			sort.SliceStable(links, func(a, b int) bool { return linkRank(links[a]) < linkRank(links[b]) })
			for _, l := range links {
				add(l)
				own[l] = own[l] || linkRank(l) == 2 || underTeamPage(l, links)
			}
		}
	}
	return out
}

// origin is where a domain's crawl starts: the fetcher's Origin when it has one
// (fetch.Crawler: http://host:port for an allow-listed test site), else https://<domain>.
func (s *Service) origin(dom string) string {
	if o, ok := s.d.Fetch.(interface{ Origin(host string) string }); ok {
		return o.Origin(dom)
	}
	return "https://" + dom
}

// onDomain reports whether a URL is on the company's domain or one of its subdomains.
func onDomain(raw, dom string) bool {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	h := strings.ToLower(u.Hostname())
	return h == dom || strings.HasSuffix(h, "."+dom)
}

// peopleLinks are the homepage's links to people pages, resolved against base.
func peopleLinks(body, base string) []string {
	b, err := url.Parse(base)
	if err != nil {
		return nil
	}
	doc, err := html.Parse(strings.NewReader(body))
	if err != nil {
		return nil
	}
	var out, named []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.DataAtom == atom.A {
			for _, a := range n.Attr {
				if a.Key != "href" {
					continue
				}
				u, err := b.Parse(strings.TrimSpace(a.Val))
				if err != nil {
					continue
				}
				u.Fragment = ""
				switch text := anchorText(n); {
				case peoplePath.MatchString(u.Path) || peoplePath.MatchString(text):
					out = append(out, u.String())
				case people.IsPersonName(strings.TrimLeft(strings.TrimSpace(text), "|•·-–> ")):
					named = append(named, u.String())
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	// Links whose text is a person's name, two or more ("Team" menus of one page per
	// person), come after the team pages.
	if len(named) >= 2 {
		out = append(out, named...)
	}
	return out
}

// teamPath and aboutPath rank the homepage's people links within the page budget:
// pages that list people (team, leadership, board...) before about pages, and those
// before contact and imprint pages.
var (
	teamPath  = regexp.MustCompile(`(?i)team|leadership|management|geschaeftsleitung|geschaeftsfuehrung|vorstand|direction|direccion|direzione|directie|lideranca|equipe|equipo|equipa|people|staff|board|founders|mitarbeiter|governance|bestuur|diretoria|direttivo|consiglio|gerentes|lederlag|ledelse|styret`)
	aboutPath = regexp.MustCompile(`(?i)about|ueber|uber|über|chi-siamo|quienes|over-ons|sobre|om-oss|quem-somos|qui-sommes|nosotros`)
)

func linkRank(u string) int {
	p := u
	if pu, err := url.Parse(u); err == nil {
		p = pu.Path
	}
	switch {
	case teamPath.MatchString(p):
		return 0
	case aboutPath.MatchString(p):
		return 1
	case !peoplePath.MatchString(p):
		return 2 // a person's own page, reached by a link with the person's name
	}
	return 3
}

// anchorText is a link's text, for links to people pages whose paths say nothing
// ("/site/association" behind "Vereniging & bestuur").
func anchorText(n *html.Node) string {
	var b strings.Builder
	var rec func(*html.Node)
	rec = func(c *html.Node) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
		for k := c.FirstChild; k != nil; k = k.NextSibling {
			rec(k)
		}
	}
	rec(n)
	return b.String()
}

// copyright finds the years a page's copyright line states ("© 2021").
var copyright = regexp.MustCompile(`(?:©|&copy;|\(c\)|Copyright)\s*(?:[0-9]{4}\s*[-–]\s*)?([12][0-9]{3})`)

func pageYear(body string) int {
	y := 0
	for _, m := range copyright.FindAllStringSubmatch(body, -1) {
		if v, err := strconv.Atoi(m[1]); err == nil && v > y {
			y = v
		}
	}
	return y
}

// extract reads the people of every page, merged by name (the first page a person
// was found on is the source, the homepage read last), and drops the people found only on out-of-date pages.
// The result is ordered most senior first, then in page order.
func extract(pages []page, country string) ([]people.Person, bool) {
	newest := 0
	years := make([]int, len(pages))
	for i, p := range pages {
		years[i] = pageYear(p.html)
		newest = max(newest, years[i])
	}
	type entry struct {
		p     people.Person
		fresh bool
	}
	byName := map[string]*entry{}
	var order []string
	for _, i := range homepageLast(pages) {
		pg := pages[i]
		fresh := years[i] == 0 || years[i] >= newest-1
		for _, per := range people.Extract(pg.html, pg.url, people.Options{Country: country}) {
			k := people.NameKey(per.Name)
			e, ok := byName[k]
			switch {
			case !ok:
				byName[k] = &entry{p: per, fresh: fresh}
				order = append(order, k)
			case fresh && !e.fresh: // a current page is the better source
				e.p, e.fresh = people.Merge(per, e.p), true
			default:
				e.p = people.Merge(e.p, per)
			}
		}
	}
	var out []people.Person
	stale := false
	for _, k := range order {
		e := byName[k]
		if !e.fresh {
			stale = true
			continue
		}
		out = append(out, e.p)
	}
	rank := map[string]int{}
	for i, sen := range title.Seniorities() {
		rank[sen] = i
	}
	sort.SliceStable(out, func(i, j int) bool { return senRank(rank, out[i]) < senRank(rank, out[j]) })
	return out, stale
}

// homepageLast orders the pages for reading: the people pages first, the homepage
// (whose teasers shorten titles) last, so a person both list takes the people page's
// title and source.
func homepageLast(pages []page) []int {
	var out, homes []int
	for i, p := range pages {
		if u, err := url.Parse(p.url); err == nil && (u.Path == "" || u.Path == "/") {
			homes = append(homes, i)
			continue
		}
		out = append(out, i)
	}
	return append(out, homes...)
}

func senRank(rank map[string]int, p people.Person) int {
	if r, ok := rank[p.Seniority]; ok {
		return r
	}
	return len(rank)
}

// underTeamPage reports whether u's path lies under the path of another of the
// homepage's links that names a team page ("/team/rezeption/" under "/team/").
func underTeamPage(u string, links []string) bool {
	pu, err := url.Parse(u)
	if err != nil {
		return false
	}
	for _, l := range links {
		pl, err := url.Parse(l)
		if err != nil || pl.Path == pu.Path || !teamPath.MatchString(pl.Path) {
			continue
		}
		if parent := strings.TrimSuffix(pl.Path, "/") + "/"; parent != "/" && strings.HasPrefix(pu.Path, parent) {
			return true
		}
	}
	return false
}
