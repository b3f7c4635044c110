package company

import (
	"bytes"
	"encoding/json"
	"net/mail"
	"net/url"
	"sort"
	"strings"

	"golang.org/x/net/html"

	"github.com/firmoapi/firmo/shared/domain"
)

// pageLinks is what the pipeline reads from a page's markup besides its text.
type pageLinks struct {
	Emails  []string // mailto: addresses
	Phones  []string // tel: numbers as written
	Social  []string // profile URLs on the social networks of socialHosts
	Vendors []string // registrable domains of third-party scripts, frames, styles and form actions
	Refresh string   // target of a <meta http-equiv="refresh">
	Title   string   // the <title>, for when no extractor read the page
	// Headings are the texts of the page's h1, h2 and h3 elements, in order.
	Headings []string
	// Types are the schema.org and Open Graph types the page declares about itself:
	// JSON-LD @type values (also inside @graph and nested objects), microdata
	// itemtype IRIs and og:type.
	Types []string
}

// maxHeadings bounds the headings kept, maxHeadingLen each one's length (bytes).
const (
	maxHeadings   = 40
	maxHeadingLen = 200
	maxTypes      = 20
)

// maxLinks bounds each list, so a link farm cannot bloat a profile.
const maxLinks = 20

// socialHosts are the networks whose profile links become social_urls.
var socialHosts = map[string]bool{
	"linkedin.com": true, "twitter.com": true, "x.com": true, "facebook.com": true,
	"instagram.com": true, "youtube.com": true, "github.com": true, "xing.com": true,
	"tiktok.com": true, "mastodon.social": true,
}

// scanLinks tokenizes HTML (never executing or fetching anything) and collects links.
// own is the page's registrable domain: its own assets are not vendors.
func scanLinks(doc []byte, own string) pageLinks {
	var out pageLinks
	seen := map[string]bool{}
	add := func(list *[]string, v string) {
		if v == "" || len(*list) >= maxLinks || seen[v] {
			return
		}
		seen[v] = true
		*list = append(*list, v)
	}
	// Vendors have their own, larger cap: the append dataset lists up to MaxVendors.
	addVendor := func(v string) {
		if v == "" || len(out.Vendors) >= MaxVendors || seen[v] {
			return
		}
		seen[v] = true
		out.Vendors = append(out.Vendors, v)
	}
	addType := func(t string) {
		t = strings.TrimSpace(t)
		if t == "" || len(out.Types) >= maxTypes || seen["type "+t] {
			return
		}
		seen["type "+t] = true
		out.Types = append(out.Types, t)
	}
	var heading strings.Builder
	inHeading := ""
	z := html.NewTokenizer(bytes.NewReader(doc))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if inHeading != "" {
			switch tt {
			case html.TextToken:
				if heading.Len() < maxHeadingLen {
					heading.WriteString(" ")
					heading.Write(z.Text())
				}
			case html.EndTagToken:
				if name, _ := z.TagName(); string(name) == inHeading {
					if h := strings.Join(strings.Fields(html.UnescapeString(heading.String())), " "); h != "" && len(out.Headings) < maxHeadings {
						out.Headings = append(out.Headings, h)
					}
					heading.Reset()
					inHeading = ""
				}
			}
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		name, hasAttr := z.TagName()
		switch string(name) {
		case "title":
			if out.Title == "" && z.Next() == html.TextToken {
				out.Title = strings.Join(strings.Fields(html.UnescapeString(string(z.Text()))), " ")
			}
			continue
		case "h1", "h2", "h3":
			if tt == html.StartTagToken {
				inHeading = string(name)
				heading.Reset()
			}
		}
		if !hasAttr {
			continue
		}
		attrs := map[string]string{}
		for {
			k, v, more := z.TagAttr()
			attrs[string(k)] = string(v)
			if !more {
				break
			}
		}
		switch string(name) {
		case "a":
			href := strings.TrimSpace(attrs["href"])
			lower := strings.ToLower(href)
			switch {
			case strings.HasPrefix(lower, "mailto:"):
				add(&out.Emails, mailtoAddress(href[len("mailto:"):]))
			case strings.HasPrefix(lower, "tel:"):
				add(&out.Phones, strings.TrimSpace(href[len("tel:"):]))
			default:
				add(&out.Social, socialURL(href))
			}
		case "script", "iframe", "img":
			addVendor(vendorDomain(attrs["src"], own))
			if string(name) == "script" && strings.EqualFold(strings.TrimSpace(attrs["type"]), "application/ld+json") && z.Next() == html.TextToken {
				for _, t := range jsonLDTypes(z.Text()) {
					addType(t)
				}
			}
		case "link":
			addVendor(vendorDomain(attrs["href"], own))
		case "form":
			addVendor(vendorDomain(attrs["action"], own))
		case "meta":
			if strings.EqualFold(attrs["http-equiv"], "refresh") {
				out.Refresh = refreshTarget(attrs["content"])
			}
			if strings.EqualFold(attrs["property"], "og:type") {
				addType(attrs["content"])
			}
		}
		if it := attrs["itemtype"]; it != "" {
			for _, t := range strings.Fields(it) {
				addType(t)
			}
		}
	}
	sort.Strings(out.Vendors)
	return out
}

func mailtoAddress(s string) string {
	s, _, _ = strings.Cut(s, "?")
	if u, err := url.PathUnescape(s); err == nil {
		s = u
	}
	a, err := mail.ParseAddress(strings.TrimSpace(s))
	if err != nil || !strings.Contains(a.Address, ".") {
		return ""
	}
	return strings.ToLower(a.Address)
}

// socialURL returns a canonical profile URL (https, no query or fragment, no trailing
// slash) when href points into a social network, else "".
func socialURL(href string) string {
	u, err := url.Parse(href)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	reg, err := domain.Normalize(u.Host)
	if err != nil || !socialHosts[reg] {
		return ""
	}
	p := strings.TrimRight(u.EscapedPath(), "/")
	if p == "" {
		return "" // the network's home page, not a profile
	}
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	return "https://" + host + p
}

func vendorDomain(src, own string) string {
	src = strings.TrimSpace(src)
	if !strings.HasPrefix(src, "http://") && !strings.HasPrefix(src, "https://") && !strings.HasPrefix(src, "//") {
		return "" // relative: the site's own asset
	}
	u, err := url.Parse(src)
	if err != nil || u.Host == "" {
		return ""
	}
	reg, err := domain.Normalize(u.Host)
	if err != nil || reg == own {
		return ""
	}
	return reg
}

// refreshTarget reads "5; url=https://example.com/" from a meta refresh.
func refreshTarget(content string) string {
	_, rest, ok := strings.Cut(content, ";")
	if !ok {
		return ""
	}
	rest = strings.TrimSpace(rest)
	if len(rest) < 4 || !strings.EqualFold(rest[:4], "url=") {
		return ""
	}
	return strings.Trim(strings.TrimSpace(rest[4:]), `'"`)
}

// jsonLDTypes lists the @type values of a JSON-LD block: of its top object or array,
// of the objects in its @graph, and of nested objects (an Organization's
// department, a WebPage's about), at most maxTypes. A block that is not JSON gives
// none.
func jsonLDTypes(raw []byte) []string {
	var v any
	if err := json.Unmarshal(bytes.TrimSpace(raw), &v); err != nil {
		return nil
	}
	var out []string
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > 6 || len(out) >= maxTypes {
			return
		}
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				walk(e, depth+1)
			}
		case map[string]any:
			switch t := x["@type"].(type) {
			case string:
				out = append(out, t)
			case []any:
				for _, e := range t {
					if s, ok := e.(string); ok {
						out = append(out, s)
					}
				}
			}
			keys := make([]string, 0, len(x))
			for k := range x {
				if k != "@type" && k != "@context" {
					keys = append(keys, k)
				}
			}
			sort.Strings(keys) // a stable order: the same page always gives the same list
			for _, k := range keys {
				walk(x[k], depth+1)
			}
		}
	}
	walk(v, 0)
	return out
}
