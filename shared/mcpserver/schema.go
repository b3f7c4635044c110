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

// outputSchemaFor is the output schema of a tool answering T: T's inferred schema
// (with rules) where every map may also be null. The inference reads a Go map as
// "object" only, but a nil map (sub_industry of a company without one, say) encodes as
// null, and an output schema must admit every answer the tool gives: the SDK checks
// each answer against it and fails the call otherwise.
func outputSchemaFor[T any](rules map[string][]rule) *jsonschema.Schema {
	s := schemaFor[T](rules)
	nullableMaps(s, true)
	return s
}

// nullableMaps lets every map-typed schema under s (s itself unless top) be null too.
func nullableMaps(s *jsonschema.Schema, top bool) {
	if s == nil {
		return
	}
	if !top && s.Type == "object" && s.AdditionalProperties != nil && s.Properties == nil {
		s.Types, s.Type = []string{"null", "object"}, ""
	}
	for _, p := range s.Properties {
		nullableMaps(p, false)
	}
	nullableMaps(s.Items, false)
	if s.AdditionalProperties != nil {
		nullableMaps(s.AdditionalProperties, false)
	}
	for _, d := range s.Defs {
		nullableMaps(d, false)
	}
	for _, x := range s.AnyOf {
		nullableMaps(x, false)
	}
	for _, x := range s.OneOf {
		nullableMaps(x, false)
	}
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
