package segment

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/industry"
	"github.com/firmoapi/firmo/shared/task"
)

type processor struct{ s *Service }

// Provider implements task.Processor: the built-in embedder calls no outside service
// (an OpenAI-compatible one is bounded by its own client).
func (processor) Provider() string { return "" }

// Process implements task.Processor: it segments the whole submission (one record).
func (p processor) Process(ctx context.Context, rec task.Record) (task.Result, error) {
	var prm params
	if err := json.Unmarshal(rec.Params, &prm); err != nil {
		return task.Result{}, fmt.Errorf("segmentation parameters: %w", err)
	}
	domains, err := readChunks[string](ctx, p.s.d.Store, jobPK(prm.Job), "d#", prm.Chunks)
	if err != nil {
		return task.Result{}, err
	}
	sum, assigned, err := p.s.segment(ctx, domains, prm.MaxSegments)
	if err != nil {
		return task.Result{}, err
	}
	if sum.Chunks, err = p.s.writeChunks(ctx, jobPK(prm.Job), "a#", assigned); err != nil {
		return task.Result{}, err
	}
	return task.Result{Row: map[string]any{resultColumn: sum}}, nil
}

// segment loads the companies of domains, leaves out the closed and unknown ones,
// embeds the others' profiles, clusters and describes them.
func (s *Service) segment(ctx context.Context, domains []string, maxSegments int) (summary, []assignment, error) {
	recs, err := loadRecords(ctx, s.d.Companies, domains)
	if err != nil {
		return summary{}, nil, err
	}
	var sum summary
	var profiles []company.Profile
	for i, r := range recs {
		switch {
		case r == nil:
			sum.Unindexed++
		case r.Profile.Status.Status == company.StatusClosed:
			sum.Closed++
		default:
			p := r.Profile
			p.Domain = domains[i]
			profiles = append(profiles, p)
		}
	}
	assigned := make([]assignment, len(profiles))
	for i, p := range profiles {
		assigned[i] = assignment{Domain: p.Domain, Segment: -1}
	}
	sum.Assigned = len(profiles)
	sum.Segments = []Segment{}
	if len(profiles) < minPoints {
		return sum, assigned, nil // too few companies to form two segments
	}
	vecs, err := s.vectors(ctx, profiles)
	if err != nil {
		return summary{}, nil, err
	}
	proj := reduce(vecs, reducedDims)
	reduced := withLabels(proj, profiles)
	sum.Dimensions = len(reduced[0])
	tops := make([]string, len(profiles))
	for i, p := range profiles {
		if t := company.TopKeys(p.IndustryGroups, 1); len(t) == 1 {
			tops[i] = t[0]
		}
	}
	res, err := clusterPoints(reduced, industryPart(reduced, len(proj[0])), tops, maxSegments)
	if err != nil {
		return summary{}, nil, err
	}
	for i := range assigned {
		assigned[i].Segment = res.Labels[i]
		assigned[i].Probability = round4(res.Probabilities[i])
		if res.Labels[i] >= 0 && assigned[i].Probability == 0 {
			assigned[i].Probability = 0.0001 // 0 means unclustered
		}
	}
	labels := describe(profiles, res.Labels, res.NumClusters())
	sizes := make([]int, res.NumClusters())
	for _, l := range res.Labels {
		if l >= 0 {
			sizes[l]++
		}
	}
	for c := range res.NumClusters() {
		sum.Segments = append(sum.Segments, Segment{ID: c, Description: labels[c], Size: sizes[c]})
	}
	return sum, assigned, nil
}

func round4(f float64) float64 { return float64(int64(f*10000+0.5)) / 10000 }

// embedBatch is how many texts go to the embedder at once.
const embedBatch = 256

// vectors embeds each profile's text.
func (s *Service) vectors(ctx context.Context, profiles []company.Profile) ([][]float32, error) {
	texts := make([]string, len(profiles))
	for i, p := range profiles {
		texts[i] = profileText(p)
	}
	out := make([][]float32, 0, len(texts))
	for lo := 0; lo < len(texts); lo += embedBatch {
		vs, err := s.d.Embedder.Embed(ctx, texts[lo:min(lo+embedBatch, len(texts))])
		if err != nil {
			return nil, fmt.Errorf("embed company profiles: %w", err)
		}
		out = append(out, vs...)
	}
	return out, nil
}

// profileText is what a company's vector is made of: its industries and
// sub-industries (labels, strongest first) and its keywords (strongest first); its
// description only when it has none of those, since descriptions in the world's
// several languages group companies by language rather than by business (measured in
// BENCHMARKS.md). A profile with none of them is placed by its name, then its domain.
func profileText(p company.Profile) string {
	var parts []string
	for _, v := range company.TopKeys(p.IndustryGroups, 2) {
		if l, ok := industry.Label(v); ok {
			parts = append(parts, l)
		}
	}
	for _, v := range company.TopKeys(p.SubIndustry, 2) {
		if l, ok := industry.Label(v); ok {
			parts = append(parts, l)
		}
	}
	if kw := company.TopKeys(p.Keywords, 12); len(kw) > 0 {
		parts = append(parts, strings.Join(kw, ", "))
	}
	if d := strings.TrimSpace(p.Description); d != "" && len(parts) == 0 {
		parts = append(parts, d)
	}
	text := strings.TrimSpace(strings.Join(parts, ". "))
	if text == "" {
		text = strings.TrimSpace(p.Name)
	}
	if text == "" {
		text = p.Domain
	}
	return text
}

// loadConcurrency bounds the company reads in flight (DynamoDB round trips).
const loadConcurrency = 16

// loadRecords reads the record of each domain, nil for a domain without one.
func loadRecords(ctx context.Context, companies Companies, domains []string) ([]*company.Record, error) {
	out := make([]*company.Record, len(domains))
	errs := make([]error, loadConcurrency)
	var wg sync.WaitGroup
	for w := range loadConcurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(domains); i += loadConcurrency {
				if ctx.Err() != nil {
					errs[w] = ctx.Err()
					return
				}
				r, err := companies.Get(ctx, domains[i])
				if errors.Is(err, apperr.ErrNotFound) {
					continue
				}
				if err != nil {
					errs[w] = fmt.Errorf("read company %s: %w", domains[i], err)
					return
				}
				out[i] = &r
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}
