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
		return jsonError(body, err)
	}
	if dec.More() {
		return apperr.Invalid("body", "the body must hold exactly one JSON object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return apperr.Invalid("body", "the body must hold exactly one JSON object")
	}
	return nil
}

func jsonError(body []byte, err error) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		// typeErr.Field is a Go path: it names embedded structs (researchBody.web_search)
		// and drops array indexes and map keys, so the field is found in the body.
		field := typeErr.Field
		if p, ok := jsonPathAt(body, typeErr.Offset); ok {
			field = p
		}
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

// jsonPathAt names the value of body that json's decoder had read up to offset when it
// failed (an UnmarshalTypeError's Offset: after a scalar, or after the opening
// delimiter of an object or array) by its JSON path: keys joined by ".", array
// indexes in brackets (domains[3], nested.flag); "" is the whole body.
func jsonPathAt(body []byte, offset int64) (string, bool) {
	type level struct {
		array bool
		index int    // the current element's index (arrays)
		key   string // the current member's key (objects)
		atKey bool   // the next token is a key (objects)
	}
	var stack []level
	path := func() string {
		var b strings.Builder
		for i, l := range stack {
			switch {
			case l.array:
				fmt.Fprintf(&b, "[%d]", l.index)
			case i > 0:
				b.WriteString("." + l.key)
			default:
				b.WriteString(l.key)
			}
		}
		return b.String()
	}
	// done moves the innermost container past a complete value.
	done := func() {
		if n := len(stack); n > 0 {
			if stack[n-1].array {
				stack[n-1].index++
			} else {
				stack[n-1].atKey = true
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			done()
			continue
		}
		if n := len(stack); n > 0 && !stack[n-1].array && stack[n-1].atKey {
			stack[n-1].key, _ = tok.(string)
			stack[n-1].atKey = false
			continue
		}
		// tok begins a value: a scalar, or an object or array.
		if dec.InputOffset() >= offset {
			return path(), true
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, level{atKey: true})
		case json.Delim('['):
			stack = append(stack, level{array: true})
		default:
			done()
		}
	}
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
