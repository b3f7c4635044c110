package company

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/domain"
	"github.com/firmoapi/firmo/shared/rowfile"
)

// Format is the layout of an ingest file.
type Format int

const (
	FormatAuto  Format = iota // from the file name, else from the content
	FormatCSV                 // comma-separated with a header row
	FormatJSONL               // one JSON object per line
	FormatPEM                 // a bundle of PEM CERTIFICATE blocks
)

// Progress receives how much of the work is done. progress.Bar implements it.
type Progress interface {
	Add(n int64)
	Done()
}

// IngestOptions tune an ingest run.
type IngestOptions struct {
	// Progress, when set, makes a progress bar for a phase (reading the file, in bytes;
	// deriving the changed companies, in companies).
	Progress func(label string, total int64) Progress
	// Size is the file's size in bytes, for the reading bar (0: unknown).
	Size int64
	// Name is the file's name; its extension chooses the format under FormatAuto.
	Name string
}

func (o IngestOptions) bar(label string, total int64) Progress {
	if o.Progress == nil {
		return nopProgress{}
	}
	return o.Progress(label, total)
}

type nopProgress struct{}

func (nopProgress) Add(int64) {}
func (nopProgress) Done()     {}

// RowError is a rejected row: its line in the file (1-based), the offending field when
// one is to blame, and why.
type RowError = rowfile.RowError

// Report is the outcome of an ingest run.
type Report struct {
	Rows      int        `json:"rows"`      // rows read (blank lines not counted)
	Accepted  int        `json:"accepted"`  // good rows
	Changed   int        `json:"changed"`   // good rows that changed stored data (certificates: distinct new certificates)
	Skipped   int        `json:"skipped"`   // bad rows, each in Errors
	Refreshed int        `json:"refreshed"` // companies derived again
	Errors    []RowError `json:"errors"`
}

func (r *Report) reject(line int, err error) {
	r.Skipped++
	r.Errors = append(r.Errors, rowfile.ErrorAt(line, err))
}

// bad counts a row that could not even be read as one and rejects it.
func (r *Report) bad(line int, err error) {
	r.Rows++
	r.reject(line, err)
}

// keysOf lists the set's members (refresh sorts them).
func keysOf(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	return out
}

// maxLine bounds one JSON line (a page with its HTML).
const maxLine = 8 << 20

// maxField bounds a text field of a company row.
const maxField = 10000

// sniff picks the format from the file name, else from the first bytes.
func sniff(f Format, name string, head []byte) Format {
	if f != FormatAuto {
		return f
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".csv":
		return FormatCSV
	case ".jsonl", ".ndjson", ".json":
		return FormatJSONL
	case ".pem", ".crt", ".cer":
		return FormatPEM
	}
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	switch {
	case bytes.HasPrefix(t, []byte("{")):
		return FormatJSONL
	case bytes.Contains(t, []byte("-----BEGIN ")):
		return FormatPEM // possibly after comment lines, as bundles often have
	}
	return FormatCSV
}

// refresh derives the changed domains again, with a progress bar.
func (s *Service) refresh(ctx context.Context, doms []string, opts IngestOptions, rep *Report) error {
	sort.Strings(doms)
	bar := opts.bar("deriving", int64(len(doms)))
	defer bar.Done()
	for _, d := range doms {
		if err := s.Refresh(ctx, d); err != nil {
			return err
		}
		rep.Refreshed++
		bar.Add(1)
	}
	return nil
}

// ---- companies ----

// CompanyRow is a company row of `firmo ingest companies` (a JSON Lines object; CSV
// rows map onto it by column name). Employees, revenue_range and industry may be JSON
// strings or numbers; alternate_names an array or one string separated by ";".
type CompanyRow struct {
	Domain         string          `json:"domain"`
	Name           string          `json:"name,omitempty"`
	AlternateNames json.RawMessage `json:"alternate_names,omitempty"`
	Street         string          `json:"street,omitempty"`
	City           string          `json:"city,omitempty"`
	State          string          `json:"state,omitempty"`
	Zip            string          `json:"zip,omitempty"`
	Country        string          `json:"country,omitempty"`
	Phone          string          `json:"phone,omitempty"`
	Description    string          `json:"description,omitempty"`
	Employees      json.RawMessage `json:"employees,omitempty"`
	RevenueRange   json.RawMessage `json:"revenue_range,omitempty"`
	Industry       json.RawMessage `json:"industry,omitempty"`
}

// Parse validates a row and returns its registrable domain and raw fields; the error
// names the offending field.
func (row CompanyRow) Parse() (string, Raw, error) {
	pc, err := validateCompany(0, row)
	return pc.domain, pc.raw, err
}

// CompanyColumns are the columns of a companies file, in the documented order.
var CompanyColumns = []string{"domain", "name", "alternate_names", "street", "city", "state", "zip", "country", "phone", "description", "employees", "revenue_range", "industry"}

// parsedCompany is a validated row.
type parsedCompany struct {
	line   int
	domain string
	raw    Raw
}

// IngestCompanies reads company rows (CSV with a header row, or JSON Lines) and stores
// each under its registrable domain. A later row for the same domain replaces an
// earlier one; a bad row is reported with its line and skipped. Changed companies are
// derived again at the end.
func (s *Service) IngestCompanies(ctx context.Context, r io.Reader, f Format, opts IngestOptions) (Report, error) {
	var rep Report
	bar := opts.bar("reading", opts.Size)
	br := bufio.NewReader(&rowfile.Counter{R: r, Add: bar.Add})
	head, _ := br.Peek(512)
	var rows []parsedCompany
	index := map[string]int{}
	keep := func(line int, row CompanyRow) {
		rep.Rows++
		pc, err := validateCompany(line, row)
		if err != nil {
			rep.reject(line, err)
			return
		}
		rep.Accepted++
		if i, dup := index[pc.domain]; dup {
			rows[i] = pc // the later row wins
			return
		}
		index[pc.domain] = len(rows)
		rows = append(rows, pc)
	}
	var err error
	switch sniff(f, opts.Name, head) {
	case FormatJSONL:
		err = rowfile.JSONL(br, maxLine, func(line int, row CompanyRow) error {
			keep(line, row)
			return nil
		}, rep.bad)
	case FormatCSV:
		err = csvCompanies(br, keep, &rep)
	default:
		err = apperr.Invalid("file", "a companies file is CSV with a header row or JSON Lines")
	}
	bar.Done()
	if err != nil {
		return rep, err
	}
	var changed []string
	for _, pc := range rows {
		ch, err := s.Upsert(ctx, pc.domain, pc.raw)
		if err != nil {
			return rep, fmt.Errorf("line %d: %w", pc.line, err)
		}
		if ch {
			rep.Changed++
			changed = append(changed, pc.domain)
		}
	}
	return rep, s.refresh(ctx, changed, opts, &rep)
}

func csvCompanies(r io.Reader, keep func(int, CompanyRow), rep *Report) error {
	return rowfile.CSV(r, CompanyColumns, []string{"domain"}, func(line int, get func(string) string) {
		jsonString := func(name string) json.RawMessage {
			v := get(name)
			if v == "" {
				return nil
			}
			b, _ := json.Marshal(v)
			return b
		}
		keep(line, CompanyRow{
			Domain: get("domain"), Name: get("name"), AlternateNames: jsonString("alternate_names"),
			Street: get("street"), City: get("city"), State: get("state"), Zip: get("zip"),
			Country: get("country"), Phone: get("phone"), Description: get("description"),
			Employees: jsonString("employees"), RevenueRange: jsonString("revenue_range"), Industry: jsonString("industry"),
		})
	}, rep.bad)
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// stringish reads a JSON string or number (employees: 37) as text.
func stringish(field string, raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return strings.TrimSpace(s), nil
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		return n.String(), nil
	}
	return "", apperr.Invalid(field, "must be a string or a number")
}

// stringList reads a JSON array of strings or one string separated by ";" or "|".
func stringList(field string, raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, apperr.Invalid(field, "must be an array of strings or a string separated by ;")
		}
		list = strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == '|' })
	}
	var out []string
	for _, v := range list {
		if v = strings.TrimSpace(v); v != "" && !contains(out, v) {
			out = append(out, v)
		}
	}
	return out, nil
}

func validateCompany(line int, row CompanyRow) (parsedCompany, error) {
	dom, err := domain.NormalizeField("domain", row.Domain)
	if err != nil {
		return parsedCompany{}, err
	}
	alt, err := stringList("alternate_names", row.AlternateNames)
	if err != nil {
		return parsedCompany{}, err
	}
	raw := Raw{
		Name: strings.TrimSpace(row.Name), AlternateNames: alt, Street: strings.TrimSpace(row.Street),
		City: strings.TrimSpace(row.City), State: strings.TrimSpace(row.State), Zip: strings.TrimSpace(row.Zip),
		Phone: strings.TrimSpace(row.Phone), Description: strings.TrimSpace(row.Description),
	}
	for name, v := range map[string]string{"name": raw.Name, "street": raw.Street, "city": raw.City, "state": raw.State, "zip": raw.Zip, "phone": raw.Phone, "description": raw.Description} {
		if len(v) > maxField {
			return parsedCompany{}, apperr.Invalid(name, "longer than %d bytes", maxField)
		}
	}
	if raw.Country, err = CountryCode(row.Country); err != nil {
		return parsedCompany{}, err
	}
	if raw.Employees, err = stringish("employees", row.Employees); err != nil {
		return parsedCompany{}, err
	}
	if _, err := EmployeeBucket(raw.Employees); err != nil {
		return parsedCompany{}, err
	}
	if raw.RevenueRange, err = stringish("revenue_range", row.RevenueRange); err != nil {
		return parsedCompany{}, err
	}
	if _, err := RevenueBucket(raw.RevenueRange); err != nil {
		return parsedCompany{}, err
	}
	inds, err := stringList("industry", row.Industry)
	if err != nil {
		return parsedCompany{}, err
	}
	raw.Industry = strings.Join(inds, ";")
	if _, err := industryList(raw.Industry); err != nil {
		return parsedCompany{}, err
	}
	if raw.Phone != "" {
		if _, ok := E164(raw.Phone, raw.Country); !ok {
			where := "without a country"
			if raw.Country != "" {
				where = "in " + raw.Country
			}
			return parsedCompany{}, apperr.Invalid("phone", "%q is not a valid phone number %s", raw.Phone, where)
		}
	}
	return parsedCompany{line: line, domain: dom, raw: raw}, nil
}

// ---- certificates ----

// certRow is a JSON Lines certificate record (the API reference's certificate record).
type certRow struct {
	SHA1Fingerprint string   `json:"sha1_fingerprint"`
	FQDN            string   `json:"fqdn"`
	AlternativeFQDN []string `json:"alternative_fqdn"`
	Organization    string   `json:"organization"`
	City            string   `json:"city"`
	State           string   `json:"state"`
	Country         string   `json:"country"`
	DateFrom        string   `json:"date_from"`
	DateTo          string   `json:"date_to"`
}

// IngestCertificates reads certificates (a PEM bundle of X.509 certificates, or JSON
// Lines of certificate records) and stores each under every registrable domain its
// names belong to. The same certificate twice changes nothing.
func (s *Service) IngestCertificates(ctx context.Context, r io.Reader, f Format, opts IngestOptions) (Report, error) {
	var rep Report
	bar := opts.bar("reading", opts.Size)
	br := bufio.NewReader(&rowfile.Counter{R: r, Add: bar.Add})
	head, _ := br.Peek(512)
	known := map[string]bool{}
	changed := map[string]bool{}
	newCerts := map[string]bool{}
	pending := map[string][]Certificate{}
	npending := 0
	// Certificates are written per domain in batches (a year's chunk at a time), so
	// they are buffered and flushed every certBatch certificates and at the end.
	flush := func() error {
		doms := make([]string, 0, len(pending))
		for d := range pending {
			doms = append(doms, d)
		}
		sort.Strings(doms)
		for _, d := range doms {
			added, err := s.AddCertificates(ctx, d, pending[d])
			if err != nil {
				return err
			}
			if len(added) > 0 {
				changed[d] = true
			}
			for k := range added {
				newCerts[k] = true
			}
		}
		clear(pending)
		npending = 0
		return nil
	}
	store := func(line int, c Certificate) error {
		rep.Rows++
		doms, err := certDomains(c)
		if err == nil {
			err = checkCertSize(c)
		}
		if err != nil {
			rep.reject(line, err)
			return nil
		}
		rep.Accepted++
		for _, d := range doms {
			if !known[d] {
				if err := s.EnsureRecord(ctx, d); err != nil {
					return err
				}
				known[d] = true
			}
			pending[d] = append(pending[d], c)
			npending++
		}
		if npending >= certBatch {
			return flush()
		}
		return nil
	}
	var err error
	switch sniff(f, opts.Name, head) {
	case FormatPEM:
		err = pemBlocks(br, func(line int, block *pem.Block) error {
			c, err := certFromPEM(block)
			if err != nil {
				rep.bad(line, err)
				return nil
			}
			return store(line, c)
		})
	case FormatJSONL:
		err = rowfile.JSONL(br, maxLine, func(line int, row certRow) error {
			c, err := certFromRow(row)
			if err != nil {
				rep.bad(line, err)
				return nil
			}
			return store(line, c)
		}, rep.bad)
	default:
		err = apperr.Invalid("file", "a certificates file is a PEM bundle or JSON Lines of certificate records")
	}
	if err == nil {
		err = flush()
	}
	bar.Done()
	rep.Changed = len(newCerts)
	if err != nil {
		return rep, err
	}
	return rep, s.refresh(ctx, keysOf(changed), opts, &rep)
}

// certBatch is how many certificates an ingest buffers before writing them.
const certBatch = 20000

func checkCertSize(c Certificate) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	if len(b) > MaxCertificateJSON {
		return apperr.Invalid("alternative_fqdn", "the certificate names too many hosts (%d KB; at most %d KB)", len(b)>>10, MaxCertificateJSON>>10)
	}
	return nil
}

// pemBlocks calls fn with each PEM block and the line its BEGIN is on. Text between
// blocks is ignored, as openssl does.
func pemBlocks(r io.Reader, fn func(line int, b *pem.Block) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	var cur []byte
	start, line := 0, 0
	for sc.Scan() {
		line++
		text := sc.Bytes()
		if start == 0 {
			if bytes.HasPrefix(bytes.TrimSpace(text), []byte("-----BEGIN ")) {
				start, cur = line, append(cur[:0], text...)
				cur = append(cur, '\n')
			}
			continue
		}
		cur = append(cur, text...)
		cur = append(cur, '\n')
		if bytes.HasPrefix(bytes.TrimSpace(text), []byte("-----END ")) {
			block, _ := pem.Decode(cur)
			if block == nil {
				block = &pem.Block{Type: "INVALID"}
			}
			if err := fn(start, block); err != nil {
				return err
			}
			start = 0
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if start != 0 {
		return fn(start, &pem.Block{Type: "UNTERMINATED"})
	}
	return nil
}

func certFromPEM(b *pem.Block) (Certificate, error) {
	switch b.Type {
	case "CERTIFICATE":
	case "INVALID":
		return Certificate{}, errors.New("the PEM block cannot be decoded (bad base64 or headers)")
	case "UNTERMINATED":
		return Certificate{}, errors.New("the PEM block has no END line")
	default:
		return Certificate{}, fmt.Errorf("a %s block is not a certificate", b.Type)
	}
	x, err := x509.ParseCertificate(b.Bytes)
	if err != nil {
		return Certificate{}, fmt.Errorf("not a valid X.509 certificate: %v", err)
	}
	sum := sha1.Sum(x.Raw)
	c := Certificate{
		SHA1Fingerprint: hex.EncodeToString(sum[:]),
		AlternativeFQDN: lowerAll(x.DNSNames),
		DateFrom:        x.NotBefore.UTC(),
		DateTo:          x.NotAfter.UTC(),
		Organization:    first(x.Subject.Organization),
		City:            first(x.Subject.Locality),
		State:           first(x.Subject.Province),
		Country:         first(x.Subject.Country),
	}
	if cn := strings.ToLower(x.Subject.CommonName); isHostName(cn) {
		c.FQDN = cn
	} else if len(c.AlternativeFQDN) > 0 {
		c.FQDN = c.AlternativeFQDN[0]
	}
	return c, nil
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func lowerAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = strings.ToLower(strings.TrimSpace(v))
	}
	return out
}

// isHostName tells a host name ("www.example.com", "*.example.com") from a common name
// that is a person or an organisation.
func isHostName(s string) bool {
	if !strings.Contains(s, ".") || strings.ContainsAny(s, " /@") {
		return false
	}
	_, err := domain.Normalize(strings.TrimPrefix(s, "*."))
	return err == nil
}

func certFromRow(row certRow) (Certificate, error) {
	fp := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(row.SHA1Fingerprint), ":", ""))
	if b, err := hex.DecodeString(fp); err != nil || len(b) != sha1.Size {
		return Certificate{}, apperr.Invalid("sha1_fingerprint", "must be 40 hexadecimal digits")
	}
	from, err := parseTime("date_from", row.DateFrom)
	if err != nil {
		return Certificate{}, err
	}
	to, err := parseTime("date_to", row.DateTo)
	if err != nil {
		return Certificate{}, err
	}
	if !to.After(from) {
		return Certificate{}, apperr.Invalid("date_to", "must be after date_from")
	}
	return Certificate{
		SHA1Fingerprint: fp, FQDN: strings.ToLower(strings.TrimSpace(row.FQDN)), AlternativeFQDN: lowerAll(row.AlternativeFQDN),
		Organization: row.Organization, City: row.City, State: row.State, Country: row.Country,
		DateFrom: from, DateTo: to,
	}, nil
}

func parseTime(field, s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, apperr.Invalid(field, "is required")
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, apperr.Invalid(field, "%q is not a date-time (RFC 3339, e.g. 2024-05-01T00:00:00Z) or a date", s)
}

// certDomains maps a certificate's names (common name and SANs, wildcards included) to
// their registrable domains.
func certDomains(c Certificate) ([]string, error) {
	var out []string
	for _, n := range append([]string{c.FQDN}, c.AlternativeFQDN...) {
		n = strings.TrimPrefix(n, "*.")
		if n == "" {
			continue
		}
		d, err := domain.Normalize(n)
		if err != nil {
			continue // an IP address or a name that is no domain: nothing to attach to
		}
		if !contains(out, d) {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return nil, apperr.Invalid("fqdn", "the certificate names no domain (common name and subject alternative names)")
	}
	return out, nil
}

// ---- pages ----

// pageRow is a JSON Lines page.
type pageRow struct {
	URL        string  `json:"url"`
	HTML       *string `json:"html"`
	StatusCode int     `json:"status_code"`
	FinalURL   string  `json:"final_url"`
	FetchedAt  string  `json:"fetched_at"`
}

// maxHTML bounds the HTML of one ingested page.
const maxHTML = 4 << 20

// IngestPages reads JSON Lines of pages (url and html; optionally status_code,
// final_url, fetched_at) and stores each under its URL's registrable domain. A page
// whose URL, HTML, status and final URL are already stored changes nothing.
func (s *Service) IngestPages(ctx context.Context, r io.Reader, opts IngestOptions) (Report, error) {
	var rep Report
	bar := opts.bar("reading", opts.Size)
	changed := map[string]bool{}
	err := rowfile.JSONL(&rowfile.Counter{R: r, Add: bar.Add}, maxLine, func(line int, row pageRow) error {
		rep.Rows++
		dom, p, err := s.pageFromRow(row)
		if err != nil {
			rep.reject(line, err)
			return nil
		}
		rep.Accepted++
		ch, err := s.PageChanged(ctx, dom, p)
		if err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		if !ch {
			return nil
		}
		if !changed[dom] {
			if err := s.MarkDirty(ctx, dom); err != nil {
				return err
			}
			changed[dom] = true
		}
		if err := s.PutPage(ctx, dom, p); err != nil {
			var ae *apperr.Error
			if errors.As(err, &ae) && ae.Kind == apperr.ErrInvalid {
				rep.Accepted--
				rep.reject(line, err)
				return nil
			}
			return fmt.Errorf("line %d: %w", line, err)
		}
		rep.Changed++
		return nil
	}, rep.bad)
	bar.Done()
	if err != nil {
		return rep, err
	}
	return rep, s.refresh(ctx, keysOf(changed), opts, &rep)
}

func (s *Service) pageFromRow(row pageRow) (string, Page, error) {
	u := strings.TrimSpace(row.URL)
	dom, err := PageDomain(u)
	if err != nil {
		return "", Page{}, err
	}
	if row.HTML == nil {
		return "", Page{}, apperr.Invalid("html", "is required (an empty string for a page without a body)")
	}
	if len(*row.HTML) > maxHTML {
		return "", Page{}, apperr.Invalid("html", "is larger than %d MB", maxHTML>>20)
	}
	p := Page{URL: u, HTML: *row.HTML, StatusCode: row.StatusCode, FinalURL: strings.TrimSpace(row.FinalURL)}
	if p.StatusCode == 0 {
		p.StatusCode = 200
	}
	if p.StatusCode < 100 || p.StatusCode > 599 {
		return "", Page{}, apperr.Invalid("status_code", "%d is not an HTTP status", p.StatusCode)
	}
	if p.FinalURL != "" {
		if _, err := PageDomain(p.FinalURL); err != nil {
			return "", Page{}, apperr.Invalid("final_url", "%q is not an http(s) URL", p.FinalURL)
		}
	}
	p.FetchedAt = s.derive.Now()
	if row.FetchedAt != "" {
		t, err := parseTime("fetched_at", row.FetchedAt)
		if err != nil {
			return "", Page{}, err
		}
		p.FetchedAt = t
	}
	return dom, p, nil
}
