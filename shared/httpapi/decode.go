package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
)

// DecodeJSON decodes the request body strictly into dst: the body must be one JSON
// object of the right types with no unknown fields. Every violation is a 422 naming
// the field.
func DecodeJSON(r *http.Request, dst any) error {
	// Any content type whose body is JSON is accepted (curl -d sends a form type by
	// default); only multipart, which can never be a JSON body, is refused up front.
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err == nil && strings.HasPrefix(mt, "multipart/") {
			return apperr.Invalid("Content-Type", "this endpoint takes a JSON body (Content-Type: application/json), not %s", mt)
		}
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return &apperr.Error{Kind: apperr.ErrTooLarge, Message: fmt.Sprintf("The request body is larger than %d bytes.", mbe.Limit)}
		}
		return apperr.Invalid("body", "the request body could not be read")
	}
	return DecodeBytes(body, dst)
}

// DecodeBytes decodes body strictly into dst, as DecodeJSON does for a request body.
func DecodeBytes(body []byte, dst any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return apperr.Invalid("body", "a JSON object body is required")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return jsonError(err)
	}
	if dec.More() {
		return apperr.Invalid("body", "the body must hold exactly one JSON object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return apperr.Invalid("body", "the body must hold exactly one JSON object")
	}
	return nil
}

func jsonError(err error) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		field := typeErr.Field
		if field == "" {
			return apperr.Invalid("body", "the body must be a JSON object")
		}
		return apperr.Invalid(field, "must be %s, not a JSON %s", describeType(typeErr.Type.Kind().String()), typeErr.Value)
	case errors.As(err, &syntaxErr):
		return apperr.Invalid("body", "malformed JSON at byte %d", syntaxErr.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return apperr.Invalid("body", "the JSON body ends too early")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return apperr.Invalid(name, "unknown field %q", name)
	}
	return apperr.Invalid("body", "the body is not valid JSON for this endpoint")
}

func describeType(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "an integer"
	case "float32", "float64":
		return "a number"
	case "bool":
		return "a boolean"
	case "slice", "array":
		return "an array"
	case "map", "struct":
		return "an object"
	}
	return "a value of another type"
}
