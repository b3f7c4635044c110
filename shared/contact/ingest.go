package contact

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/mail"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/domain"
	"github.com/firmoapi/firmo/shared/rowfile"
	"github.com/firmoapi/firmo/shared/title"
)

// Columns are the ingest columns (CSV header names, JSON Lines keys).
var Columns = []string{"persona_id", "name", "title", "domain", "email", "phone", "country", "state",
	"skills", "linkedin_url", "connections", "jobstart_date", "summary", "department", "seniority"}

// Row is one ingest row before validation. In CSV, phone and skills hold several
// values separated by ";"; in JSON Lines they may also be arrays.
type Row struct {
	PersonaID    json.RawMessage `json:"persona_id"`
	Name         string          `json:"name"`
	Title        string          `json:"title"`
	Domain       string          `json:"domain"`
	Email        string          `json:"email"`
	Phone        json.RawMessage `json:"phone"`
	Country      string          `json:"country"`
	State        string          `json:"state"`
	Skills       json.RawMessage `json:"skills"`
	LinkedinURL  string          `json:"linkedin_url"`
	Connections  json.RawMessage `json:"connections"`
	JobstartDate string          `json:"jobstart_date"`
	Summary      string          `json:"summary"`
	Department   string          `json:"department"`
	Seniority    string          `json:"seniority"`
}

// RowError is a rejected row: its 1-based line, the field to blame and why.
type RowError = rowfile.RowError

// Report is the outcome of an ingest run. Errors are the skipped rows; Warnings are
// values dropped from rows that were kept (an invalid phone number).
type Report struct {
	Rows     int        `json:"rows"`
	Accepted int        `json:"accepted"`
	Changed  int        `json:"changed"`
	Skipped  int        `json:"skipped"`
	Errors   []RowError `json:"errors"`
	Warnings []RowError `json:"warnings"`
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

// IngestOptions tune an ingest run; they mirror company.IngestOptions.
type IngestOptions struct {
	Progress func(label string, total int64) company.Progress
	Size     int64
	Name     string
	CSV      bool // force CSV; otherwise the name's extension or the content decides
	JSONL    bool // force JSON Lines
}

type nopBar struct{}

func (nopBar) Add(int64) {}
func (nopBar) Done()     {}

// Ingest reads contacts from CSV (header row) or JSON Lines and stores the good rows.
// A row with a persona_id updates that persona; a row without one is matched to an
// earlier ingest by its LinkedIn username, else its email, else its domain and name,
// so ingesting the same file again changes nothing. Bad rows are reported by line and
// skipped; nothing is written for them. An invalid phone number does not make a row
// bad: the number is dropped and listed in the report's Warnings.
func (s *Store) Ingest(ctx context.Context, r io.Reader, opts IngestOptions) (Report, error) {
	var rep Report
	var bar company.Progress = nopBar{}
	if opts.Progress != nil {
		bar = opts.Progress("ingesting contacts", opts.Size)
	}
	defer bar.Done()
	br := bufio.NewReader(&rowfile.Counter{R: r, Add: bar.Add})
	head, _ := br.Peek(512)
	var good []Raw
	var lines []int
	keep := func(line int, row Row) {
		rep.Rows++
		raw, warnings, err := validateKeep(row)
		if err != nil {
			rep.reject(line, err)
			return
		}
		for _, w := range warnings {
			rep.Warnings = append(rep.Warnings, rowfile.ErrorAt(line, w))
		}
		rep.Accepted++
		good = append(good, raw)
		lines = append(lines, line)
	}
	jsonl := opts.JSONL || (!opts.CSV && isJSONL(opts.Name, head))
	var err error
	if jsonl {
		err = readJSONL(br, keep, &rep)
	} else {
		err = readCSV(br, keep, &rep)
	}
	if err != nil {
		return rep, err
	}
	for _, g := range good {
		if g.PersonaID > 0 {
			if err := s.ClaimID(ctx, g.PersonaID); err != nil {
				return rep, err
			}
		}
	}
	for i, g := range good {
		if g.PersonaID == 0 {
			id, err := s.IDFor(ctx, naturalKey(g))
			if err != nil {
				return rep, fmt.Errorf("line %d: %w", lines[i], err)
			}
			g.PersonaID = id
		}
		ch, err := s.Put(ctx, g)
		if err != nil {
			return rep, fmt.Errorf("line %d: %w", lines[i], err)
		}
		if ch {
			rep.Changed++
		}
	}
	return rep, nil
}

// naturalKey identifies a person without a persona id across ingests.
func naturalKey(r Raw) string {
	if u := LinkedinUsername(r.LinkedinURL); u != "" {
		return "li:" + u
	}
	if r.Email != "" {
		return "email:" + strings.ToLower(r.Email)
	}
	return "name:" + r.Domain + ":" + strings.ToLower(strings.Join(strings.Fields(r.Name), " "))
}

func isJSONL(name string, head []byte) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".csv":
		return false
	case ".jsonl", ".ndjson", ".json":
		return true
	}
	return bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n\ufeff"), []byte("{"))
}

// maxLine bounds one JSON line.
const maxLine = 1 << 20

func readJSONL(r io.Reader, keep func(int, Row), rep *Report) error {
	return rowfile.JSONL(r, maxLine, func(line int, row Row) error {
		keep(line, row)
		return nil
	}, rep.bad)
}

func readCSV(r io.Reader, keep func(int, Row), rep *Report) error {
	return rowfile.CSV(r, Columns, nil, func(line int, field func(string) string) {
		get := func(n string) string { return strings.TrimSpace(field(n)) }
		str := func(n string) json.RawMessage {
			if v := get(n); v != "" {
				b, _ := json.Marshal(v)
				return b
			}
			return nil
		}
		keep(line, Row{
			PersonaID: str("persona_id"), Name: get("name"), Title: get("title"), Domain: get("domain"),
			Email: get("email"), Phone: str("phone"), Country: get("country"), State: get("state"),
			Skills: str("skills"), LinkedinURL: get("linkedin_url"), Connections: str("connections"),
			JobstartDate: get("jobstart_date"), Summary: get("summary"), Department: get("department"),
			Seniority: get("seniority"),
		})
	}, rep.bad)
}

// maxText bounds a text field.
const maxText = 10000

// Validate turns an ingest row into a raw contact, or names the bad field; every
// value must be valid (the demo world's rows are checked so).
func Validate(row Row) (Raw, error) {
	r, warnings, err := validateKeep(row)
	if err == nil && len(warnings) > 0 {
		err = warnings[0]
	}
	return r, err
}

// validateKeep is Validate for ingest: invalid phone numbers do not reject the row but
// are left out of the contact and returned as warnings (apperr.Invalid errors naming
// the field), since a contact is worth keeping without one of its numbers.
func validateKeep(row Row) (Raw, []error, error) {
	r, err := validate(row)
	if err != nil {
		return Raw{}, nil, err
	}
	phones, warnings := validPhones(row.Phone, r.Country)
	r.Phones = phones
	return r, warnings, nil
}

// validPhones keeps the valid numbers of a phone field and names each one dropped.
func validPhones(raw json.RawMessage, country string) ([]string, []error) {
	phones, err := list(raw)
	if err != nil {
		return nil, []error{apperr.Invalid("phone", "phone must be a string or an array of strings; dropped, the contact is kept")}
	}
	var keep []string
	var warnings []error
	for _, p := range phones {
		if len(Phones([]string{p}, country)) == 0 {
			warnings = append(warnings, apperr.Invalid("phone", "phone %q is not a valid number (in country %q); dropped, the contact is kept", p, country))
			continue
		}
		keep = append(keep, p)
	}
	return keep, warnings
}

// validate checks every field but the phones, which Validate checks one by one.
func validate(row Row) (Raw, error) {
	var r Raw
	if len(row.PersonaID) > 0 && string(row.PersonaID) != "null" {
		id, err := intOf(row.PersonaID)
		if err != nil || id <= 0 {
			return r, apperr.Invalid("persona_id", "persona_id must be a positive integer")
		}
		r.PersonaID = id
	}
	r.Name = strings.Join(strings.Fields(row.Name), " ")
	if r.Name == "" {
		return r, apperr.Invalid("name", "name is required")
	}
	d, err := domain.Normalize(row.Domain)
	if err != nil {
		return r, apperr.Invalid("domain", "domain %q is not a domain", row.Domain)
	}
	r.Domain = d
	r.Title = strings.TrimSpace(row.Title)
	r.Summary = strings.TrimSpace(row.Summary)
	for f, v := range map[string]string{"name": r.Name, "title": r.Title, "summary": r.Summary} {
		if len(v) > maxText {
			return r, apperr.Invalid(f, "%s is longer than %d bytes", f, maxText)
		}
	}
	if e := strings.TrimSpace(row.Email); e != "" {
		a, err := mail.ParseAddress(e)
		if err != nil || a.Address != e || !strings.Contains(e, "@") {
			return r, apperr.Invalid("email", "email %q is not an address", e)
		}
		r.Email = e
	}
	if c := strings.TrimSpace(row.Country); c != "" {
		cc, err := company.CountryCode(c)
		if err != nil {
			return r, apperr.Invalid("country", "country %q is not a country", c)
		}
		r.Country = cc
	}
	r.State = strings.TrimSpace(row.State)
	if r.Skills, err = list(row.Skills); err != nil {
		return r, apperr.Invalid("skills", "skills must be a string or an array of strings")
	}
	if u := strings.TrimSpace(row.LinkedinURL); u != "" {
		if LinkedinUsername(u) == "" || !strings.Contains(strings.ToLower(u), "linkedin.com/") {
			return r, apperr.Invalid("linkedin_url", "linkedin_url %q is not a LinkedIn profile URL", u)
		}
		r.LinkedinURL = u
	}
	if len(row.Connections) > 0 && string(row.Connections) != "null" {
		n, err := intOf(row.Connections)
		if err != nil || n < 0 {
			return r, apperr.Invalid("connections", "connections must be a non-negative integer")
		}
		r.Connections = int(n)
	}
	if d := strings.TrimSpace(row.JobstartDate); d != "" {
		if _, err := time.Parse(time.DateOnly, d); err != nil {
			return r, apperr.Invalid("jobstart_date", "jobstart_date %q is not a date (YYYY-MM-DD)", d)
		}
		r.JobstartDate = d
	}
	if v := strings.TrimSpace(row.Department); v != "" {
		if !title.ValidDepartment(v) {
			return r, apperr.Invalid("department", "department %q is not one of the 15 values", v)
		}
		r.Department = v
	}
	if v := strings.TrimSpace(row.Seniority); v != "" {
		if !title.ValidSeniority(v) {
			return r, apperr.Invalid("seniority", "seniority %q is not one of %s", v, strings.Join(title.Seniorities(), ", "))
		}
		r.Seniority = v
	}
	return r, nil
}

// intOf reads a JSON number or a string holding an integer.
func intOf(raw json.RawMessage) (int64, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	}
	var n int64
	err := json.Unmarshal(raw, &n)
	return n, err
}

// list reads a JSON array of strings, or a string of ";"-separated values.
func list(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var items []string
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		items = strings.Split(s, ";")
	} else if err := json.Unmarshal(raw, &items); err != nil {
		return nil, err
	}
	var out []string
	for _, it := range items {
		if it = strings.TrimSpace(it); it != "" {
			out = append(out, it)
		}
	}
	return out, nil
}
