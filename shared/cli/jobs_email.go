package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode"

	"github.com/firmoapi/firmo/shared/client"
	"github.com/firmoapi/firmo/shared/upload"
)

// emailColumns are the output columns an email batch adds after the input's.
var emailColumns = []string{"email", "email_status", "pattern", "tier", "is_catch_all", "provider", "job_status", "error"}

// Header names (letters and digits only, lowercased) of an email batch's columns.
var (
	firstNameHeaders = []string{"firstname", "first", "givenname", "forename", "vorname", "prenom"}
	lastNameHeaders  = []string{"lastname", "last", "surname", "familyname", "nachname", "nom"}
	fullNameHeaders  = []string{"name", "fullname", "contactname", "personname", "contact", "person"}
)

func headerIndex(header []string, names []string) int {
	keys := make([]string, len(header))
	for i, h := range header {
		keys[i] = strings.Map(func(r rune) rune {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return unicode.ToLower(r)
			}
			return -1
		}, h)
	}
	for _, n := range names {
		for i, k := range keys {
			if k == n {
				return i
			}
		}
	}
	return -1
}

// emailBatch runs `firmo email-batch FILE --out OUT`: an email find per row, from its
// first and last name (or a full name split at its last space) and its domain, sent in
// batches of 500 (POST /v1/email/find/batch). The batch ids are kept in
// OUT.firmo-state.json, so an interrupted run resumes by polling the batch it had
// submitted rather than submitting it again.
func emailBatch(ctx context.Context, env Env) error {
	j := newJobFlags(env, "email-batch", false)
	firstCol := j.fs.String("first_name_column", "", "column of first names (default: detected)")
	lastCol := j.fs.String("last_name_column", "", "column of last names (default: detected)")
	nameCol := j.fs.String("name_column", "", "column of full names, split at the last space (when there are no first and last name columns)")
	domainCol := j.fs.String("domain_column", "", "column of company domains (default: detected)")
	patternCol := j.fs.String("known_pattern_column", "", "column of known address patterns (optional)")
	chunk := j.fs.Int("chunk-size", DefaultChunk, "people per batch (at most 500)")
	if err := j.parse(); err != nil {
		return err
	}
	if *j.out == "" {
		return fmt.Errorf("%w: firmo email-batch needs --out FILE (it resumes from the file's state)", errUsage)
	}
	if *chunk < 1 || *chunk > 500 {
		return fmt.Errorf("%w: --chunk-size must be 1 to 500", errUsage)
	}
	format, err := j.outputFormat()
	if err != nil {
		return err
	}
	h := j.table.Header
	pick := func(flagName, flagValue string, names []string) (int, error) {
		if flagValue != "" {
			return j.column(flagName, flagValue, upload.Name)
		}
		return headerIndex(h, names), nil
	}
	fi, err := pick("first_name_column", *firstCol, firstNameHeaders)
	if err != nil {
		return err
	}
	li, err := pick("last_name_column", *lastCol, lastNameHeaders)
	if err != nil {
		return err
	}
	ni := -1
	if fi < 0 || li < 0 || *nameCol != "" {
		if ni, err = pick("name_column", *nameCol, fullNameHeaders); err != nil {
			return err
		}
		if ni < 0 {
			return fmt.Errorf("%w: no first and last name columns, nor a name column, in %s (columns %s); name them with --first_name_column and --last_name_column, or --name_column",
				errUsage, j.file, strings.Join(h, ", "))
		}
	}
	di, err := j.column("domain_column", *domainCol, upload.Domain)
	if err != nil {
		return err
	}
	pi := -1
	if *patternCol != "" {
		if pi, err = j.column("known_pattern_column", *patternCol, upload.Name); err != nil {
			return err
		}
	}
	person := func(row []string) (map[string]any, string) {
		first, last := "", ""
		if ni >= 0 {
			full := strings.TrimSpace(row[ni])
			if k := strings.LastIndexByte(full, ' '); k > 0 {
				first, last = strings.TrimSpace(full[:k]), strings.TrimSpace(full[k+1:])
			}
		} else {
			first, last = strings.TrimSpace(row[fi]), strings.TrimSpace(row[li])
		}
		d := strings.TrimSpace(row[di])
		switch {
		case first == "" || last == "":
			return nil, "skipped: no first and last name"
		case d == "":
			return nil, "skipped: no domain"
		}
		req := map[string]any{"first_name": first, "last_name": last, "domain": d}
		if pi >= 0 && strings.TrimSpace(row[pi]) != "" {
			req["known_pattern"] = strings.TrimSpace(row[pi])
		}
		return req, ""
	}
	header := make([]string, 0, len(h)+len(emailColumns))
	for _, c := range h {
		header = append(header, "input:"+c)
	}
	header = append(header, emailColumns...)
	hash := inputHash(j.fileData, "email-batch", fmt.Sprint(fi, li, ni, di, pi), fmt.Sprint(*chunk), format)
	return runChunked(ctx, env, j, chunkJob{
		command: "email-batch", hash: hash, chunk: *chunk, format: format,
		run: func(ctx context.Context, r *remote, st *chunkState, i, from, to int, o *chunkOutput, setDone func(int64)) error {
			rows := j.table.Rows[from:to]
			var reqs []any
			reqRow := map[int]int{} // request index -> row index in the chunk
			skipped := map[int]string{}
			for k, row := range rows {
				req, why := person(row)
				if req == nil {
					skipped[k] = why
					continue
				}
				reqRow[len(reqs)] = k
				reqs = append(reqs, req)
			}
			var jobs []json.RawMessage
			if len(reqs) > 0 {
				for len(st.Batches) <= i {
					st.Batches = append(st.Batches, "")
				}
				if st.Batches[i] == "" {
					resp, err := r.do(ctx, client.Call{Method: "POST", Path: "/v1/email/find/batch", JSON: map[string]any{"requests": reqs}})
					if err != nil {
						return err
					}
					var sub struct {
						BatchID string `json:"batch_id"`
					}
					if err := resp.Decode(&sub); err != nil || sub.BatchID == "" {
						return fmt.Errorf("email batch %d: the answer has no batch_id: %.200s", i+1, resp.Body)
					}
					st.Batches[i] = sub.BatchID
					if err := st.save(*j.out); err != nil {
						return err
					}
				}
				last, err := r.wait(ctx, "/v1/email/batch/"+url.PathEscape(st.Batches[i])+"/results", func(s *client.TaskStatus) {
					setDone(int64(len(skipped) + s.Done))
				})
				if err != nil {
					return err
				}
				var res struct {
					Results []json.RawMessage `json:"results"`
				}
				if err := last.Decode(&res); err != nil {
					return fmt.Errorf("email batch %s: %w", st.Batches[i], err)
				}
				jobs = res.Results
			}
			out := make([]object, len(rows))
			for k, row := range rows {
				o := inputFields(h, row)
				for _, c := range emailColumns {
					o = append(o, field{key: c})
				}
				out[k] = o
				if why, ok := skipped[k]; ok {
					setField(out[k], "error", jsonString(why))
				}
			}
			for n, raw := range jobs {
				k, ok := reqRow[n]
				if !ok {
					continue
				}
				fillEmail(out[k], raw)
			}
			return o.writeObjects(header, out)
		},
	})
}

func setField(o object, key string, val json.RawMessage) {
	for i := range o {
		if o[i].key == key {
			o[i].val = val
			return
		}
	}
}

// fillEmail sets an output row's email columns from an email job.
func fillEmail(row object, raw json.RawMessage) {
	var job struct {
		Status string `json:"status"`
		Result *struct {
			Status     string          `json:"status"`
			IsCatchAll json.RawMessage `json:"is_catch_all"`
			Provider   json.RawMessage `json:"provider"`
			Result     *struct {
				Email   string `json:"email"`
				Pattern string `json:"pattern"`
				Tier    string `json:"tier"`
			} `json:"result"`
		} `json:"result"`
		Error *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(raw, &job) != nil {
		return
	}
	setField(row, "job_status", jsonString(job.Status))
	if job.Error != nil {
		setField(row, "error", jsonString(job.Error.Code+": "+job.Error.Message))
	}
	if job.Result == nil {
		return
	}
	setField(row, "email_status", jsonString(job.Result.Status))
	setField(row, "is_catch_all", job.Result.IsCatchAll)
	setField(row, "provider", job.Result.Provider)
	if f := job.Result.Result; f != nil {
		setField(row, "email", jsonString(f.Email))
		setField(row, "pattern", jsonString(f.Pattern))
		setField(row, "tier", jsonString(f.Tier))
	}
}
