package companyhttp

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/domain"
	"github.com/firmoapi/firmo/shared/extract"
	"github.com/firmoapi/firmo/shared/fetch"
	"github.com/firmoapi/firmo/shared/httpapi"
)

// PageFetcher fetches a page through the guarded outbound client; *fetch.Client
// implements it.
type PageFetcher interface {
	Get(ctx context.Context, rawURL string) (*fetch.Response, error)
}

// PageExtractor reads the main text and language of a page; *extract.Extractor
// implements it.
type PageExtractor interface {
	Extract(html []byte, pageURL string) (extract.Result, error)
}

// HomepageSource returns a domain's cached home page; apperr.ErrNotFound when none is
// stored. The company service implements it; nil means no cache.
type HomepageSource interface {
	Homepage(ctx context.Context, domain string) (html []byte, pageURL string, err error)
}

// maxURLLen bounds the url parameter; longer URLs are refused before any fetch.
const maxURLLen = 2048

// ExtractRoutes serves GET /v1/extract (STARTER plan or higher) in the company family.
func ExtractRoutes(f PageFetcher, ex PageExtractor, home HomepageSource) []httpapi.Route {
	h := &extractAPI{fetch: f, extract: ex, home: home}
	return []httpapi.Route{{Method: "GET", Path: "/v1/extract", Family: httpapi.FamilyCompany, Handle: h.get}}
}

type extractAPI struct {
	fetch   PageFetcher
	extract PageExtractor
	home    HomepageSource
}

// ExtractView is the answer of GET /v1/extract.
type ExtractView struct {
	Language string `json:"language"` // ISO 639-2/T, "und" when undetermined
	Text     string `json:"text"`
}

func (a *extractAPI) get(w http.ResponseWriter, r *http.Request) error {
	if err := httpapi.Caller(r).RequirePlan(account.PlanStarter); err != nil {
		return err
	}
	q, err := httpapi.ParseQuery(r.URL.Query(), "url", "domain")
	if err != nil {
		return err
	}
	rawURL, err := q.String("url")
	if err != nil {
		return err
	}
	rawDomain, err := q.String("domain")
	if err != nil {
		return err
	}
	var page []byte
	var pageURL string
	switch {
	case rawURL != "" && rawDomain != "":
		return apperr.Invalid("domain", "give either url or domain, not both")
	case rawURL != "":
		u, err := pageURLParam(rawURL)
		if err != nil {
			return err
		}
		page, pageURL, err = a.live(r.Context(), u)
		if err != nil {
			return err
		}
	case rawDomain != "":
		page, pageURL, err = a.domainPage(r.Context(), rawDomain)
		if err != nil {
			return err
		}
	default:
		field := "url"
		if q.Has("domain") && !q.Has("url") {
			field = "domain"
		}
		return apperr.Invalid(field, "give url (a page URL) or domain (a bare domain); neither may be blank")
	}
	res, err := a.extract.Extract(page, pageURL)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, ExtractView{Language: res.Language, Text: res.Text})
	return nil
}

// pageURLParam checks the url parameter's shape (422); whether its host may be
// fetched is the guarded client's business (400).
func pageURLParam(raw string) (string, error) {
	if len(raw) > maxURLLen {
		return "", apperr.Invalid("url", "must be at most %d characters", maxURLLen)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", apperr.Invalid("url", "is not a valid URL")
	}
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" {
		return "", apperr.Invalid("url", "must be an absolute http or https URL such as https://example.com/about")
	}
	if u.Hostname() == "" {
		return "", apperr.Invalid("url", "has no host")
	}
	return u.String(), nil
}

// domainPage is the cached home page of the domain when there is one, else the live
// page at https://<domain>/.
func (a *extractAPI) domainPage(ctx context.Context, raw string) ([]byte, string, error) {
	dom, err := domain.NormalizeField("domain", raw)
	if err != nil {
		return nil, "", err
	}
	if a.home != nil {
		page, pageURL, err := a.home.Homepage(ctx, dom)
		if err == nil && len(page) > 0 {
			return page, pageURL, nil
		}
		if err != nil && !errors.Is(err, apperr.ErrNotFound) {
			return nil, "", fmt.Errorf("cached homepage of %s: %w", dom, err)
		}
	}
	return a.live(ctx, "https://"+dom+"/")
}

// live fetches a page and checks that it is a page worth extracting.
func (a *extractAPI) live(ctx context.Context, pageURL string) ([]byte, string, error) {
	resp, err := a.fetch.Get(ctx, pageURL)
	if err != nil {
		return nil, "", err
	}
	if resp.Status < 200 || resp.Status > 299 {
		return nil, "", &apperr.Error{Kind: apperr.ErrBadRequest, Code: fetch.CodeFailed, Message: fmt.Sprintf("the page at %s answered HTTP %d", resp.FinalURL, resp.Status)}
	}
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err == nil && !textual(mt) {
			return nil, "", &apperr.Error{Kind: apperr.ErrBadRequest, Code: "not_html", Message: fmt.Sprintf("the page at %s is %s; only HTML and text pages are extracted", resp.FinalURL, mt)}
		}
	}
	return resp.Body, resp.FinalURL, nil
}

func textual(mediaType string) bool {
	switch mediaType {
	case "text/html", "application/xhtml+xml", "text/plain", "application/xml", "text/xml":
		return true
	}
	return false
}
