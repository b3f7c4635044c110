package company

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/domain"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/rowfile"
)

// Site is the raw material about a company's web presence that is neither a page nor a
// certificate: the resources its homepage loaded when rendered (forms and frames that
// scripts inject never appear in the fetched HTML) and its DNS records besides MX. The
// append datasets read it (vendors); it does not feed the profile, so storing it never
// re-derives a record.
type Site struct {
	// Resources are the third-party resources the homepage loaded.
	Resources []Resource `json:"resources,omitempty"`
	// TXT are the TXT records of the apex (SPF, domain verification tokens).
	TXT []string `json:"txt,omitempty"`
	// CNAME are the aliases of the domain's hosts.
	CNAME []CNAME `json:"cname,omitempty"`
}

// Resource kinds: the homepage resources whose hosts are vendors.
const (
	ResourceScript     = "script"
	ResourceStylesheet = "stylesheet"
	ResourceIframe     = "iframe"
	ResourceForm       = "form"
)

// Resource is one resource a homepage loaded: its kind and URL (a form's action).
type Resource struct {
	Kind string `json:"kind"`
	URL  string `json:"url"`
}

// CNAME is one alias record: Host (a name under the domain) points at Target.
type CNAME struct {
	Host   string `json:"host"`
	Target string `json:"target"`
}

// Empty reports whether the site holds nothing.
func (s Site) Empty() bool { return len(s.Resources) == 0 && len(s.TXT) == 0 && len(s.CNAME) == 0 }

func siteKey(domain string) kv.Key { return kv.Key{PK: dataPK(domain), SK: "site"} }

// PutSite implements Store.
func (s *KVStore) PutSite(ctx context.Context, domain string, site Site) error {
	data, err := json.Marshal(site)
	if err != nil {
		return err
	}
	if _, err := s.kv.Put(ctx, siteKey(domain), data, kv.Cond{}); err != nil {
		return fmt.Errorf("put site of %s: %w", domain, err)
	}
	return nil
}

// Site implements Store.
func (s *KVStore) Site(ctx context.Context, domain string) (Site, error) {
	it, err := s.kv.Get(ctx, siteKey(domain))
	if err != nil {
		return Site{}, fmt.Errorf("site of %s: %w", domain, err)
	}
	var site Site
	if err := json.Unmarshal(it.Data, &site); err != nil {
		return Site{}, fmt.Errorf("decode site of %s: %w", domain, err)
	}
	return site, nil
}

// Sites implements Store.
func (s *KVStore) Sites(ctx context.Context, domains []string) (map[string]Site, error) {
	keys := make([]kv.Key, len(domains))
	for i, d := range domains {
		keys[i] = siteKey(d)
	}
	items, err := s.kv.GetMany(ctx, keys)
	if err != nil {
		return nil, fmt.Errorf("sites of %d domains: %w", len(domains), err)
	}
	out := make(map[string]Site, len(items))
	for i, d := range domains {
		it, ok := items[keys[i]]
		if !ok {
			continue
		}
		var site Site
		if err := json.Unmarshal(it.Data, &site); err != nil {
			return nil, fmt.Errorf("decode site of %s: %w", d, err)
		}
		out[d] = site
	}
	return out, nil
}

// redirectKey is the reverse edge of a redirect: source's homepage redirects to
// target. It lives in the target's data partition, so the sources of a domain are one
// query.
func redirectKey(target, source string) kv.Key {
	return kv.Key{PK: dataPK(target), SK: "redirfrom#" + source}
}

// SetRedirect implements Store.
func (s *KVStore) SetRedirect(ctx context.Context, source, from, to string) error {
	if from != "" && from != to {
		if err := s.kv.Delete(ctx, redirectKey(from, source), kv.Cond{}); err != nil && !errors.Is(err, apperr.ErrNotFound) {
			return fmt.Errorf("drop redirect %s -> %s: %w", source, from, err)
		}
	}
	if to != "" {
		if _, err := s.kv.Put(ctx, redirectKey(to, source), []byte("{}"), kv.Cond{}); err != nil {
			return fmt.Errorf("put redirect %s -> %s: %w", source, to, err)
		}
	}
	return nil
}

// RedirectSources implements Store.
func (s *KVStore) RedirectSources(ctx context.Context, target string) ([]string, error) {
	var out []string
	cursor := ""
	for {
		page, err := s.kv.Query(ctx, dataPK(target), kv.QueryOptions{Prefix: "redirfrom#", Limit: 1000, Cursor: cursor})
		if err != nil {
			return nil, fmt.Errorf("redirect sources of %s: %w", target, err)
		}
		for _, it := range page.Items {
			out = append(out, strings.TrimPrefix(it.Key.SK, "redirfrom#"))
		}
		if page.Next == "" {
			return out, nil
		}
		cursor = page.Next
	}
}

// PutSite stores a company's site material (see Site), replacing what was stored.
func (s *Service) PutSite(ctx context.Context, dom string, site Site) error {
	return s.store.PutSite(ctx, dom, site)
}

// FetchStatus is the outcome of the latest fetch of a company's homepage.
type FetchStatus struct {
	URL        string `json:"url"`
	StatusCode int    `json:"status_code"`
	// FetchedAt is the fetch's date (YYYY-MM-DD).
	FetchedAt string `json:"fetched_at"`
}

// StatusReason is the reason phrase of an HTTP status code ("" for an unknown code).
func StatusReason(code int) string { return http.StatusText(code) }

// fetchStatus is the latest homepage fetch among a company's pages, nil without one.
func fetchStatus(dom string, pages []Page) *FetchStatus {
	home, i := homepage(dom, pages)
	if i < 0 {
		return nil
	}
	return &FetchStatus{URL: home.URL, StatusCode: home.StatusCode, FetchedAt: Date(home.FetchedAt)}
}

// MaxVendors caps a company's vendor list (the append dataset's cap).
const MaxVendors = 100

// verificationTokens map the prefix of a domain-verification TXT record to the vendor
// that asked for it.
var verificationTokens = []struct{ prefix, vendor string }{
	{"google-site-verification=", "google.com"},
	{"ms=", "microsoft.com"},
	{"facebook-domain-verification=", "facebook.com"},
	{"apple-domain-verification=", "apple.com"},
	{"atlassian-domain-verification=", "atlassian.com"},
	{"stripe-verification=", "stripe.com"},
	{"docusign=", "docusign.com"},
	{"adobe-idp-site-verification=", "adobe.com"},
	{"hubspot-developer-verification=", "hubspot.com"},
	{"zoom_verify_", "zoom.us"},
	{"globalsign-domain-verification=", "globalsign.com"},
	{"slack-domain-verification=", "slack.com"},
	{"miro-verification=", "miro.com"},
	{"dropbox-domain-verification=", "dropbox.com"},
	{"onetrust-domain-verification=", "onetrust.com"},
	{"yandex-verification:", "yandex.com"},
}

// Vendors lists the third-party domains a company uses, as registrable domains sorted
// alphabetically and capped at MaxVendors, with the true total: hosts of the homepage's
// scripts, stylesheets, frames and forms (those in its HTML, homeVendors, and those it
// loaded when rendered, site.Resources), its mail provider, the includes of its SPF
// record, the vendors behind its verification TXT records and the targets of its
// CNAME records. The company's own domain is never a vendor.
func Vendors(own string, homeVendors []string, site Site, mxProvider *string) ([]string, int) {
	set := map[string]bool{}
	add := func(host string) {
		if reg, err := domain.Normalize(withoutServiceLabels(host)); err == nil && reg != own {
			set[reg] = true
		}
	}
	for _, v := range homeVendors {
		add(v)
	}
	for _, r := range site.Resources {
		if v := vendorDomain(r.URL, own); v != "" {
			add(v)
		}
	}
	if mxProvider != nil && *mxProvider != NoMX {
		add(*mxProvider)
	}
	for _, txt := range site.TXT {
		for _, v := range txtVendors(txt) {
			add(v)
		}
	}
	for _, c := range site.CNAME {
		add(strings.TrimSuffix(c.Target, "."))
	}
	out := make([]string, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Strings(out)
	total := len(out)
	if len(out) > MaxVendors {
		out = out[:MaxVendors]
	}
	return out, total
}

// txtVendors reads the vendor hosts of one TXT record: an SPF record's include: and
// redirect= targets, or the vendor of a verification token.
func txtVendors(txt string) []string {
	t := strings.TrimSpace(strings.Trim(strings.TrimSpace(txt), `"`))
	lower := strings.ToLower(t)
	if strings.HasPrefix(lower, "v=spf1") {
		var out []string
		for _, term := range strings.Fields(lower)[1:] {
			term = strings.TrimLeft(term, "+-~?")
			for _, mech := range []string{"include:", "redirect=", "exists:"} {
				if strings.HasPrefix(term, mech) {
					out = append(out, strings.TrimPrefix(term, mech))
				}
			}
		}
		return out
	}
	for _, vt := range verificationTokens {
		if strings.HasPrefix(lower, vt.prefix) {
			return []string{vt.vendor}
		}
	}
	return nil
}

// withoutServiceLabels drops the leading underscore labels of a DNS name
// ("_spf.google.com", "_netblocks.mimecast.com"), which name a service record under a
// host rather than a host.
func withoutServiceLabels(name string) string {
	name = strings.TrimSuffix(strings.TrimSpace(name), ".")
	for strings.HasPrefix(name, "_") {
		_, rest, ok := strings.Cut(name, ".")
		if !ok {
			return ""
		}
		name = rest
	}
	return name
}

// siteRow is a line of `firmo ingest sites`: a domain's site material (see Site).
type siteRow struct {
	Domain    string     `json:"domain"`
	Resources []Resource `json:"resources,omitempty"`
	TXT       []string   `json:"txt,omitempty"`
	CNAME     []CNAME    `json:"cname,omitempty"`
}

// maxSiteItems bounds each list of one site row.
const maxSiteItems = 1000

// IngestSites reads site material (JSON Lines: domain, resources [{kind, url}], txt
// [...], cname [{host, target}]) and stores each line under its registrable domain,
// replacing what was stored; a later line for the same domain wins. A bad line is
// reported with its line and skipped. Site material feeds the append datasets only, so
// no company is derived again.
func (s *Service) IngestSites(ctx context.Context, r io.Reader, opts IngestOptions) (Report, error) {
	var rep Report
	bar := opts.bar("reading", opts.Size)
	defer bar.Done()
	err := rowfile.JSONL(&rowfile.Counter{R: r, Add: bar.Add}, maxLine, func(line int, row siteRow) error {
		rep.Rows++
		dom, site, err := parseSite(row)
		if err != nil {
			rep.reject(line, err)
			return nil
		}
		rep.Accepted++
		if err := s.PutSite(ctx, dom, site); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		rep.Changed++
		return nil
	}, rep.bad)
	return rep, err
}

func parseSite(row siteRow) (string, Site, error) {
	dom, err := domain.NormalizeField("domain", row.Domain)
	if err != nil {
		return "", Site{}, err
	}
	if len(row.Resources) > maxSiteItems || len(row.TXT) > maxSiteItems || len(row.CNAME) > maxSiteItems {
		return "", Site{}, apperr.Invalid("resources", "at most %d resources, TXT records and CNAME records each", maxSiteItems)
	}
	for i, res := range row.Resources {
		switch res.Kind {
		case ResourceScript, ResourceStylesheet, ResourceIframe, ResourceForm:
		default:
			return "", Site{}, apperr.Invalid(fmt.Sprintf("resources[%d].kind", i), "%q is not one of script, stylesheet, iframe, form", res.Kind)
		}
	}
	for i, c := range row.CNAME {
		if strings.TrimSpace(c.Host) == "" || strings.TrimSpace(c.Target) == "" {
			return "", Site{}, apperr.Invalid(fmt.Sprintf("cname[%d]", i), "needs a host and a target")
		}
	}
	return dom, Site{Resources: row.Resources, TXT: row.TXT, CNAME: row.CNAME}, nil
}
