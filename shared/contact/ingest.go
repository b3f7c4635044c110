package contact

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/mail"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

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
// so ingesting the same file again changes nothing. A row whose name, domain or
// persona_id is missing or invalid (or that cannot be read) is reported by line in the
// report's Errors and skipped; nothing is written for it. An invalid value of any other
// field does not make a row bad: the contact is stored without it, and the value is
// listed in the report's Warnings with its line, field and problem.
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
	keep := func(line int, row Row, dropped []error) {
		rep.Rows++
		raw, warnings, err := validate(row)
		if err != nil {
			rep.reject(line, err)
			return
		}
		for _, w := range append(dropped, warnings...) {
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

func readJSONL(r io.Reader, keep func(int, Row, []error), rep *Report) error {
	return rowfile.Lines(r, maxLine, func(line int, raw []byte) error {
		row, dropped, err := decodeRow(raw)
		if err != nil {
			rep.bad(line, err)
			return nil
		}
		keep(line, row, dropped)
		return nil
	})
}

// decodeRow reads one JSON line into a Row key by key, so that one value of the wrong
// type or an unknown key costs that value, not the contact: those come back as
// warnings. Keys match columns ignoring case, as encoding/json matches them. Only a
// line that is not a JSON object, or a name or domain that is not a string, is an
// error.
func decodeRow(raw []byte) (Row, []error, error) {
	var fields map[string]json.RawMessage
	if err := rowfile.Decode(raw, &fields); err != nil {
		return Row{}, nil, err
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var row Row
	var warnings []error
	seen := map[string]bool{}
	for _, k := range keys {
		col := strings.ToLower(k)
		target := row.field(col)
		switch {
		case target == nil:
			name := k
			if len(name) > clipLen {
				name = cut(name) + "..."
			}
			warnings = append(warnings, apperr.Invalid(name, "unknown field %s (the fields are %s); ignored, the contact is kept", clip(k), strings.Join(Columns, ", ")))
			continue
		case seen[col]:
			warnings = append(warnings, apperr.Invalid(col, "field %s appears twice; the second is ignored", col))
			continue
		}
		seen[col] = true
		if err := json.Unmarshal(fields[k], target); err != nil {
			if col == "name" || col == "domain" {
				return Row{}, nil, apperr.Invalid(col, "%s must be a string, not %s", col, clipJSON(fields[k]))
			}
			warnings = append(warnings, apperr.Invalid(col, "%s must be a string, not %s; dropped, the contact is kept", col, clipJSON(fields[k])))
		}
	}
	return row, warnings, nil
}

// field is the Row field of a column (a pointer for json.Unmarshal), nil for an
// unknown column.
func (r *Row) field(col string) any {
	switch col {
	case "persona_id":
		return &r.PersonaID
	case "name":
		return &r.Name
	case "title":
		return &r.Title
	case "domain":
		return &r.Domain
	case "email":
		return &r.Email
	case "phone":
		return &r.Phone
	case "country":
		return &r.Country
	case "state":
		return &r.State
	case "skills":
		return &r.Skills
	case "linkedin_url":
		return &r.LinkedinURL
	case "connections":
		return &r.Connections
	case "jobstart_date":
		return &r.JobstartDate
	case "summary":
		return &r.Summary
	case "department":
		return &r.Department
	case "seniority":
		return &r.Seniority
	}
	return nil
}

// clipLen bounds a value quoted in a message: a warning names the value without
// repeating a 10 kB summary.
const clipLen = 80

// clip quotes a value for a message, cut to clipLen bytes.
func clip(v string) string {
	if len(v) <= clipLen {
		return strconv.Quote(v)
	}
	return strconv.Quote(cut(v)) + "..."
}

// clipJSON is clip for a JSON value, shown as written (a string keeps its quotes).
func clipJSON(raw json.RawMessage) string {
	if len(raw) <= clipLen {
		return string(raw)
	}
	return cut(string(raw)) + "..."
}

// cut shortens v to at most clipLen bytes without splitting a character.
func cut(v string) string {
	n := clipLen
	for n > 0 && !utf8.RuneStart(v[n]) {
		n--
	}
	return v[:n]
}

func readCSV(r io.Reader, keep func(int, Row, []error), rep *Report) error {
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
		}, nil)
	}, rep.bad)
}

// maxText bounds a text field.
const maxText = 10000

// Validate turns an ingest row into a raw contact, or names the bad field; every
// value must be valid (the demo world's rows are checked so).
func Validate(row Row) (Raw, error) {
	r, warnings, err := validate(row)
	if err == nil && len(warnings) > 0 {
		err = warnings[0]
	}
	return r, err
}

// validate turns an ingest row into a raw contact. What makes a contact (its name and
// its company's domain, and its persona_id when one is given, since that says which
// contact a row updates) must be valid, else err names the field and the row is
// skipped. Any other invalid value is left out of the contact and returned in
// warnings (apperr.Invalid errors naming the field and the value's problem): a
// contact is worth keeping without its bad email, date or phone number.
func validate(row Row) (r Raw, warnings []error, err error) {
	drop := func(field, format string, args ...any) {
		warnings = append(warnings, apperr.Invalid(field, format+"; dropped, the contact is kept", args...))
	}
	if len(row.PersonaID) > 0 && string(row.PersonaID) != "null" {
		id, err := intOf(row.PersonaID)
		if err != nil || id <= 0 {
			return Raw{}, nil, apperr.Invalid("persona_id", "persona_id must be a positive integer")
		}
		r.PersonaID = id
	}
	r.Name = strings.Join(strings.Fields(row.Name), " ")
	if r.Name == "" {
		return Raw{}, nil, apperr.Invalid("name", "name is required")
	}
	if len(r.Name) > maxText {
		return Raw{}, nil, apperr.Invalid("name", "name is longer than %d bytes", maxText)
	}
	if strings.TrimSpace(row.Domain) == "" {
		return Raw{}, nil, apperr.Invalid("domain", "domain is required")
	}
	d, err := domain.Normalize(row.Domain)
	if err != nil {
		return Raw{}, nil, apperr.Invalid("domain", "domain %s is not a domain", clip(row.Domain))
	}
	r.Domain = d
	text := func(field, v string) string {
		v = strings.TrimSpace(v)
		if len(v) > maxText {
			drop(field, "%s is longer than %d bytes", field, maxText)
			return ""
		}
		return v
	}
	r.Title = text("title", row.Title)
	r.Summary = text("summary", row.Summary)
	r.State = text("state", row.State)
	if e := strings.TrimSpace(row.Email); e != "" {
		if a, err := mail.ParseAddress(e); err != nil || a.Address != e || !strings.Contains(e, "@") {
			drop("email", "email %s is not an address", clip(e))
		} else {
			r.Email = e
		}
	}
	if c := strings.TrimSpace(row.Country); c != "" {
		if cc, err := company.CountryCode(c); err != nil {
			drop("country", "country %s is not a country", clip(c))
		} else {
			r.Country = cc
		}
	}
	if r.Skills, err = list(row.Skills); err != nil {
		drop("skills", "skills must be a string or an array of strings, not %s", clipJSON(row.Skills))
	}
	if u := strings.TrimSpace(row.LinkedinURL); u != "" {
		if LinkedinUsername(u) == "" || !strings.Contains(strings.ToLower(u), "linkedin.com/") {
			drop("linkedin_url", "linkedin_url %s is not a LinkedIn profile URL", clip(u))
		} else {
			r.LinkedinURL = u
		}
	}
	if len(row.Connections) > 0 && string(row.Connections) != "null" {
		if n, err := intOf(row.Connections); err != nil || n < 0 || n > math.MaxInt32 {
			drop("connections", "connections %s is not a non-negative integer", clipJSON(row.Connections))
		} else {
			r.Connections = int(n)
		}
	}
	if v := strings.TrimSpace(row.JobstartDate); v != "" {
		if _, err := time.Parse(time.DateOnly, v); err != nil {
			drop("jobstart_date", "jobstart_date %s is not a date (YYYY-MM-DD)", clip(v))
		} else {
			r.JobstartDate = v
		}
	}
	if v := strings.TrimSpace(row.Department); v != "" {
		if !title.ValidDepartment(v) {
			drop("department", "department %s is not one of the 15 values", clip(v))
		} else {
			r.Department = v
		}
	}
	if v := strings.TrimSpace(row.Seniority); v != "" {
		if !title.ValidSeniority(v) {
			drop("seniority", "seniority %s is not one of %s", clip(v), strings.Join(title.Seniorities(), ", "))
		} else {
			r.Seniority = v
		}
	}
	// Phones last: a number is read in the row's (valid) country.
	phones, err := list(row.Phone)
	if err != nil {
		drop("phone", "phone must be a string or an array of strings, not %s", clipJSON(row.Phone))
	}
	for _, p := range phones {
		if _, ok := parsePhone(p, r.Country); !ok {
			drop("phone", "phone %s is not a valid number (in country %q)", clip(p), r.Country)
			continue
		}
		r.Phones = append(r.Phones, p)
	}
	return r, warnings, nil
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
