package contacthttp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/mail"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/httpapi"
)

// ContactService is contact search (contactsearch.Service satisfies it).
type ContactService interface {
	Discover(ctx context.Context, who contactsearch.Caller, p contactsearch.Params) (contactsearch.Response, int64, error)
	Count(ctx context.Context, p contactsearch.Params) (int, error)
	Lookup(ctx context.Context, personaID int64, linkedin, email string) (contactsearch.LookupView, error)
}

// filterParams are the query parameters of GET /v1/contacts/count: the person,
// contact-data and company filters.
var filterParams = []string{
	"seniority", "negate_seniority", "department", "negate_department", "skills", "name", "title", "negate_title",
	"summary", "negate_summary", "person_country", "negate_person_country", "person_state",
	"has_email", "email_validated", "has_phone", "has_mobile", "has_linkedin", "min_connections", "jobstart_date",
	"filter_industry", "negate_filter_industry", "filter_country", "negate_filter_country", "filter_state",
	"negate_filter_state", "employee_range", "revenue_range",
}

// searchParams are the other parameters of the legacy list.
var searchParams = []string{"persona_id", "icp_prompt", "icp_text", "domain", "inclusion_query_id", "exclusion_query_id",
	"max_records", "max_companies", "offset", "results_by_company", "include_search_contacts", "consensus"}

// ContactRoutes serves the contacts family: POST /v1/contacts/discover, GET
// /v1/contacts/count, GET /v1/contacts/lookup and the legacy GET /v1/contacts.
func ContactRoutes(svc ContactService) []httpapi.Route {
	discover := func(w http.ResponseWriter, r *http.Request) error {
		var p contactsearch.Params
		if err := httpapi.DecodeJSON(r, &p); err != nil {
			return err
		}
		resp, credits, err := svc.Discover(r.Context(), contactsearch.Caller{Principal: httpapi.Caller(r), RequestID: httpapi.RequestID(r.Context())}, p)
		if err != nil {
			return err
		}
		httpapi.SetCreditsCharged(w, credits)
		httpapi.WriteJSON(w, http.StatusOK, resp)
		return nil
	}
	count := func(w http.ResponseWriter, r *http.Request) error {
		q, err := httpapi.ParseQuery(r.URL.Query(), filterParams...)
		if err != nil {
			return err
		}
		p, err := paramsOf(q)
		if err != nil {
			return err
		}
		n, err := svc.Count(r.Context(), p)
		if err != nil {
			return err
		}
		httpapi.WriteJSON(w, http.StatusOK, map[string]int{"count": n})
		return nil
	}
	lookup := func(w http.ResponseWriter, r *http.Request) error {
		q, err := httpapi.ParseQuery(r.URL.Query(), "persona_id", "linkedin", "email")
		if err != nil {
			return err
		}
		given := 0
		for _, k := range []string{"persona_id", "linkedin", "email"} {
			if q.Has(k) {
				given++
			}
		}
		if given != 1 {
			return apperr.Invalid("persona_id", "give exactly one of persona_id, linkedin and email")
		}
		var id int64
		if q.Has("persona_id") {
			n, err := q.Int("persona_id", 0, 1, 1<<62)
			if err != nil {
				return err
			}
			id = int64(n)
		}
		linkedin, _ := q.String("linkedin")
		email, _ := q.String("email")
		if q.Has("linkedin") && strings.TrimSpace(linkedin) == "" {
			return apperr.Invalid("linkedin", "linkedin is a profile URL or a username")
		}
		if q.Has("email") {
			if a, err := mail.ParseAddress(email); err != nil || a.Address != strings.TrimSpace(email) {
				return apperr.Invalid("email", "email is not a valid address")
			}
		}
		v, err := svc.Lookup(r.Context(), id, linkedin, email)
		if err != nil {
			return err
		}
		httpapi.WriteJSON(w, http.StatusOK, v)
		return nil
	}
	legacy := func(w http.ResponseWriter, r *http.Request) error {
		q, err := httpapi.ParseQuery(r.URL.Query(), append(append([]string{}, filterParams...), searchParams...)...)
		if err != nil {
			return err
		}
		p, err := paramsOf(q)
		if err != nil {
			return err
		}
		resp, credits, err := svc.Discover(r.Context(), contactsearch.Caller{Principal: httpapi.Caller(r), RequestID: httpapi.RequestID(r.Context())}, p)
		if err != nil {
			return err
		}
		httpapi.SetCreditsCharged(w, credits)
		httpapi.WriteJSON(w, http.StatusOK, resp.Contacts())
		return nil
	}
	// Up to 10,000 contacts make 6 to 7 MB of JSON: the record caps bound the answer.
	sizeParams := []string{"max_records", "max_companies"}
	return []httpapi.Route{
		{Method: "POST", Path: "/v1/contacts/discover", Family: httpapi.FamilyContacts, Handle: discover, SizeParams: sizeParams},
		{Method: "GET", Path: "/v1/contacts/count", Family: httpapi.FamilyContacts, Handle: count},
		{Method: "GET", Path: "/v1/contacts/lookup", Family: httpapi.FamilyContacts, Handle: lookup},
		{Method: "GET", Path: "/v1/contacts", Family: httpapi.FamilyContacts, Handle: legacy, SizeParams: sizeParams},
	}
}

// paramsOf reads the search vocabulary from a query string: list parameters repeat, and
// the rest are converted to their JSON types by decoding a JSON object built from them,
// so a wrong type is the same 422 naming the field as in the POST body.
func paramsOf(q httpapi.Query) (contactsearch.Params, error) {
	obj := map[string]any{}
	lists := map[string]bool{"persona_id": true, "domain": true, "inclusion_query_id": true, "exclusion_query_id": true,
		"seniority": true, "negate_seniority": true, "department": true, "negate_department": true, "skills": true,
		"title": true, "negate_title": true, "summary": true, "negate_summary": true, "person_country": true,
		"negate_person_country": true, "person_state": true, "filter_industry": true, "negate_filter_industry": true,
		"filter_country": true, "negate_filter_country": true, "filter_state": true, "negate_filter_state": true}
	for _, name := range append(append([]string{}, filterParams...), searchParams...) {
		if !q.Has(name) {
			continue
		}
		switch {
		case name == "persona_id":
			var ids []json.RawMessage
			for _, v := range q.List(name) {
				ids = append(ids, json.RawMessage(numberOrString(v)))
			}
			obj[name] = ids
		case lists[name]:
			obj[name] = q.List(name)
		case name == "name" || name == "icp_prompt" || name == "icp_text" || name == "jobstart_date" ||
			name == "employee_range" || name == "revenue_range":
			v, err := q.String(name)
			if err != nil {
				return contactsearch.Params{}, err
			}
			obj[name] = v
		default: // integers and booleans
			v, err := q.String(name)
			if err != nil {
				return contactsearch.Params{}, err
			}
			obj[name] = json.RawMessage(numberOrString(v))
		}
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return contactsearch.Params{}, err
	}
	var p contactsearch.Params
	return p, httpapi.DecodeBytes(b, &p)
}

// numberOrString keeps a number or boolean literal as is and quotes anything else, so
// the JSON decoder reports the type error on the field.
func numberOrString(v string) string {
	var x any
	if err := json.Unmarshal([]byte(v), &x); err == nil {
		switch x.(type) {
		case float64, bool:
			return v
		}
	}
	b, _ := json.Marshal(v)
	return string(b)
}
