package httpapi

import (
	"errors"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
)

// embedded is shared by several bodies, as generationhttp's researchBody is.
type embedded struct {
	WebSearch bool `json:"web_search"`
}

type sample struct {
	embedded
	Name    string   `json:"name"`
	Max     int      `json:"max_records"`
	Domains []string `json:"domains"`
	Nested  struct {
		Flag bool `json:"flag"`
	} `json:"nested"`
	Previous map[string]string `json:"previous"`
	Items    []struct {
		N int `json:"n"`
	} `json:"items"`
}

func TestDecodeJSON(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		ctype     string
		wantField string // "" means success
	}{
		{"ok", `{"name":"a","max_records":5,"domains":["x.com"]}`, "application/json", ""},
		{"curl default content type", `{"name":"a"}`, "application/x-www-form-urlencoded", ""},
		{"unknown field", `{"name":"a","nmae":"b"}`, "", "nmae"},
		{"wrong type", `{"max_records":"ten"}`, "", "max_records"},
		{"wrong nested type", `{"nested":{"flag":"yes"}}`, "", "nested.flag"},
		{"array item type", `{"domains":["a.com",1]}`, "", "domains[1]"},
		// The JSON path, never the Go one (embedded.web_search) nor one without indexes
		// or map keys.
		{"embedded struct field", `{"name":"a","web_search":"yes"}`, "", "web_search"},
		{"map value", `{"previous":{"a.com":"x","b.com":{"k":1}}}`, "", "previous.b.com"},
		{"array of objects", `{"items":[{"n":1},{"n":[2]}],"name":"a"}`, "", "items[1].n"},
		{"object for a scalar", `{"nested":{"flag":{"x":[1,2]}}}`, "", "nested.flag"},
		{"array for a string", `{"name":["a"]}`, "", "name"},
		{"root not an object", `"text"`, "", "body"},
		{"empty body", ``, "", "body"},
		{"not an object", `[1,2]`, "", "body"},
		{"trailing data", `{"name":"a"} {"name":"b"}`, "", "body"},
		{"syntax", `{"name":`, "", "body"},
		{"multipart", `{}`, "multipart/form-data; boundary=x", "Content-Type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/", strings.NewReader(tt.body))
			if tt.ctype != "" {
				r.Header.Set("Content-Type", tt.ctype)
			}
			var got sample
			err := DecodeJSON(r, &got)
			if tt.wantField == "" {
				if err != nil {
					t.Fatalf("DecodeJSON: %v", err)
				}
				return
			}
			var ae *apperr.Error
			if !errors.As(err, &ae) || ae.Field != tt.wantField || !errors.Is(err, apperr.ErrInvalid) {
				t.Fatalf("err = %v, want validation error on %q", err, tt.wantField)
			}
		})
	}
}

func TestQuery(t *testing.T) {
	v, _ := url.ParseQuery("domain=a.com&domain=b.com,c.com&domain=&max_records=250&flag=TRUE")
	q, err := ParseQuery(v, "domain", "max_records", "flag", "missing")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(q.List("domain"), "|"); got != "a.com|b.com|c.com" {
		t.Errorf("List = %s", got)
	}
	if n, err := q.Int("max_records", 1000, 100, 10000); err != nil || n != 250 {
		t.Errorf("Int = %d, %v", n, err)
	}
	if n, err := q.Int("missing", 1000, 100, 10000); err != nil || n != 1000 {
		t.Errorf("default Int = %d, %v", n, err)
	}
	if _, err := q.Int("max_records", 0, 300, 400); !errors.Is(err, apperr.ErrInvalid) || !strings.Contains(err.Error(), "between 300 and 400") {
		t.Errorf("range: %v", err)
	}
	if b, err := q.Bool("flag", false); err != nil || !b {
		t.Errorf("Bool = %v, %v", b, err)
	}
	if _, err := q.String("domain"); !errors.Is(err, apperr.ErrInvalid) {
		t.Errorf("repeated single-valued: %v", err)
	}
	if _, err := q.Required("missing"); !errors.Is(err, apperr.ErrInvalid) {
		t.Errorf("required: %v", err)
	}
	_, err = ParseQuery(v, "domain")
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Field != "flag" {
		t.Errorf("unknown parameter: %v", err)
	}
}
