// Package icptrain trains the native ICP-fit model of shared/icpfit: it generates ICPs
// from the demo world's vocabularies, pairs them with world companies whose profiles
// Firmo's own pipeline derived (page extraction, industry and business-model
// classification, vendors, mail provider), labels each pair with a verdict (the
// world generator's truth, or an LLM integration's Fit through the llm port), fits a
// logistic model with gonum, calibrates it on a held-out split and measures it on
// another. `firmo icp-train` runs it.
package icptrain

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/firmoapi/firmo/shared/company"

	"github.com/firmoapi/firmo/shared/extract"
	"github.com/firmoapi/firmo/shared/geo"
	"github.com/firmoapi/firmo/shared/icpfit"
	"github.com/firmoapi/firmo/shared/industry"
	"github.com/firmoapi/firmo/shared/world"
)

// Subject is one world company: what Firmo derived about it and what is true.
type Subject struct {
	Index   int
	Domain  string
	Company icpfit.Company // from the derived profile, vendors and homepage text (FromRecord)
	Truth   icpfit.Company // the generator's truth, in the same shape
}

// Pipeline derives world companies as Firmo's company pipeline does, without a store.
type Pipeline struct {
	deriver *company.Deriver
}

// NewPipeline builds the pipeline for a world: shared/extract reads pages,
// shared/industry classifies their text, and MX answers come from the world's zone.
func NewPipeline(w *world.World) *Pipeline {
	asOf := w.Options().AsOf
	d := company.NewDeriver(company.DeriverDeps{
		Extractor:  pageExtractor{extract.New()},
		Classifier: textClassifier{industry.New()},
		MX:         worldMX{w},
		Now:        func() time.Time { return asOf },
	})
	return &Pipeline{deriver: d}
}

type pageExtractor struct{ e *extract.Extractor }

func (p pageExtractor) Extract(html []byte, pageURL string) (company.Extracted, error) {
	r, err := p.e.Extract(html, pageURL)
	return company.Extracted(r), err
}

type textClassifier struct{ c *industry.Classifier }

func (t textClassifier) Classify(text, lang string) company.Classification {
	return company.Classification(t.c.Classify(text, lang))
}

// worldMX answers MX questions from the world's zone, as the demo world's DNS server
// does for `firmo serve`.
type worldMX struct{ w *world.World }

func (z worldMX) LookupMX(ctx context.Context, dom string) ([]company.MX, error) {
	i, ok := z.w.Lookup(dom)
	if !ok {
		return nil, nil
	}
	a := z.w.Company(i).DNS
	if a.ServFail {
		return nil, fmt.Errorf("servfail for %s", dom)
	}
	return a.MX, nil
}

var _ company.MXResolver = worldMX{}

// Subjects derives companies [from, to) of the world on every core; onDone, when set,
// is called after each.
func (p *Pipeline) Subjects(ctx context.Context, w *world.World, from, to int, onDone func()) ([]Subject, error) {
	if to > w.Len() {
		to = w.Len()
	}
	if from >= to {
		return nil, nil
	}
	out := make([]Subject, to-from)
	var next atomic.Int64
	next.Store(int64(from))
	var wg sync.WaitGroup
	var firstErr error
	var once sync.Once
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= to || ctx.Err() != nil {
					return
				}
				s, err := p.subject(ctx, w, i)
				if err != nil {
					once.Do(func() { firstErr = err })
					return
				}
				out[i-from] = s
				if onDone != nil {
					onDone()
				}
			}
		}()
	}
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return out, firstErr
}

func (p *Pipeline) subject(ctx context.Context, w *world.World, i int) (Subject, error) {
	c := w.Company(i)
	dom, raw, err := c.Row.Parse()
	if err != nil {
		return Subject{}, fmt.Errorf("world company %d: %w", i, err)
	}
	prof, _, der, pages := p.deriver.Derive(ctx, company.Inputs{Domain: dom, Raw: raw, Certs: c.Certs, Pages: pages0(c.Pages)})
	rec := company.Record{Domain: dom, Raw: raw, Profile: prof, Derived: der}
	return Subject{Index: i, Domain: dom, Company: icpfit.FromRecord(rec, homeText(pages)), Truth: truthCompany(c, raw)}, nil
}

func pages0(ps []company.Page) []company.Page { return append([]company.Page(nil), ps...) }

// homeText is the text of the home page as the service reads it: the 2xx page with
// the shortest URL, title, description and main text.
func homeText(pages []company.Page) string {
	best := -1
	for i, p := range pages {
		if p.StatusCode < 200 || p.StatusCode >= 300 || strings.TrimSpace(p.Text) == "" {
			continue
		}
		if best < 0 || len(p.URL) < len(pages[best].URL) {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	p := pages[best]
	return strings.TrimSpace(strings.Join([]string{p.Title, p.Description, p.Text}, "\n"))
}

// revenuePerEmployee estimates revenue where the world's row does not give it: the
// generator draws 40,000 to 300,000 USD per employee, 170,000 on average.
const revenuePerEmployee = 170000

// truthCompany is the generator's truth about a company in the model's shape: one
// certain industry and business model, the exact head count, the city's state, the
// homepage vendors and mail provider, and the revenue of its row (estimated from the
// head count when the row gives none).
func truthCompany(c world.Company, raw company.Raw) icpfit.Company {
	t := c.Truth
	tc := icpfit.Company{
		Domain: t.Domain, Name: t.Name, Country: t.Country, BusinessModel: t.BusinessModel,
		Industries: []string{t.Industry}, Employees: t.Employees, Founded: t.Founded,
		Technologies: append([]string(nil), t.Vendors...),
		// What the company offers, in the words the generator writes for its industry:
		// the truth a free-text criterion ("offers ...") is judged against.
		Description: strings.Join(world.Services(t.Industry), ". "),
	}
	if code := world.StateOf(t); code != "" {
		if s, ok := geo.LookupSubdivision(code); ok {
			tc.State = s.DisplayName()
		}
	}
	if t.MXProvider != "" && t.MXProvider != company.NoMX && t.MXProvider != t.Domain {
		tc.Technologies = append(tc.Technologies, t.MXProvider)
	}
	tc.RevenueRange, _ = company.RevenueBucket(raw.RevenueRange)
	if tc.RevenueRange == company.RevenueUnknown || tc.RevenueRange == "" {
		tc.RevenueRange, _ = company.RevenueBucket(fmt.Sprint(t.Employees * revenuePerEmployee))
	}
	return tc
}
