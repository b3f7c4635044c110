package world

import (
	"fmt"
	"html"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/nyaruka/phonenumbers"

	"github.com/firmoapi/firmo/shared/company"
)

// Person is a member of a company's team page: raw material for contact search.
type Person struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	Email string `json:"email,omitempty"`
}

// emailPatterns are the address patterns companies use, {f} first name, {l} last name,
// {i} first initial.
var emailPatterns = []string{"{f}.{l}", "{f}.{l}", "{i}{l}", "{f}", "{f}{l}", "{i}.{l}", "{l}"}

// localPart builds an address local part: lower case ASCII, spaces and accents dropped.
func localPart(pattern, first, last string) string {
	f, l := slug(first, true), strings.ReplaceAll(slug(last, true), "-", "")
	i := ""
	if f != "" {
		i = f[:1]
	}
	return strings.NewReplacer("{f}", f, "{l}", l, "{i}", i).Replace(pattern)
}

// pageSet is what pages() decides for one company.
type pageSet struct {
	pages    []company.Page
	people   []Person
	vendors  []string // registrable vendor domains on the homepage, for the truth
	homepage string
}

// pages writes a company's homepage and team page, in its language. Closed companies
// keep an old page, show a parking page or none; a domain taken over redirects.
func (w *World) pages(i int, s skeleton, row company.CompanyRow, phone string) pageSet {
	r := w.rng(i, streamPages)
	lx := lexicons()[s.lang]
	host := s.domain
	if r.IntN(10) < 7 {
		host = "www." + s.domain
	}
	home := "https://" + host + "/"
	asOf := w.opts.AsOf
	fetched := asOf.Add(-time.Duration(1+r.IntN(25))*24*time.Hour - time.Duration(r.IntN(86400))*time.Second)
	var ps pageSet
	ps.homepage = home
	if s.redirectTo >= 0 {
		target := w.skel[s.redirectTo]
		ps.pages = []company.Page{{URL: home, StatusCode: 301, FinalURL: "https://www." + target.domain + "/", FetchedAt: fetched}}
		return ps
	}
	year := asOf.Year()
	if !s.closed.IsZero() {
		switch k := r.IntN(100); {
		case k < 35:
			ps.pages = []company.Page{{URL: home, StatusCode: 200, FetchedAt: fetched, HTML: parkedPage(s.domain)}}
			return ps
		case k < 60:
			return ps // nothing left to fetch
		}
		// The last crawl before the company closed.
		fetched = s.closed.Add(-time.Duration(1+r.IntN(60)) * 24 * time.Hour)
		year = fetched.Year()
	}
	people := w.team(r, s, lx)
	ps.people = people
	body, vendorDomains := homepageHTML(r, s, lx, row, phone, year)
	ps.vendors = vendorDomains
	ps.pages = append(ps.pages, company.Page{URL: home, StatusCode: 200, FetchedAt: fetched, HTML: body})
	if r.IntN(100) < 85 {
		ps.pages = append(ps.pages, company.Page{
			URL: "https://" + host + lx.one("team.path"), StatusCode: 200,
			FetchedAt: fetched.Add(time.Duration(1+r.IntN(600)) * time.Second),
			HTML:      teamHTML(r, s, lx, people, year),
		})
	}
	return ps
}

func (w *World) team(r *rand.Rand, s skeleton, lx lexicon) []Person {
	n := 3 + r.IntN(6)
	if s.employees < 5 {
		n = 1 + r.IntN(s.employees)
	}
	pattern := pick(r, emailPatterns)
	titles := lx.list("title")
	out := make([]Person, 0, n)
	seen := map[string]bool{}
	for k := 0; k < n; k++ {
		first := pick(r, lx.list(pick(r, []string{"first.m", "first.f"})))
		last := pick(r, lx.list("last"))
		if seen[first+last] {
			continue
		}
		seen[first+last] = true
		title := titles[0]
		if k > 0 {
			title = titles[1+r.IntN(len(titles)-1)]
		}
		p := Person{Name: first + " " + last, Title: title}
		if r.IntN(2) == 0 {
			p.Email = localPart(pattern, first, last) + "@" + s.domain
		}
		out = append(out, p)
	}
	return out
}

func esc(s string) string { return html.EscapeString(s) }

// homepageHTML renders a homepage: head with title, description and third-party
// scripts; navigation, a hero, about text written from the industry's and business
// model's sentences, services, a contact block and a footer with social links.
func homepageHTML(r *rand.Rand, s skeleton, lx lexicon, row company.CompanyRow, phone string, year int) (string, []string) {
	vars := map[string]string{"name": shortName(s), "city": s.place.Name, "year": fmt.Sprint(s.founded.Year()), "people": fmt.Sprint(s.employees)}
	tagline := fill(pick(r, lx.list(s.industry+".tagline")), vars)
	sentences := append([]string(nil), lx.list(s.industry+".sentence")...)
	r.Shuffle(len(sentences), func(a, b int) { sentences[a], sentences[b] = sentences[b], sentences[a] })
	sentences = sentences[:3+r.IntN(len(sentences)-2)]
	services := append([]string(nil), lx.list(s.industry+".service")...)
	r.Shuffle(len(services), func(a, b int) { services[a], services[b] = services[b], services[a] })

	var b strings.Builder
	langAttr := ""
	if r.IntN(10) < 9 {
		langAttr = fmt.Sprintf(` lang="%s"`, s.lang)
	}
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html%s>\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n", langAttr)
	fmt.Fprintf(&b, "<title>%s | %s</title>\n", esc(shortName(s)), esc(tagline))
	if r.IntN(10) < 6 {
		fmt.Fprintf(&b, "<meta name=\"description\" content=\"%s\">\n", esc(fill(sentences[0], vars)))
	}
	fmt.Fprintf(&b, "<link rel=\"stylesheet\" href=\"/assets/site.css\">\n")
	var vendorDomains []string
	for _, v := range vendors {
		p := v.weight
		for _, ind := range v.boost {
			if ind == s.industry {
				p *= 3
			}
		}
		if r.IntN(100) < p {
			u := v.url
			if strings.Contains(u, "%s") {
				u = fmt.Sprintf(u, fmt.Sprintf("%x", r.Uint32()))
			}
			vendorDomains = append(vendorDomains, u)
			fmt.Fprintf(&b, "<script async src=\"%s\"></script>\n", esc(u))
		}
	}
	b.WriteString("</head>\n<body>\n<header>\n<nav>\n")
	nav := lx.list("nav")
	for k, item := range nav {
		href := "/#" + slug(item, true)
		if k == 0 {
			href = "/"
		}
		if k == 3 {
			href = lx.one("team.path")
		}
		fmt.Fprintf(&b, "<a href=\"%s\">%s</a>\n", href, esc(item))
	}
	b.WriteString("</nav>\n</header>\n<main>\n")
	fmt.Fprintf(&b, "<section class=\"hero\">\n<h1>%s</h1>\n<p>%s</p>\n</section>\n", esc(tagline), esc(fill(sentences[0], vars)))
	fmt.Fprintf(&b, "<section id=\"about\">\n<h2>%s</h2>\n<p>", esc(lx.one("about.title")))
	paragraph := []string{fill(pick(r, lx.list("about")), vars)}
	for _, sn := range sentences[1:] {
		paragraph = append(paragraph, fill(sn, vars))
	}
	paragraph = append(paragraph, fill(pick(r, lx.list("model."+s.model)), vars))
	b.WriteString(esc(strings.Join(paragraph, " ")))
	b.WriteString("</p>\n</section>\n")
	fmt.Fprintf(&b, "<section id=\"services\">\n<h2>%s</h2>\n<ul>\n", esc(lx.one("services.title")))
	for _, sv := range services[:3+r.IntN(len(services)-2)] {
		fmt.Fprintf(&b, "<li>%s</li>\n", esc(sv))
	}
	b.WriteString("</ul>\n</section>\n")
	fmt.Fprintf(&b, "<section id=\"contact\">\n<h2>%s</h2>\n<address>\n%s<br>\n", esc(lx.one("contact.title")), esc(s.name))
	if row.Street != "" {
		fmt.Fprintf(&b, "%s<br>\n", esc(row.Street))
	}
	fmt.Fprintf(&b, "%s %s<br>\n</address>\n", esc(row.Zip), esc(row.City))
	if phone != "" && r.IntN(10) < 8 {
		fmt.Fprintf(&b, "<p>%s: <a href=\"tel:%s\">%s</a></p>\n", esc(lx.one("contact.phone")), esc(strings.ReplaceAll(phone, " ", "")), esc(phone))
	}
	if r.IntN(4) < 3 {
		mbox := pick(r, []string{"info", "contact", "hello", "office", "kontakt", "contacto", "info"})
		fmt.Fprintf(&b, "<p>%s: <a href=\"mailto:%s@%s\">%s@%s</a></p>\n", esc(lx.one("contact.email")), mbox, s.domain, mbox, s.unicodeOrASCII())
	}
	b.WriteString("</section>\n</main>\n<footer>\n")
	handle := slug(s.short, true)
	socials := []struct {
		url string
		p   int
	}{
		{"https://www.linkedin.com/company/" + handle, 80},
		{"https://x.com/" + strings.ReplaceAll(handle, "-", "_"), 35},
		{"https://www.facebook.com/" + strings.ReplaceAll(handle, "-", ""), 40},
		{"https://www.instagram.com/" + strings.ReplaceAll(handle, "-", "."), map[bool]int{true: 50, false: 10}[s.model == "B2C" || s.model == "D2C"]},
		{"https://www.youtube.com/@" + strings.ReplaceAll(handle, "-", ""), 15},
		{"https://www.xing.com/pages/" + handle, map[bool]int{true: 30, false: 0}[s.lang == "de"]},
		{"https://github.com/" + handle, map[bool]int{true: 40, false: 0}[s.industry == "SOFTWARE"]},
	}
	for _, so := range socials {
		if r.IntN(100) < so.p {
			fmt.Fprintf(&b, "<a href=\"%s\" rel=\"noopener\">%s</a>\n", so.url, esc(so.url))
		}
	}
	fmt.Fprintf(&b, "<p><a href=\"/legal\">%s</a> · <a href=\"/privacy\">%s</a></p>\n", esc(lx.one("legal")), esc(lx.one("privacy")))
	fmt.Fprintf(&b, "<p>© %d %s · %s</p>\n", year, esc(s.name), esc(lx.one("rights")))
	fmt.Fprintf(&b, "<div class=\"cookie-banner\">%s</div>\n", esc(lx.one("cookie")))
	b.WriteString("</footer>\n</body>\n</html>\n")
	return b.String(), vendorDomains
}

func teamHTML(r *rand.Rand, s skeleton, lx lexicon, people []Person, year int) string {
	vars := map[string]string{"name": shortName(s)}
	var b strings.Builder
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"%s\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s | %s</title>\n</head>\n<body>\n<main>\n", s.lang, esc(lx.one("team.title")), esc(shortName(s)))
	fmt.Fprintf(&b, "<h1>%s</h1>\n<p>%s</p>\n<ul class=\"team\">\n", esc(lx.one("team.title")), esc(fill(lx.one("team.intro"), vars)))
	for _, p := range people {
		fmt.Fprintf(&b, "<li class=\"member\"><h3>%s</h3><p class=\"role\">%s</p>", esc(p.Name), esc(p.Title))
		if p.Email != "" {
			fmt.Fprintf(&b, "<a href=\"mailto:%s\">%s</a>", esc(p.Email), esc(p.Email))
		}
		b.WriteString("</li>\n")
	}
	fmt.Fprintf(&b, "</ul>\n</main>\n<footer><p>© %d %s</p></footer>\n</body>\n</html>\n", year, esc(s.name))
	return b.String()
}

// parkedPage is what a registrar shows on an abandoned domain.
func parkedPage(domain string) string {
	return fmt.Sprintf("<!DOCTYPE html>\n<html lang=\"en\">\n<head><title>%s</title></head>\n<body><h1>%s</h1><p>%s</p></body>\n</html>\n", domain, domain, esc(lexicons()["en"].one("parked")))
}

// shortName is the name a site calls itself by: without the legal form.
func shortName(s skeleton) string {
	n := strings.TrimSpace(s.name)
	for _, l := range s.country.Legal {
		if strings.HasSuffix(n, " "+l) {
			return strings.TrimSpace(strings.TrimSuffix(n, " "+l))
		}
	}
	return n
}

func (s skeleton) unicodeOrASCII() string {
	if s.unicode != "" {
		return s.unicode
	}
	return s.domain
}

// phoneNumber makes a valid landline number of the country, written the national way
// (or, one time in five, the international way), as a registry row would have it.
func phoneNumber(r *rand.Rand, cc string) string {
	ex := phonenumbers.GetExampleNumberForType(cc, phonenumbers.FIXED_LINE)
	if ex == nil {
		return ""
	}
	nsn := phonenumbers.GetNationalSignificantNumber(ex)
	for try := 0; try < 50; try++ {
		// Keep the leading digits (area or network code) and vary the subscriber number.
		digits := []byte(nsn)
		for k := max(len(digits)*2/5, 1); k < len(digits); k++ {
			digits[k] = byte('0' + r.IntN(10))
		}
		n, err := phonenumbers.Parse(string(digits), cc)
		if err != nil || !phonenumbers.IsValidNumber(n) {
			continue
		}
		if r.IntN(5) == 0 {
			return phonenumbers.Format(n, phonenumbers.INTERNATIONAL)
		}
		return phonenumbers.Format(n, phonenumbers.NATIONAL)
	}
	return ""
}
