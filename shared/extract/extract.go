// Package extract turns an HTML page into its main text, title, description and
// language. The main text comes from go-trafilatura (boilerplate such as menus, cookie
// banners and footers removed); the language from package langid, which answers only
// the languages Firmo supports.
//
// langid reproduces lingua-go's low-accuracy mode (trigram models backing off to
// bigrams and unigrams) with lingua's models for those languages alone, 1.1 MB
// embedded instead of lingua's 124 MB for 75 languages. The models are decoded on
// first use, once per process, in about 15 ms into 4 MB, and measure above 95% on
// paragraph-length business text (see ACCURACY.md). Long texts are sampled, not read
// whole, to keep detection cheap on big pages.
package extract

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-shiori/dom"
	"github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/extract/langid"
)

// Undetermined is the ISO 639-2 code for a text whose language cannot be told (no
// text, too little, or a language Firmo does not detect).
const Undetermined = "und"

// supported lists the detector's languages (langid.Languages, which a test checks)
// with the ISO 639-1 codes that <html lang> hints use.
var supported = []struct {
	code string // ISO 639-2/T
	iso1 string // ISO 639-1, for <html lang> hints
}{
	{"eng", "en"},
	{"deu", "de"},
	{"fra", "fr"},
	{"spa", "es"},
	{"por", "pt"},
	{"ita", "it"},
	{"nld", "nl"},
}

// Languages lists the ISO 639-2/T codes the detector can answer.
func Languages() []string {
	out := make([]string, len(supported))
	for i, s := range supported {
		out[i] = s.code
	}
	return out
}

// detectSample bounds how much text the detector reads: enough for a confident
// answer on any real page, small enough that detection never dominates extraction.
const detectSample = 600

// minDetectRunes is the shortest text worth detecting; shorter texts borrow the
// title and description.
const minDetectRunes = 40

// Result is what Extract finds in a page.
type Result struct {
	Title       string
	Description string
	Text        string // main text, paragraphs separated by newlines
	Language    string // ISO 639-2/T code, or Undetermined
}

// Extractor extracts pages. It is safe for concurrent use; make one and share it.
type Extractor struct{}

// New makes an Extractor. The language models are loaded on first use, not here, so
// building one costs nothing at start-up.
func New() *Extractor { return &Extractor{} }

// Warm loads the language models now (servers may call it in the background). The
// models are shared by the whole process, so one call warms every Extractor.
func (e *Extractor) Warm() { langid.Load() }

// ErrNotHTML reports input that holds no HTML document at all.
var ErrNotHTML = errors.New("not an HTML document")

// Extract finds the main text, title, description and language of an HTML page.
// pageURL, when given, helps resolve relative links and metadata. A page without
// readable text is not an error: its Text is empty and its Language Undetermined.
func (e *Extractor) Extract(page []byte, pageURL string) (Result, error) {
	if len(bytes.TrimSpace(page)) == 0 {
		return Result{}, fmt.Errorf("extract: empty page: %w", &apperr.Error{Kind: apperr.ErrBadRequest, Code: "not_html", Message: "the page is empty"})
	}
	// Text formats never hold NUL bytes; images, PDFs and archives do early on.
	if bytes.IndexByte(page[:min(len(page), 1024)], 0) >= 0 {
		return Result{}, fmt.Errorf("extract: %w", &apperr.Error{Kind: apperr.ErrBadRequest, Code: "not_html", Message: "the page is binary data, not HTML"})
	}
	doc, err := parse(page)
	if err != nil {
		return Result{}, fmt.Errorf("extract: parse: %w", ErrNotHTML)
	}
	opts := trafilatura.Options{
		ExcludeComments: true,
		// Publish dates are not needed and their detection is the slowest part.
		HtmlDateMode: trafilatura.Disabled,
		Focus:        trafilatura.Balanced,
	}
	if u, err := url.Parse(pageURL); err == nil && u.Host != "" {
		opts.OriginalURL = u
	}
	var res Result
	if out, err := trafilatura.ExtractDocument(doc, opts); err == nil {
		res.Title = clean(out.Metadata.Title)
		res.Description = clean(out.Metadata.Description)
		res.Text = tidyText(out.ContentText)
	} else {
		// trafilatura gives up on pages with almost no text; keep what the head says.
		res.Title, res.Description = headMeta(doc)
	}
	res.Language = e.language(res, htmlLang(doc))
	return res, nil
}

// Language returns the ISO 639-2/T code of text, or Undetermined.
func (e *Extractor) Language(text string) string {
	if utf8.RuneCountInString(strings.TrimSpace(text)) == 0 {
		return Undetermined
	}
	if code, ok := langid.Detect(sample(text)); ok {
		return code
	}
	return Undetermined
}

// language detects the page language from its text, borrowing title and description
// when the text is short. The <html lang> attribute decides only when there is too
// little text to judge (a few words detect unreliably) or the detector cannot tell.
func (e *Extractor) language(r Result, hint string) string {
	text := r.Text
	if utf8.RuneCountInString(text) < minDetectRunes {
		text = strings.TrimSpace(strings.Join([]string{r.Title, r.Description, text}, ". "))
	}
	hinted := hintCode(hint)
	if hinted != "" && letters(text) < minHintOverride {
		return hinted
	}
	if code := e.Language(text); code != Undetermined {
		return code
	}
	if hinted != "" {
		return hinted
	}
	return Undetermined
}

// minHintOverride is the number of letters from which the text's own evidence
// outweighs the page's declared language.
const minHintOverride = 25

func hintCode(hint string) string {
	hint = strings.ToLower(strings.TrimSpace(hint))
	if i := strings.IndexAny(hint, "-_"); i > 0 {
		hint = hint[:i]
	}
	for _, s := range supported {
		if hint == s.iso1 || hint == s.code {
			return s.code
		}
	}
	return ""
}

func letters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) {
			n++
		}
	}
	return n
}

// sample returns the first detectSample bytes of text, cut at a word boundary.
func sample(text string) string {
	if len(text) <= detectSample {
		return text
	}
	cut := text[:detectSample]
	if i := strings.LastIndexFunc(cut, unicode.IsSpace); i > detectSample/2 {
		cut = cut[:i]
	}
	for !utf8.ValidString(cut) {
		cut = cut[:len(cut)-1]
	}
	return cut
}

// parse reads UTF-8 pages directly; others go through charset detection, which costs
// more than the rest of the extraction together.
func parse(page []byte) (*html.Node, error) {
	if utf8.Valid(page) {
		return html.Parse(bytes.NewReader(page))
	}
	return dom.Parse(bytes.NewReader(page))
}

func htmlLang(doc *html.Node) string {
	if el := dom.QuerySelector(doc, "html"); el != nil {
		return strings.TrimSpace(dom.GetAttribute(el, "lang"))
	}
	return ""
}

func headMeta(doc *html.Node) (title, description string) {
	if t := dom.QuerySelector(doc, "title"); t != nil {
		title = clean(dom.TextContent(t))
	}
	for _, sel := range []string{`meta[name="description"]`, `meta[property="og:description"]`} {
		if m := dom.QuerySelector(doc, sel); m != nil {
			if d := clean(dom.GetAttribute(m, "content")); d != "" {
				return title, d
			}
		}
	}
	return title, ""
}

// clean collapses runs of white space.
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

// tidyText collapses white space inside lines and drops blank lines.
func tidyText(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, l := range lines {
		if l = clean(l); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
