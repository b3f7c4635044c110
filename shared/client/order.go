package client

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The API answers some results as JSON objects keyed by domain whose key order carries
// meaning (contact search: rank order; task results: the order of the domains sent). A
// Go map keeps no order, so the types holding such maps also record their keys in the
// answer's order.

// UnmarshalJSON decodes the answer and records Order.
func (r *ContactSearchResult) UnmarshalJSON(b []byte) error {
	type plain ContactSearchResult
	if err := json.Unmarshal(b, (*plain)(r)); err != nil {
		return err
	}
	var err error
	r.Order, err = objectKeys(b, "results")
	return err
}

// UnmarshalJSON decodes the answer and records ResultsOrder and InterimOrder.
func (g *GenerationTask) UnmarshalJSON(b []byte) error {
	type plain GenerationTask
	if err := json.Unmarshal(b, (*plain)(g)); err != nil {
		return err
	}
	var err error
	if g.ResultsOrder, err = objectKeys(b, "results"); err != nil {
		return err
	}
	g.InterimOrder, err = objectKeys(b, "interim_results")
	return err
}

// objectKeys returns the keys of the object body[field] in the order the answer wrote
// them (nil when the field is absent or null).
func objectKeys(body []byte, field string) ([]string, error) {
	var head map[string]json.RawMessage
	if err := json.Unmarshal(body, &head); err != nil {
		return nil, err
	}
	raw := bytes.TrimSpace(head[field])
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("client: %s is not an object", field)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string) // an object's keys are strings
		keys = append(keys, key)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}
