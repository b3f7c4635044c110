package mcpserver

import (
	"fmt"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// rule tightens one property of an inferred schema with a constraint of the API
// reference (an enum, a range, a default) or gives it a description.
type rule func(*jsonschema.Schema)

// schemaFor infers the JSON Schema of T (a tool's input or output) from its json and
// jsonschema tags (the descriptions) and applies rules by property name. A rule naming no property is a
// programming error and panics, as the SDK's AddTool does for a bad schema.
func schemaFor[T any](rules map[string][]rule) *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: schema of %T: %v", *new(T), err))
	}
	for name, rs := range rules {
		p, ok := s.Properties[name]
		if !ok {
			panic(fmt.Sprintf("mcpserver: schema of %T has no property %q", *new(T), name))
		}
		for _, r := range rs {
			r(p)
		}
	}
	return s
}

// isArray reports whether s describes an array (possibly nullable).
func isArray(s *jsonschema.Schema) bool {
	return s.Type == "array" || slices.Contains(s.Types, "array")
}

// enum restricts a string, or each item of an array of strings, to values.
func enum(values ...string) rule {
	return func(s *jsonschema.Schema) {
		vs := make([]any, len(values))
		for i, v := range values {
			vs[i] = v
		}
		if isArray(s) {
			s.Items.Enum = vs
			return
		}
		s.Enum = vs
	}
}

// between bounds an integer inclusively.
func between(lo, hi float64) rule {
	return func(s *jsonschema.Schema) { s.Minimum, s.Maximum = &lo, &hi }
}

// atLeast bounds an integer from below.
func atLeast(lo float64) rule {
	return func(s *jsonschema.Schema) { s.Minimum = &lo }
}

// maxItems caps an array's length.
func maxItems(n int) rule {
	return func(s *jsonschema.Schema) { s.MaxItems = &n }
}

// minLength requires a non-empty string.
func minLength(n int) rule {
	return func(s *jsonschema.Schema) { s.MinLength = &n }
}

// describe sets a property's description, for a type whose tags have none (the
// client's types, used as a tool's output).
func describe(text string) rule {
	return func(s *jsonschema.Schema) { s.Description = text }
}

// defaultValue is applied by the SDK when the argument is absent.
func defaultValue(v any) rule {
	return func(s *jsonschema.Schema) {
		s.Default = mustJSON(v)
	}
}
