package client

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/url"
	"reflect"
	"strconv"
	"strings"
)

// Operation is one operation of the API reference and the method of Client that calls
// it.
type Operation struct {
	// ID is the operationId in the API reference (GET /v1/openapi.json).
	ID string
	// Method and Path are the HTTP method and the path template, such as
	// /v1/segment/status/{task_id}.
	Method, Path string
	// GoMethod is the name of the Client method that calls it.
	GoMethod string
}

// The operations, one variable each, so that a method names the operation it calls
// (method and path come from here, never from a second copy).
var (
	opGetHealthz      = Operation{"getHealthz", "GET", "/healthz", "Healthz"}
	opGetReadyz       = Operation{"getReadyz", "GET", "/readyz", "Readyz"}
	opGetOpenAPI      = Operation{"getOpenapiJson", "GET", "/v1/openapi.json", "OpenAPIDocument"}
	opGetGenModels    = Operation{"getGenModels", "GET", "/v1/gen/models", "GenModels"}
	opGetAccount      = Operation{"getAccount", "GET", "/v1/account", "GetAccount"}
	opGetKeys         = Operation{"getAccountKeys", "GET", "/v1/account/keys", "APIKeys"}
	opPostKeys        = Operation{"postAccountKeys", "POST", "/v1/account/keys", "CreateAPIKey"}
	opDeleteKey       = Operation{"deleteAccountKeysByKeyId", "DELETE", "/v1/account/keys/{key_id}", "RevokeAPIKey"}
	opGetUsage        = Operation{"getAccountUsage", "GET", "/v1/account/usage", "Usage"}
	opPostLogin       = Operation{"postAuthLogin", "POST", "/v1/auth/login", "Login"}
	opPostLogout      = Operation{"postAuthLogout", "POST", "/v1/auth/logout", "Logout"}
	opGetContacts     = Operation{"getContacts", "GET", "/v1/contacts", "ListContacts"}
	opGetContactCount = Operation{"getContactsCount", "GET", "/v1/contacts/count", "CountContacts"}
	opPostDiscover    = Operation{"postContactsDiscover", "POST", "/v1/contacts/discover", "DiscoverContacts"}
	opGetLookup       = Operation{"getContactsLookup", "GET", "/v1/contacts/lookup", "LookupContact"}
	opGetBizdata      = Operation{"getBizdata", "GET", "/v1/bizdata", "Bizdata"}
	opGetScore        = Operation{"getScore", "GET", "/v1/score", "Score"}
	opGetHistory      = Operation{"getHistory", "GET", "/v1/history", "History"}
	opGetIndustries   = Operation{"getIndustries", "GET", "/v1/industries", "Industries"}
	opGetExtract      = Operation{"getExtract", "GET", "/v1/extract", "Extract"}
	opGetMatch        = Operation{"getMatch", "GET", "/v1/match", "Match"}
	opPostEmailFind   = Operation{"postEmailFind", "POST", "/v1/email/find", "FindEmail"}
	opPostEmailBatch  = Operation{"postEmailFindBatch", "POST", "/v1/email/find/batch", "FindEmailBatch"}
	opGetEmailJob     = Operation{"getEmailJobsByJobId", "GET", "/v1/email/jobs/{job_id}", "GetEmailJob"}
	opGetEmailBatch   = Operation{"getEmailBatchByBatchIdResults", "GET", "/v1/email/batch/{batch_id}/results", "GetEmailBatch"}
	opPostProcess     = Operation{"postGenProcess", "POST", "/v1/gen/process", "Research"}
	opPostPersonas    = Operation{"postGenProcessPersonas", "POST", "/v1/gen/process-personas", "ResearchPersonas"}
	opPostValidateICP = Operation{"postValidateIcp", "POST", "/v1/validate/icp", "ValidateICP"}
	opPostGenerate    = Operation{"postContactsDiscoverGenerate", "POST", "/v1/contacts/discover/generate", "GenerateContacts"}
	opGetGenStatus    = Operation{"getGenStatusByTaskId", "GET", "/v1/gen/status/{task_id}", "GetGenerationTask"}
	opDeleteGenCancel = Operation{"deleteGenCancelByTaskId", "DELETE", "/v1/gen/cancel/{task_id}", "CancelTask"}
	opPostBulkMatch   = Operation{"postBulkmatch", "POST", "/v1/bulkmatch", "BulkMatch"}
	opGetBulkStatus   = Operation{"getBulkmatchStatusByTaskId", "GET", "/v1/bulkmatch/status/{task_id}", "GetBulkMatchStatus"}
	opPostSegment     = Operation{"postSegment", "POST", "/v1/segment", "Segment"}
	opGetSegStatus    = Operation{"getSegmentStatusByTaskId", "GET", "/v1/segment/status/{task_id}", "GetSegmentStatus"}
	opPostAppend      = Operation{"postAppend", "POST", "/v1/append", "Append"}
	opGetSaved        = Operation{"getQueriesSaved", "GET", "/v1/queries/saved", "SavedQueries"}
	opPostExclusion   = Operation{"postQueriesExclusionList", "POST", "/v1/queries/exclusion-list", "CreateExclusionList"}
	opPatchQuery      = Operation{"patchQueriesByQueryId", "PATCH", "/v1/queries/{query_id}", "UpdateQuery"}
	opDeleteQuery     = Operation{"deleteQueriesByQueryId", "DELETE", "/v1/queries/{query_id}", "DeleteQuery"}
	opGetLLMs         = Operation{"getLlmProvidersConfig", "GET", "/v1/llm-providers/config", "LLMIntegrations"}
	opPostLLM         = Operation{"postLlmProvidersConfig", "POST", "/v1/llm-providers/config", "CreateLLMIntegration"}
	opGetLLM          = Operation{"getLlmProvidersConfigByIntegrationId", "GET", "/v1/llm-providers/config/{integration_id}", "GetLLMIntegration"}
	opPutLLM          = Operation{"putLlmProvidersConfigByIntegrationId", "PUT", "/v1/llm-providers/config/{integration_id}", "UpdateLLMIntegration"}
	opDeleteLLM       = Operation{"deleteLlmProvidersConfigByIntegrationId", "DELETE", "/v1/llm-providers/config/{integration_id}", "DeleteLLMIntegration"}
	opDefaultLLM      = Operation{"postLlmProvidersConfigByIntegrationIdSetDefault", "POST", "/v1/llm-providers/config/{integration_id}/set-default", "SetDefaultLLMIntegration"}
	opTestLLM         = Operation{"postLlmProvidersTestConnection", "POST", "/v1/llm-providers/test-connection", "TestLLMConnection"}
	opGetSearch       = Operation{"getSearchProviders", "GET", "/v1/search-providers", "SearchProviders"}
	opPostSearch      = Operation{"postSearchProviders", "POST", "/v1/search-providers", "CreateSearchProvider"}
	opDeleteSearch    = Operation{"deleteSearchProvidersByProviderId", "DELETE", "/v1/search-providers/{provider_id}", "DeleteSearchProvider"}
	opDefaultSearch   = Operation{"postSearchProvidersByProviderIdSetDefault", "POST", "/v1/search-providers/{provider_id}/set-default", "SetDefaultSearchProvider"}
	opGetCRMConns     = Operation{"getCrmConnections", "GET", "/v1/crm/connections", "CRMConnections"}
	opGetCRMAuthorize = Operation{"getCrmByProviderAuthorize", "GET", "/v1/crm/{provider}/authorize", "CRMAuthorize"}
	opGetCRMCallback  = Operation{"getCrmByProviderCallback", "GET", "/v1/crm/{provider}/callback", "CRMCallback"}
	opDeleteCRMConn   = Operation{"deleteCrmByProviderConnection", "DELETE", "/v1/crm/{provider}/connection", "DeleteCRMConnection"}
	opPostCRMSuppress = Operation{"postCrmByProviderSuppress", "POST", "/v1/crm/{provider}/suppress", "CRMSuppress"}
)

// Operations lists every operation of the API reference this package calls (all but
// GET /docs, the browsable page) with the Client method that calls it. A test checks
// it against the reference.
func Operations() []Operation {
	return []Operation{
		opGetHealthz, opGetReadyz, opGetOpenAPI, opGetGenModels,
		opGetAccount, opGetKeys, opPostKeys, opDeleteKey, opGetUsage, opPostLogin, opPostLogout,
		opGetContacts, opGetContactCount, opPostDiscover, opGetLookup,
		opGetBizdata, opGetScore, opGetHistory, opGetIndustries, opGetExtract,
		opGetMatch,
		opPostEmailFind, opPostEmailBatch, opGetEmailJob, opGetEmailBatch,
		opPostProcess, opPostPersonas, opPostValidateICP, opPostGenerate, opGetGenStatus, opDeleteGenCancel,
		opPostBulkMatch, opGetBulkStatus, opPostSegment, opGetSegStatus,
		opPostAppend,
		opGetSaved, opPostExclusion, opPatchQuery, opDeleteQuery,
		opGetLLMs, opPostLLM, opGetLLM, opPutLLM, opDeleteLLM, opDefaultLLM, opTestLLM,
		opGetSearch, opPostSearch, opDeleteSearch, opDefaultSearch,
		opGetCRMConns, opGetCRMAuthorize, opGetCRMCallback, opDeleteCRMConn, opPostCRMSuppress,
	}
}

// path fills the operation's path parameters, in the order they appear, each escaped
// with url.PathEscape.
func (o Operation) path(params ...string) (string, error) {
	var b strings.Builder
	rest := o.Path
	for _, p := range params {
		i := strings.IndexByte(rest, '{')
		j := strings.IndexByte(rest, '}')
		if i < 0 || j < i {
			return "", fmt.Errorf("client: %s %s takes %d path parameters, not %d", o.Method, o.Path, strings.Count(o.Path, "{"), len(params))
		}
		if strings.TrimSpace(p) == "" {
			return "", fmt.Errorf("client: %s %s: %s is empty", o.Method, o.Path, rest[i+1:j])
		}
		b.WriteString(rest[:i])
		b.WriteString(url.PathEscape(p))
		rest = rest[j+1:]
	}
	if strings.Contains(rest, "{") {
		return "", fmt.Errorf("client: %s %s: missing path parameters", o.Method, o.Path)
	}
	b.WriteString(rest)
	return b.String(), nil
}

// request is one call of an operation.
type request struct {
	op     Operation
	params []string // path parameters
	query  any      // a struct with json tags, encoded by encodeQuery
	json   any      // the JSON body
	// form, when not nil, is a struct with form tags sent as multipart/form-data
	// (encodeForm).
	form   any
	accept string
}

// call sends r and, for a 2xx answer with a body, decodes it into out (when out is
// not nil).
func (c *Client) call(ctx context.Context, r request, out any) (*Response, error) {
	p, err := r.op.path(r.params...)
	if err != nil {
		return nil, err
	}
	call := Call{Method: r.op.Method, Path: p, JSON: r.json, Accept: r.accept}
	if r.query != nil {
		if call.Query, err = encodeQuery(r.query); err != nil {
			return nil, err
		}
	}
	if r.form != nil {
		if call.Body, call.ContentType, err = encodeForm(r.form); err != nil {
			return nil, err
		}
	}
	resp, err := c.Do(ctx, call)
	if err != nil {
		return resp, err
	}
	if out != nil && len(bytes.TrimSpace(resp.Body)) > 0 && resp.Status != 204 {
		if err := resp.Decode(out); err != nil {
			return resp, err
		}
	}
	return resp, nil
}

// Bool returns a pointer to b, for the optional booleans of requests (nil: not sent,
// the server's default).
func Bool(b bool) *bool { return &b }

// fieldName is the parameter name of a struct field from its tag (json, or form when
// tag is "form"); "" for a field that is not sent.
func fieldName(f reflect.StructField, tag string) string {
	v, ok := f.Tag.Lookup(tag)
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(v, ",")
	if name == "-" {
		return ""
	}
	return name
}

// paramValues walks a struct's fields (embedded structs flattened) and returns each
// tagged field's values as strings: nothing for a zero value or a nil pointer, one
// value a scalar, one value an item of a slice. Fields of type io.Reader are skipped.
func paramValues(v any, tag string, visit func(name string, vals []string)) error {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return nil
		}
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Struct {
		return fmt.Errorf("client: parameters must be a struct, not %s", rv.Type())
	}
	t := rv.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			if err := paramValues(rv.Field(i).Interface(), tag, visit); err != nil {
				return err
			}
			continue
		}
		name := fieldName(f, tag)
		if name == "" || !f.IsExported() {
			continue
		}
		vals, err := scalarValues(rv.Field(i))
		if err != nil {
			return fmt.Errorf("client: parameter %s: %w", name, err)
		}
		if len(vals) > 1 && strings.Contains(f.Tag.Get(tag), ",comma") {
			vals = []string{strings.Join(vals, ",")}
		}
		if len(vals) > 0 {
			visit(name, vals)
		}
	}
	return nil
}

func scalarValues(v reflect.Value) ([]string, error) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil, nil
		}
		e := v.Elem()
		switch e.Kind() {
		case reflect.Bool:
			return []string{strconv.FormatBool(e.Bool())}, nil
		case reflect.Int, reflect.Int64, reflect.Int32:
			return []string{strconv.FormatInt(e.Int(), 10)}, nil
		}
		return scalarValues(e)
	case reflect.String:
		if v.String() == "" {
			return nil, nil
		}
		return []string{v.String()}, nil
	case reflect.Bool:
		if !v.Bool() {
			return nil, nil
		}
		return []string{"true"}, nil
	case reflect.Int, reflect.Int64, reflect.Int32:
		if v.Int() == 0 {
			return nil, nil
		}
		return []string{strconv.FormatInt(v.Int(), 10)}, nil
	case reflect.Slice:
		var out []string
		for i := range v.Len() {
			s, err := scalarValues(v.Index(i))
			if err != nil {
				return nil, err
			}
			out = append(out, s...)
		}
		return out, nil
	case reflect.Interface:
		if v.IsNil() {
			return nil, nil
		}
		if _, ok := v.Interface().(io.Reader); ok {
			return nil, nil
		}
	}
	return nil, fmt.Errorf("unsupported type %s", v.Type())
}

// encodeQuery encodes a struct's json-tagged fields as query parameters; a slice is
// the repeated form (?a=1&a=2), which every list parameter accepts.
func encodeQuery(v any) (url.Values, error) {
	q := url.Values{}
	err := paramValues(v, "json", func(name string, vals []string) { q[name] = append(q[name], vals...) })
	return q, err
}

// upload is implemented by the multipart requests: the file to send, if any.
type upload interface {
	upload() (r io.Reader, name string)
}

// encodeForm encodes a struct's form-tagged fields as a multipart/form-data body, one
// part per value, and its file (upload) as the part named file.
func encodeForm(v any) ([]byte, string, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	var werr error
	err := paramValues(v, "form", func(name string, vals []string) {
		for _, s := range vals {
			if werr == nil {
				werr = mw.WriteField(name, s)
			}
		}
	})
	if err == nil {
		err = werr
	}
	if err != nil {
		return nil, "", err
	}
	if u, ok := v.(upload); ok {
		if r, name := u.upload(); r != nil {
			if name == "" {
				name = "upload.csv"
			}
			part, err := mw.CreateFormFile("file", name)
			if err != nil {
				return nil, "", err
			}
			if _, err := io.Copy(part, r); err != nil {
				return nil, "", fmt.Errorf("client: read the file to upload: %w", err)
			}
		}
	}
	if err := mw.Close(); err != nil {
		return nil, "", err
	}
	return buf.Bytes(), mw.FormDataContentType(), nil
}
