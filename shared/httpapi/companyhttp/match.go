package companyhttp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/namematch"
)

// NameMatcher answers a single match; namematch.Matcher implements it.
type NameMatcher interface {
	Match(ctx context.Context, q namematch.Query) (namematch.Answer, error)
}

// BulkMatcher runs bulk matches; namematch.Bulk implements it.
type BulkMatcher interface {
	Submit(ctx context.Context, orgID string, file io.Reader, p namematch.BulkParams) (namematch.BulkSubmitted, error)
	Status(ctx context.Context, org account.Org, taskID string) (namematch.BulkStatus, error)
}

// MatchCharger bills the profiles a single match delivers, under the route in ctx
// (the server's); billing.Service implements it.
type MatchCharger interface {
	Charge(ctx context.Context, org account.Org, kind billing.Kind, records []string, requestID string) (billing.Charge, error)
}

type matchAPI struct {
	match NameMatcher
	bulk  BulkMatcher
	bill  MatchCharger
}

// MatchRoutes are company-name matching (family company): GET /v1/match, POST
// /v1/bulkmatch and its status. Matched profiles are billed as company records
// (net-new per 90 days).
func MatchRoutes(m NameMatcher, bulk BulkMatcher, bill MatchCharger) []httpapi.Route {
	a := &matchAPI{match: m, bulk: bulk, bill: bill}
	const fam = httpapi.FamilyCompany
	return []httpapi.Route{
		{Method: "GET", Path: "/v1/match", Family: fam, Handle: a.single},
		{Method: "POST", Path: "/v1/bulkmatch", Family: fam, Handle: a.submit},
		{Method: "GET", Path: "/v1/bulkmatch/status/{task_id}", Family: fam, Handle: a.status},
	}
}

// matchParams are the single-match parameters; the bulk parameters add the columns.
var matchParams = []string{"name", "country", "state", "city", "zip_code", "phone", "min_match_confidence", "strict", "local_mode"}

func (a *matchAPI) single(w http.ResponseWriter, r *http.Request) error {
	q, err := httpapi.ParseQuery(r.URL.Query(), matchParams...)
	if err != nil {
		return err
	}
	var mq namematch.Query
	if mq.Name, err = q.Required("name"); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{{"country", &mq.Country}, {"state", &mq.State}, {"city", &mq.City}, {"zip_code", &mq.ZipCode}, {"phone", &mq.Phone}} {
		if *f.dst, err = q.String(f.name); err != nil {
			return err
		}
	}
	if mq.MinMatchConfidence, err = q.Int("min_match_confidence", namematch.DefaultConfidence, namematch.MinConfidence, namematch.MaxConfidence); err != nil {
		return err
	}
	if mq.Strict, err = q.Bool("strict", false); err != nil {
		return err
	}
	if mq.LocalMode, err = q.Bool("local_mode", false); err != nil {
		return err
	}
	ans, err := a.match.Match(r.Context(), mq)
	if err != nil {
		return err
	}
	if len(ans.Matches) == 0 {
		w.WriteHeader(http.StatusNoContent) // nothing at or above min_match_confidence
		return nil
	}
	domains := make([]string, len(ans.Matches))
	for i, m := range ans.Matches {
		domains[i] = m.Profile.Domain
	}
	ch, err := a.bill.Charge(r.Context(), httpapi.Caller(r).Org, billing.KindCompany, domains, httpapi.RequestID(r.Context()))
	if err != nil {
		return err
	}
	httpapi.SetCreditsCharged(w, ch.Credits)
	httpapi.WriteJSON(w, http.StatusOK, ans)
	return nil
}

// bulkParams are the multipart fields (or query parameters) of POST /v1/bulkmatch.
var bulkParams = []string{"name_column", "country_column", "state_column", "city_column", "zip_code_column", "phone_column", "min_match_confidence", "strict", "local_mode"}

// maxFieldBytes bounds a multipart field other than the file.
const maxFieldBytes = 1 << 10

func (a *matchAPI) submit(w http.ResponseWriter, r *http.Request) error {
	q, err := httpapi.ParseQuery(r.URL.Query(), bulkParams...)
	if err != nil {
		return err
	}
	fields, file, err := readMultipart(r)
	if err != nil {
		return err
	}
	get := func(name string) (string, error) {
		fv, inForm := fields[name]
		qv, err := q.String(name)
		if err != nil {
			return "", err
		}
		if inForm && q.Has(name) {
			return "", apperr.Invalid(name, "give %s once, as a form field or a query parameter", name)
		}
		if inForm {
			return strings.TrimSpace(fv), nil
		}
		return qv, nil
	}
	var p namematch.BulkParams
	for _, f := range []struct {
		name string
		dst  *string
	}{{"name_column", &p.NameColumn}, {"country_column", &p.CountryColumn}, {"state_column", &p.StateColumn}, {"city_column", &p.CityColumn}, {"zip_code_column", &p.ZipCodeColumn}, {"phone_column", &p.PhoneColumn}} {
		if *f.dst, err = get(f.name); err != nil {
			return err
		}
	}
	if s, err := get("min_match_confidence"); err != nil {
		return err
	} else if s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			return apperr.Invalid("min_match_confidence", "min_match_confidence must be an integer, not %q", s)
		}
		if n < namematch.MinConfidence || n > namematch.MaxConfidence {
			return apperr.Invalid("min_match_confidence", "min_match_confidence must be between %d and %d, not %d", namematch.MinConfidence, namematch.MaxConfidence, n)
		}
		p.MinMatchConfidence = n
	}
	for _, f := range []struct {
		name string
		dst  *bool
	}{{"strict", &p.Strict}, {"local_mode", &p.LocalMode}} {
		s, err := get(f.name)
		if err != nil {
			return err
		}
		if s == "" {
			continue
		}
		if *f.dst, err = strconv.ParseBool(strings.ToLower(s)); err != nil {
			return apperr.Invalid(f.name, "%s must be true or false, not %q", f.name, s)
		}
	}
	if p.NameColumn == "" {
		return apperr.Invalid("name_column", "name_column is required: the header name of the column holding company names")
	}
	if file == nil {
		return apperr.Invalid("file", "attach the CSV file as the multipart part named file")
	}
	sub, err := a.bulk.Submit(r.Context(), httpapi.Caller(r).Org.ID, bytes.NewReader(file), p)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusAccepted, sub)
	return nil
}

// readMultipart reads a multipart/form-data body: the part named file (at most
// namematch.MaxBulkBytes) and small text fields among bulkParams. Unknown or repeated
// fields are 422s naming them.
func readMultipart(r *http.Request) (map[string]string, []byte, error) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		return nil, nil, apperr.Invalid("file", "send multipart/form-data with the CSV file in a part named file")
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, nil, apperr.Invalid("file", "the multipart body cannot be read: %v", err)
	}
	known := map[string]bool{}
	for _, p := range bulkParams {
		known[p] = true
	}
	fields := map[string]string{}
	var file []byte
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return fields, file, nil
		}
		if err != nil {
			return nil, nil, multipartError(err)
		}
		name := part.FormName()
		switch {
		case name == "file":
			if file != nil {
				return nil, nil, apperr.Invalid("file", "attach one file")
			}
			data, err := io.ReadAll(io.LimitReader(part, namematch.MaxBulkBytes+1))
			if err != nil {
				return nil, nil, multipartError(err)
			}
			if len(data) > namematch.MaxBulkBytes {
				return nil, nil, &apperr.Error{Kind: apperr.ErrTooLarge, Field: "file", Message: fmt.Sprintf("the file is larger than %d bytes (1 MB)", namematch.MaxBulkBytes)}
			}
			file = data
			if file == nil {
				file = []byte{}
			}
		case known[name]:
			if _, dup := fields[name]; dup {
				return nil, nil, apperr.Invalid(name, "give %s once", name)
			}
			data, err := io.ReadAll(io.LimitReader(part, maxFieldBytes+1))
			if err != nil {
				return nil, nil, multipartError(err)
			}
			if len(data) > maxFieldBytes {
				return nil, nil, apperr.Invalid(name, "%s is too long", name)
			}
			fields[name] = string(data)
		default:
			return nil, nil, apperr.Invalid(name, "unknown form field %q", name)
		}
	}
}

// multipartError keeps a body-limit failure a 413 and makes the rest 422s.
func multipartError(err error) error {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return &apperr.Error{Kind: apperr.ErrTooLarge, Field: "file", Message: fmt.Sprintf("the request body is larger than %d bytes", mb.Limit)}
	}
	return apperr.Invalid("file", "the multipart body cannot be read: %v", err)
}

func (a *matchAPI) status(w http.ResponseWriter, r *http.Request) error {
	ref, p, err := httpapi.TaskRefPage(r)
	if err != nil {
		return err
	}
	st, err := a.bulk.Status(r.Context(), httpapi.Caller(r).Org, ref.TaskID)
	if err != nil {
		return err
	}
	httpapi.SetCreditsCharged(w, st.Credits)
	httpapi.WriteJSON(w, http.StatusOK, st.Paged(p))
	return nil
}
