package company

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/domain"
	"github.com/firmoapi/firmo/shared/score"
)

// Service answers the company endpoints and keeps company data: raw input goes in
// through Upsert, AddCertificate and AddPage, and Refresh derives the profile.
type Service struct {
	store  Store
	derive *Deriver
}

// NewService makes a Service.
func NewService(store Store, d *Deriver) *Service { return &Service{store: store, derive: d} }

// Store returns the service's store.
func (s *Service) Store() Store { return s.store }

// Deriver returns the service's pipeline.
func (s *Service) Deriver() *Deriver { return s.derive }

// maxRetries bounds optimistic-update retries; losing this often means a hot loop.
const maxRetries = 8

func notFound(dom string) error {
	return &apperr.Error{Kind: apperr.ErrNotFound, Message: fmt.Sprintf("Firmo has no data for the domain %q.", dom)}
}

// get reads a record, turning a missing one into a client-facing 404.
func (s *Service) get(ctx context.Context, dom string) (Record, error) {
	rec, err := s.store.Get(ctx, dom)
	if errors.Is(err, apperr.ErrNotFound) {
		return Record{}, notFound(dom)
	}
	return rec, err
}

// normalize is domain.NormalizeField for the "domain" parameter.
func normalize(input string) (string, error) { return domain.NormalizeField("domain", input) }

// Profile returns the profile of a domain given in any form (URL, subdomain, www).
func (s *Service) Profile(ctx context.Context, input string) (Profile, error) {
	dom, err := normalize(input)
	if err != nil {
		return Profile{}, err
	}
	rec, err := s.get(ctx, dom)
	if err != nil {
		return Profile{}, err
	}
	if rec.Derived.At.IsZero() {
		// Stored by a load that stopped before deriving (the job would get to it):
		// derive now rather than answer an empty profile.
		if err := s.Refresh(ctx, dom); err != nil {
			return Profile{}, err
		}
		if rec, err = s.get(ctx, dom); err != nil {
			return Profile{}, err
		}
	}
	return rec.Profile, nil
}

// History returns up to max certificates of a domain, newest first.
func (s *Service) History(ctx context.Context, input string, max int) (string, []Certificate, error) {
	dom, err := normalize(input)
	if err != nil {
		return "", nil, err
	}
	if _, err := s.get(ctx, dom); err != nil {
		return "", nil, err
	}
	certs, err := s.store.Certificates(ctx, dom, max)
	return dom, certs, err
}

// ScoreAnswer is the body of GET /v1/score.
type ScoreAnswer struct {
	Domain     string           `json:"domain"`
	Score      uint             `json:"score"`
	FirstEvent *string          `json:"first_event"`
	Parameters score.Parameters `json:"parameters"`
	ScoredOn   string           `json:"scored_on"`
}

// Score returns the score of a domain as of today. The stored score is used when it was
// computed today; otherwise (the daily rescoring has not reached the record yet) it is
// recomputed from the certificates, so the answer never depends on the job's timing.
func (s *Service) Score(ctx context.Context, input string) (ScoreAnswer, error) {
	dom, err := normalize(input)
	if err != nil {
		return ScoreAnswer{}, err
	}
	rec, err := s.get(ctx, dom)
	if err != nil {
		return ScoreAnswer{}, err
	}
	sc := rec.Score
	if sc.On != Date(s.derive.Now()) {
		certs, err := s.store.Certificates(ctx, dom, 0)
		if err != nil {
			return ScoreAnswer{}, err
		}
		sc = s.derive.Score(certs, s.derive.Now())
	}
	a := ScoreAnswer{Domain: dom, Score: sc.Score, Parameters: sc.Parameters, ScoredOn: sc.On}
	if sc.FirstEvent != "" {
		fe := sc.FirstEvent
		a.FirstEvent = &fe
	}
	return a, nil
}

// Homepage returns the stored HTML of a domain's home page and its URL, for the
// extract endpoint; ErrNotFound when no readable home page is stored.
func (s *Service) Homepage(ctx context.Context, input string) ([]byte, string, error) {
	dom, err := normalize(input)
	if err != nil {
		return nil, "", err
	}
	pages, err := s.store.Pages(ctx, dom)
	if err != nil {
		return nil, "", err
	}
	var ok []Page
	for _, p := range pages {
		if p.StatusCode >= 200 && p.StatusCode < 300 && p.HTML != "" {
			ok = append(ok, p)
		}
	}
	home, i := homepage(dom, ok)
	if i < 0 {
		return nil, "", fmt.Errorf("homepage of %s: %w", dom, apperr.ErrNotFound)
	}
	return []byte(home.HTML), home.URL, nil
}

// update reads a record (or starts a new one), applies fn and writes it back, retrying
// when another writer got there first. fn returns false to write nothing.
func (s *Service) update(ctx context.Context, dom string, fn func(rec *Record) (bool, error)) error {
	for attempt := 0; ; attempt++ {
		rec, err := s.store.Get(ctx, dom)
		if errors.Is(err, apperr.ErrNotFound) {
			rec, err = Record{Domain: dom}, nil
		}
		if err != nil {
			return err
		}
		write, err := fn(&rec)
		if err != nil || !write {
			return err
		}
		err = s.store.Put(ctx, &rec)
		if !errors.Is(err, apperr.ErrConflict) || attempt >= maxRetries {
			return err
		}
	}
}

// Upsert stores a company's raw row under its domain and reports whether anything
// changed. The profile is derived by Refresh.
func (s *Service) Upsert(ctx context.Context, dom string, raw Raw) (changed bool, err error) {
	err = s.update(ctx, dom, func(rec *Record) (bool, error) {
		if rec.Version != 0 && rec.Raw.Equal(raw) {
			return false, nil
		}
		rec.Raw, rec.Derived.Dirty, changed = raw, true, true
		return true, nil
	})
	return changed, err
}

// EnsureRecord creates an empty, dirty record for dom when there is none, so that
// certificates or pages stored for a new domain belong to a company that the
// reprocessing job will derive even if the ingest stops before its Refresh.
func (s *Service) EnsureRecord(ctx context.Context, dom string) error {
	return s.update(ctx, dom, func(rec *Record) (bool, error) {
		if rec.Version != 0 {
			return false, nil
		}
		rec.Derived.Dirty = true
		return true, nil
	})
}

// MarkDirty flags a record for derivation (creating it when missing).
func (s *Service) MarkDirty(ctx context.Context, dom string) error {
	return s.update(ctx, dom, func(rec *Record) (bool, error) {
		if rec.Version != 0 && rec.Derived.Dirty {
			return false, nil
		}
		rec.Derived.Dirty = true
		return true, nil
	})
}

// AddCertificates stores certificates under a domain and returns the keys (CertKey) of
// those that were new. It does not derive: the caller refreshes the domains it
// changed. Should that never happen, the daily rescoring sees the certificate count
// differ from the one the profile was derived from and re-derives it.
func (s *Service) AddCertificates(ctx context.Context, dom string, certs []Certificate) (map[string]bool, error) {
	return s.store.AddCertificates(ctx, dom, certs)
}

// PageChanged reports whether storing p would change anything: the same URL with the
// same HTML, status and final URL is unchanged (its fetch time is not compared), so
// ingesting a file twice changes nothing.
func (s *Service) PageChanged(ctx context.Context, dom string, p Page) (bool, error) {
	old, err := s.store.Page(ctx, dom, p.URL)
	if errors.Is(err, apperr.ErrNotFound) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	return old.HTML != p.HTML || old.StatusCode != p.StatusCode || old.FinalURL != p.FinalURL, nil
}

// PutPage extracts a page's text and stores it under dom. The caller marks the domain
// dirty first (see PageChanged).
func (s *Service) PutPage(ctx context.Context, dom string, p Page) error {
	return s.store.PutPage(ctx, dom, s.derive.ExtractPage(p))
}

// LoadOptions tune Load.
type LoadOptions struct {
	// DeferText derives everything but what needs the home page's text (description,
	// language, keywords, industries, business model) and leaves the record flagged
	// dirty, so the reprocessing job completes it. `firmo serve` no longer uses it: its
	// answers at ready must be complete (README "The demo world").
	DeferText bool
}

// Load stores one company's raw inputs at once (its row, certificates and pages; pages
// are stored unextracted, the home page is extracted when derived) and derives it when
// anything changed. Loading the same inputs again changes nothing. The demo world's
// seeding uses it.
func (s *Service) Load(ctx context.Context, dom string, raw Raw, certs []Certificate, pages []Page, opts LoadOptions) (changed bool, err error) {
	if changed, err = s.Upsert(ctx, dom, raw); err != nil {
		return false, err
	}
	if len(certs) > 0 {
		added, err := s.store.AddCertificates(ctx, dom, certs)
		if err != nil {
			return changed, err
		}
		changed = changed || len(added) > 0
	}
	dirty := changed // Upsert left the record dirty when it changed it
	for _, p := range pages {
		ch, err := s.PageChanged(ctx, dom, p)
		if err != nil {
			return changed, err
		}
		if !ch {
			continue
		}
		if !dirty {
			// Flag first, so a crash before Refresh leaves work for the job.
			if err := s.MarkDirty(ctx, dom); err != nil {
				return changed, err
			}
			dirty = true
		}
		if err := s.store.PutPage(ctx, dom, p); err != nil {
			return changed, err
		}
		changed = true
	}
	if opts.DeferText {
		if !changed {
			return false, nil // a dirty record left by an earlier load is the job's
		}
		return true, s.deriveWith(ctx, dom, s.derive.withoutText(), true)
	}
	if !changed {
		// Nothing new, but an earlier load may have stopped before deriving.
		rec, err := s.store.Get(ctx, dom)
		if err != nil || (!rec.Derived.Dirty && !rec.Derived.At.IsZero()) {
			return false, err
		}
	}
	return true, s.Refresh(ctx, dom)
}

// Refresh derives a record's profile from all its inputs and stores it, clearing the
// dirty flag. Pages extracted for the first time are stored back.
func (s *Service) Refresh(ctx context.Context, dom string) error {
	return s.deriveWith(ctx, dom, s.derive, false)
}

func (s *Service) deriveWith(ctx context.Context, dom string, d *Deriver, keepDirty bool) error {
	certs, err := s.store.Certificates(ctx, dom, 0)
	if err != nil {
		return err
	}
	pages, err := s.store.Pages(ctx, dom)
	if err != nil {
		return err
	}
	var extracted []Page
	var redirFrom, redirTo string
	err = s.update(ctx, dom, func(rec *Record) (bool, error) {
		redirFrom = stringOrEmpty(rec.Profile.RedirectDomain)
		var updated []Page
		rec.Profile, rec.Score, rec.Derived, updated = d.Derive(ctx, Inputs{Domain: dom, Raw: rec.Raw, Certs: certs, Pages: pages})
		rec.Derived.Dirty = keepDirty
		redirTo = stringOrEmpty(rec.Profile.RedirectDomain)
		extracted = extracted[:0]
		for i := range updated {
			if updated[i].Text != pages[i].Text {
				extracted = append(extracted, updated[i])
			}
		}
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("refresh %s: %w", dom, err)
	}
	// The reverse edge is written even when unchanged: records derived before the
	// index existed get theirs when the reprocessing job re-derives them.
	if err := s.store.SetRedirect(ctx, dom, redirFrom, redirTo); err != nil {
		return err
	}
	for _, p := range extracted {
		if err := s.store.PutPage(ctx, dom, p); err != nil {
			return err
		}
	}
	return nil
}

// PageDomain returns the registrable domain of a page URL (http or https only).
func PageDomain(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", apperr.Invalid("url", "%q is not an http(s) URL", raw)
	}
	return domain.NormalizeField("url", u.Host)
}

func stringOrEmpty(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
