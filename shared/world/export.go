package world

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/firmoapi/firmo/shared/company"
)

// pageLine is a page as `firmo ingest pages` reads it.
type pageLine struct {
	URL        string `json:"url"`
	HTML       string `json:"html"`
	StatusCode int    `json:"status_code"`
	FinalURL   string `json:"final_url,omitempty"`
	FetchedAt  string `json:"fetched_at"`
}

// dnsLine is one domain of the world's zone.
type dnsLine struct {
	Domain   string       `json:"domain"`
	MX       []company.MX `json:"mx,omitempty"`
	NXDomain bool         `json:"nxdomain,omitempty"`
	ServFail bool         `json:"servfail,omitempty"`
}

// siteLine is a company's site material as `firmo ingest sites` reads it.
type siteLine struct {
	Domain string `json:"domain"`
	company.Site
}

// Files are the names Export writes: the first four and sites.jsonl are ingest files.
var Files = []string{"companies.jsonl", "certs.jsonl", "pages.jsonl", "contacts.jsonl", "dns.jsonl", "truth.jsonl", "world.json", "sites.jsonl"}

// Export writes the world into dir as files `firmo ingest` reads (companies.jsonl,
// certs.jsonl, pages.jsonl, contacts.jsonl), its DNS zone (dns.jsonl), the truth
// (truth.jsonl) and the options (world.json). contacts.jsonl holds ContactRows with
// their persona ids, so ingesting it gives the contacts `firmo seed` stores; sites.jsonl
// holds the site material (`firmo ingest sites`). The same options give byte-identical files. onCompany, when
// set, is called after each company.
func (w *World) Export(dir string, onCompany func()) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := make(map[string]*os.File, len(Files))
	bufs := make(map[string]*bufio.Writer, len(Files))
	for _, name := range Files {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		defer f.Close()
		files[name], bufs[name] = f, bufio.NewWriterSize(f, 1<<16)
	}
	write := func(name string, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		b = append(b, '\n')
		_, err = bufs[name].Write(b)
		return err
	}
	for i := 0; i < w.Len(); i++ {
		c := w.Company(i)
		errs := []error{write("companies.jsonl", c.Row), write("truth.jsonl", c.Truth),
			write("dns.jsonl", dnsLine{Domain: c.Domain, MX: c.DNS.MX, NXDomain: c.DNS.NXDomain, ServFail: c.DNS.ServFail})}
		for _, ct := range c.Certs {
			errs = append(errs, write("certs.jsonl", ct))
		}
		for _, p := range c.Pages {
			errs = append(errs, write("pages.jsonl", pageLine{URL: p.URL, HTML: p.HTML, StatusCode: p.StatusCode, FinalURL: p.FinalURL, FetchedAt: p.FetchedAt.UTC().Format(time.RFC3339)}))
		}
		if site := w.Site(i, c).Material; !site.Empty() {
			errs = append(errs, write("sites.jsonl", siteLine{Domain: c.Domain, Site: site}))
		}
		for _, row := range w.ContactRows(i, c) {
			errs = append(errs, write("contacts.jsonl", row))
		}
		if err := errors.Join(errs...); err != nil {
			return fmt.Errorf("export company %d: %w", i, err)
		}
		if onCompany != nil {
			onCompany()
		}
	}
	opts, _ := json.MarshalIndent(w.opts, "", "  ")
	if _, err := bufs["world.json"].Write(append(opts, '\n')); err != nil {
		return err
	}
	for _, name := range Files {
		if err := bufs[name].Flush(); err != nil {
			return err
		}
		if err := files[name].Close(); err != nil {
			return err
		}
	}
	return nil
}
