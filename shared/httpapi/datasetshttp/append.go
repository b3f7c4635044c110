package datasetshttp

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/dataset"
	"github.com/firmoapi/firmo/shared/domain"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/upload"
)

// Appender computes append datasets; dataset.Service implements it.
type Appender interface {
	Append(ctx context.Context, req dataset.Request) (dataset.Result, error)
}

// QueryLists reads an organisation's saved query; query.Service implements it. An
// unknown id, or another organisation's, is a not-found error.
type QueryLists interface {
	Lists(ctx context.Context, orgID, id string) (domains []string, personaIDs []int64, err error)
}

// Biller charges one response; billing.Service implements it.
type Biller interface {
	ChargeAll(ctx context.Context, org account.Org, items []billing.Items, requestID string) (billing.Charge, error)
}

// AppendDeps are what POST /v1/append needs.
type AppendDeps struct {
	Datasets Appender
	Queries  QueryLists
	Billing  Biller
	// Uploads bounds the uploads parsed at once (nil: no bound).
	Uploads *upload.Gate
}

// appendParams are the parameters of POST /v1/append, as query parameters or
// multipart form fields.
var appendParams = []string{"dataset", "query_id", "domain_column", "csv"}

// appendMaxBody bounds the request: the file's 1 MB plus room for the multipart
// framing and the other fields.
const appendMaxBody = upload.DefaultMaxBytes + 64<<10

// AppendRoutes is POST /v1/append.
func AppendRoutes(d AppendDeps) []httpapi.Route {
	a := &appendAPI{d: d}
	return []httpapi.Route{{
		Method: "POST", Path: "/v1/append", Family: httpapi.FamilyDatasets, Handle: a.append,
		SizeParams: []string{"file", "query_id", "dataset"}, MaxBody: appendMaxBody,
	}}
}

type appendAPI struct{ d AppendDeps }

// appendInput is the request's parameters from the query string and the form together.
type appendInput struct {
	datasets, queryIDs []string
	domainColumn       string
	csv                bool
	file               []byte
	fileName           string
}

func (a *appendAPI) append(w http.ResponseWriter, r *http.Request) error {
	p, err := readAppendInput(r)
	if err != nil {
		return err
	}
	sets, err := dataset.ParseNames(p.datasets)
	if err != nil {
		return err
	}
	if p.file == nil && len(p.queryIDs) == 0 {
		return apperr.Invalid("file", "attach a CSV or Excel file as the multipart part named file, or give query_id")
	}
	req := dataset.Request{Sets: sets}
	if p.file != nil {
		if err := appendFileRows(r.Context(), a.d.Uploads, p, &req); err != nil {
			return err
		}
	} else if p.domainColumn != "" {
		return apperr.Invalid("domain_column", "domain_column names a column of the file, and no file was attached")
	}
	caller := httpapi.Caller(r)
	if err := a.addQueries(r.Context(), caller.Org.ID, p.queryIDs, &req); err != nil {
		return err
	}
	res, err := a.d.Datasets.Append(r.Context(), req)
	if err != nil {
		return err
	}
	c, err := a.d.Billing.ChargeAll(r.Context(), caller.Org, res.Billing.Items(), httpapi.RequestID(r.Context()))
	if err != nil {
		return err
	}
	httpapi.SetCreditsCharged(w, c.Credits)
	if p.csv {
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="append.csv"`)
		w.WriteHeader(http.StatusOK)
		// A write error means the client went away: the status is sent, there is no
		// one left to answer.
		_ = dataset.WriteCSV(w, res)
		return nil
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_ = dataset.WriteJSON(w, res)
	return nil
}

// appendFileRows reads the uploaded table into the request's rows.
func appendFileRows(ctx context.Context, uploads *upload.Gate, p appendInput, req *dataset.Request) error {
	t, err := uploads.Read(ctx, bytes.NewReader(p.file), p.fileName, upload.Limits{})
	if err != nil {
		return err
	}
	col := -1
	if p.domainColumn != "" {
		for i, h := range t.Header {
			if strings.EqualFold(h, p.domainColumn) {
				col = i
				break
			}
		}
		if col < 0 {
			return apperr.Invalid("domain_column", "the file has no column %q (its columns are %s)", p.domainColumn, strings.Join(t.Header, ", "))
		}
	} else if col, err = upload.DetectColumn(t, upload.Domain); err != nil {
		return err
	}
	usable := false
	for _, row := range t.Rows {
		if _, err := domain.Normalize(row[col]); err == nil {
			usable = true
			break
		}
	}
	if !usable {
		return apperr.Invalid("domain_column", "the column %q holds no domain or website; name the domain column with domain_column", t.Header[col])
	}
	req.InputHeader = t.Header
	for _, row := range t.Rows {
		req.Rows = append(req.Rows, dataset.Input{Domain: row[col], Columns: row})
	}
	return nil
}

// addQueries unions the saved queries' domains into the rows: each domain not already
// among the file's, once, in the queries' order.
func (a *appendAPI) addQueries(ctx context.Context, orgID string, ids []string, req *dataset.Request) error {
	have := map[string]bool{}
	for _, in := range req.Rows {
		if d, err := domain.Normalize(in.Domain); err == nil {
			have[d] = true
		}
	}
	for _, id := range ids {
		doms, _, err := a.d.Queries.Lists(ctx, orgID, id)
		if err != nil {
			return err
		}
		for _, d := range doms {
			if !have[d] {
				have[d] = true
				req.Rows = append(req.Rows, dataset.Input{Domain: d})
			}
		}
		if len(req.Rows) > dataset.MaxDomains {
			break
		}
	}
	if n := len(req.Rows); n > dataset.MaxDomains {
		field := "file"
		if len(ids) > 0 {
			field = "query_id"
		}
		return apperr.Invalid(field, "the file and the saved queries hold more than %d domains together; append at most %d per request", dataset.MaxDomains, dataset.MaxDomains)
	}
	return nil
}

// readAppendInput reads the parameters from the query string and the multipart form
// (readForm, shared with segmentation).
func readAppendInput(r *http.Request) (appendInput, error) {
	f, err := readForm(r, appendParams, fieldLimits{"dataset": 4 << 10, "query_id": 4 << 10})
	if err != nil {
		return appendInput{}, err
	}
	p := appendInput{datasets: f.list("dataset"), queryIDs: f.list("query_id"), file: f.file, fileName: f.fileName}
	if p.domainColumn, err = f.string("domain_column"); err != nil {
		return appendInput{}, err
	}
	csvFlag, err := f.string("csv")
	if err != nil {
		return appendInput{}, err
	}
	if csvFlag != "" {
		if p.csv, err = strconv.ParseBool(strings.ToLower(csvFlag)); err != nil {
			return appendInput{}, apperr.Invalid("csv", "csv must be true or false, not %q", csvFlag)
		}
	}
	return p, nil
}
