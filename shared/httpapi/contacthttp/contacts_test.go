package contacthttp

import (
	"context"
	"errors"
	"net/http/httptest"
	"net/url"
	"reflect"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/httpapi"
)

type fakeContacts struct {
	count  contactsearch.Params
	lookup []any
}

func (f *fakeContacts) Discover(ctx context.Context, who contactsearch.Caller, p contactsearch.Params) (contactsearch.Response, int64, error) {
	return contactsearch.Response{}, 0, nil
}

func (f *fakeContacts) Count(ctx context.Context, p contactsearch.Params) (int, error) {
	f.count = p
	return 7, nil
}

func (f *fakeContacts) Lookup(ctx context.Context, id int64, linkedin, email string) (contactsearch.LookupView, error) {
	f.lookup = []any{id, linkedin, email}
	return contactsearch.LookupView{PersonaID: 1}, nil
}

func route(t *testing.T, rs []httpapi.Route, method, path string) httpapi.Route {
	t.Helper()
	for _, r := range rs {
		if r.Method == method && r.Path == path {
			return r
		}
	}
	t.Fatalf("no route %s %s", method, path)
	return httpapi.Route{}
}

func TestContactLookupParams(t *testing.T) {
	f := &fakeContacts{}
	lookup := route(t, ContactRoutes(f), "GET", "/v1/contacts/lookup")
	tests := []struct {
		query string
		field string // "" when accepted
		want  []any
	}{
		{"persona_id=12", "", []any{int64(12), "", ""}},
		{"email=Jane%40Example.com", "", []any{int64(0), "", "Jane@Example.com"}},
		{"linkedin=janedoe", "", []any{int64(0), "janedoe", ""}},
		{"", "persona_id", nil},
		{"persona_id=1&email=a%40b.com", "persona_id", nil},
		{"email=not-an-address", "email", nil},
		{"persona_id=x", "persona_id", nil},
		{"name=x", "name", nil},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			f.lookup = nil
			err := lookup.Handle(httptest.NewRecorder(), httptest.NewRequest("GET", "/v1/contacts/lookup?"+tt.query, nil))
			if tt.field == "" {
				if err != nil || !reflect.DeepEqual(f.lookup, tt.want) {
					t.Fatalf("err %v, lookup %v, want %v", err, f.lookup, tt.want)
				}
				return
			}
			var ae *apperr.Error
			if !errors.As(err, &ae) || !errors.Is(err, apperr.ErrInvalid) || ae.Field != tt.field {
				t.Fatalf("err = %v, want a 422 on %s", err, tt.field)
			}
		})
	}
}

func TestContactCountParams(t *testing.T) {
	f := &fakeContacts{}
	count := route(t, ContactRoutes(f), "GET", "/v1/contacts/count")
	q := url.Values{"seniority": {"vp", "director"}, "has_email": {"true"}, "min_connections": {"100"},
		"jobstart_date": {"2020-01-01,2021-01-01"}, "employee_range": {"10,50"}}
	if err := count.Handle(httptest.NewRecorder(), httptest.NewRequest("GET", "/v1/contacts/count?"+q.Encode(), nil)); err != nil {
		t.Fatal(err)
	}
	p := f.count
	if !reflect.DeepEqual([]string(p.Seniority), []string{"vp", "director"}) || p.HasEmail == nil || !*p.HasEmail ||
		p.MinConnections == nil || *p.MinConnections != 100 || p.JobstartDate != "2020-01-01,2021-01-01" || p.EmployeeRange != "10,50" {
		t.Fatalf("params = %+v", p)
	}
	for _, bad := range []string{"min_connections=many", "max_records=20", "has_email=maybe"} {
		err := count.Handle(httptest.NewRecorder(), httptest.NewRequest("GET", "/v1/contacts/count?"+bad, nil))
		if !errors.Is(err, apperr.ErrInvalid) {
			t.Errorf("%s: err = %v, want 422", bad, err)
		}
	}
}
