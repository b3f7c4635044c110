package datasetshttp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/upload"
)

// form is a dataset request's parameters, from the query string and, for a
// multipart/form-data body, its fields, and the uploaded file (the part named file).
type form struct {
	q        httpapi.Query
	fields   url.Values
	file     []byte // nil without a file part
	fileName string
}

// fieldLimits bound a multipart field other than the file; a field not listed takes
// defaultFieldBytes.
type fieldLimits map[string]int64

const defaultFieldBytes = 1 << 10

// readForm reads the request's parameters: the query string's (only those in allowed)
// and, when the body is multipart/form-data, its fields (likewise) and the file of at
// most upload.DefaultMaxBytes (413 naming file). A body of another type is a 422 naming
// file. A parameter given both as a field and in the query is a 422 naming it.
func readForm(r *http.Request, allowed []string, limits fieldLimits) (form, error) {
	q, err := httpapi.ParseQuery(r.URL.Query(), allowed...)
	if err != nil {
		return form{}, err
	}
	f := form{q: q, fields: url.Values{}}
	ct := r.Header.Get("Content-Type")
	if ct == "" && (r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody) {
		return f, nil // parameters in the query string only
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "multipart/form-data" {
		return form{}, apperr.Invalid(upload.Field, "send multipart/form-data with the file in a part named file (CSV or Excel .xlsx), or give the parameters in the query string")
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return form{}, apperr.Invalid(upload.Field, "the multipart body cannot be read: %v", err)
	}
	known := map[string]bool{}
	for _, a := range allowed {
		known[a] = true
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return form{}, formError(err)
		}
		name := part.FormName()
		switch {
		case name == upload.Field:
			if f.file != nil {
				return form{}, apperr.Invalid(upload.Field, "attach one file")
			}
			data, err := io.ReadAll(io.LimitReader(part, upload.DefaultMaxBytes+1))
			if err != nil {
				return form{}, formError(err)
			}
			if len(data) > upload.DefaultMaxBytes {
				return form{}, &apperr.Error{Kind: apperr.ErrTooLarge, Field: upload.Field, Message: fmt.Sprintf("the file is larger than %d bytes (1 MB)", upload.DefaultMaxBytes)}
			}
			if data == nil {
				data = []byte{}
			}
			f.file, f.fileName = data, part.FileName()
		case known[name]:
			limit := limits[name]
			if limit == 0 {
				limit = defaultFieldBytes
			}
			data, err := io.ReadAll(io.LimitReader(part, limit+1))
			if err != nil {
				return form{}, formError(err)
			}
			if int64(len(data)) > limit {
				return form{}, apperr.Invalid(name, "%s is longer than %d bytes", name, limit)
			}
			if q.Has(name) {
				return form{}, apperr.Invalid(name, "give %s as form fields or as query parameters, not both", name)
			}
			f.fields.Add(name, string(data))
		default:
			return form{}, apperr.Invalid(name, "unknown form field %q", name)
		}
	}
	return f, nil
}

// string is a single-valued parameter, trimmed; repeating it is a 422.
func (f form) string(name string) (string, error) {
	if vs := f.fields[name]; len(vs) > 0 {
		if len(vs) > 1 {
			return "", apperr.Invalid(name, "give %s once", name)
		}
		return strings.TrimSpace(vs[0]), nil
	}
	return f.q.String(name)
}

// list is a list parameter: repeated and comma-separated forms, mixed; blanks dropped.
func (f form) list(name string) []string {
	out := f.q.List(name)
	for _, v := range f.fields[name] {
		for _, item := range strings.Split(v, ",") {
			if item = strings.TrimSpace(item); item != "" {
				out = append(out, item)
			}
		}
	}
	return out
}

// formError keeps a body-limit failure a 413 and makes the rest 422s.
func formError(err error) error {
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return &apperr.Error{Kind: apperr.ErrTooLarge, Field: upload.Field, Message: fmt.Sprintf("the request body is larger than %d bytes", mb.Limit)}
	}
	return apperr.Invalid(upload.Field, "the multipart body cannot be read: %v", err)
}

// domainValues reads the upload and returns the values of its domain column: the one
// domain_column names (a header of the file, else a 422 naming domain_column), or the
// one DetectColumn finds.
func domainValues(ctx context.Context, uploads *upload.Gate, f form, column string) ([]string, error) {
	t, err := uploads.Read(ctx, bytes.NewReader(f.file), f.fileName, upload.Limits{})
	if err != nil {
		return nil, err
	}
	col := -1
	if column != "" {
		for i, h := range t.Header {
			if h == column {
				col = i
				break
			}
		}
		if col < 0 {
			for i, h := range t.Header {
				if strings.EqualFold(h, column) {
					col = i
					break
				}
			}
		}
		if col < 0 {
			return nil, apperr.Invalid("domain_column", "domain_column %q is not a column of the file; its columns are %s", column, strings.Join(t.Header, ", "))
		}
	} else if col, err = upload.DetectColumn(t, upload.Domain); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(t.Rows))
	for _, row := range t.Rows {
		if v := strings.TrimSpace(row[col]); v != "" {
			out = append(out, v)
		}
	}
	return out, nil
}
