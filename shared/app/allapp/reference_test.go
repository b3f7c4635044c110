package allapp_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/openapi"
	"github.com/firmoapi/firmo/shared/world"
)

// referenceValidator is the API reference loaded by a real OpenAPI 3.1 validator
// (pb33f's libopenapi-validator), the document itself checked first.
func referenceValidator(t *testing.T) validator.Validator {
	t.Helper()
	raw, err := openapi.Document()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := libopenapi.NewDocument(raw)
	if err != nil {
		t.Fatalf("the API reference does not load: %v", err)
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		t.Fatalf("the API reference does not load into the validator: %v", errs)
	}
	if ok, verrs := v.ValidateDocument(); !ok {
		for _, e := range verrs {
			t.Errorf("the API reference is not valid OpenAPI 3.1: %s: %s", e.Message, e.Reason)
		}
		t.FailNow()
	}
	return v
}

// TestReferenceIsValid31 holds the document to what tools of OpenAPI 3.1 expect: valid
// against the 3.1 schema, no 3.0-only nullable keyword, every tag named once, every
// operation with a unique operationId, a server that is not one developer's machine.
func TestReferenceIsValid31(t *testing.T) {
	referenceValidator(t)
	raw, _ := openapi.Document()
	if strings.Contains(string(raw), `"nullable"`) {
		t.Error(`the reference uses "nullable", an OpenAPI 3.0 keyword: write "type": ["string", "null"]`)
	}
	if strings.Contains(string(raw), "localhost:8080\"") {
		t.Error("the reference's only server is localhost")
	}
	doc, _ := libopenapi.NewDocument(raw)
	model, err := doc.BuildV3Model()
	if err != nil {
		t.Fatal(err)
	}
	tags := map[string]bool{}
	for _, tag := range model.Model.Tags {
		if tags[tag.Name] {
			t.Errorf("tag %q is declared twice", tag.Name)
		}
		tags[tag.Name] = true
	}
	ids := map[string]string{}
	for pair := model.Model.Paths.PathItems.First(); pair != nil; pair = pair.Next() {
		for op := pair.Value().GetOperations().First(); op != nil; op = op.Next() {
			where := strings.ToUpper(op.Key()) + " " + pair.Key()
			id := op.Value().OperationId
			if id == "" {
				t.Errorf("%s has no operationId", where)
			} else if other, dup := ids[id]; dup {
				t.Errorf("%s and %s share operationId %q", where, other, id)
			}
			ids[id] = where
		}
	}
}

// TestResponsesMatchReference sends real requests to the whole local composition over
// a small seeded world and validates every answer, success and error, against the
// reference with the same validator.
func TestResponsesMatchReference(t *testing.T) {
	v := referenceValidator(t)
	e := newEnv(t, nil)
	ctx := context.Background()
	if _, err := e.app.SeedWorld(ctx, world.Options{Seed: 3, Companies: 40, AsOf: time.Now()}, company.LoadOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := e.app.SeedContacts(ctx, world.Options{Seed: 3, Companies: 40, AsOf: time.Now()}, nil); err != nil {
		t.Fatal(err)
	}
	demo, err := e.app.Accounts.EnsureDemo(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	dom := world.New(world.Options{Seed: 3, Companies: 40, AsOf: time.Now()}).Domain(0)
	for _, c := range []struct{ method, path, body string }{
		{"GET", "/v1/account", ""},
		{"GET", "/v1/account/keys", ""},
		{"GET", "/v1/account/usage", ""},
		{"GET", "/v1/bizdata?domain=" + dom, ""},
		{"GET", "/v1/history?domain=" + dom, ""},
		{"GET", "/v1/score?domain=" + dom, ""},
		{"GET", "/v1/bizdata?domain=not-a-company.example", ""},
		{"GET", "/v1/industries", ""},
		{"GET", "/v1/match?name=Acme", ""},
		{"POST", "/v1/contacts/discover", `{"icp_text":"VP Engineering","max_records":100}`},
		{"POST", "/v1/contacts/discover", `{"max_records":10}`},
		{"GET", "/v1/contacts/count?seniority=vp", ""},
		{"GET", "/v1/contacts/lookup?persona_id=1", ""},
		{"GET", "/v1/contacts?max_records=100", ""},
		{"GET", "/v1/queries/saved", ""},
		{"GET", "/v1/llm-providers/config", ""},
		{"GET", "/v1/search-providers", ""},
		{"GET", "/v1/gen/models", ""},
		{"POST", "/v1/email/find", `{"first_name":"Jane","last_name":"Doe","domain":"` + dom + `"}`},
		{"GET", "/v1/gen/status/3f1c2a4e-8b7d-4c1e-9a2b-5d6e7f8a9b0c", ""},
		{"POST", "/v1/validate/icp", `{"icp_text":"Mandatory: B2B\nReject if: agencies\nNice-to-have: US","domains":["` + dom + `"],"integration_id":"native-icp"}`},
		{"POST", "/v1/validate/icp", `{"icp_text":"Mandatory: B2B","domains":["` + dom + `"],"integration_id":"native-icp"}`},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			rec := call(t, e.app, demo.Key, c.method, c.path, c.body)
			req, _ := http.NewRequest(c.method, "http://firmo.test"+c.path, strings.NewReader(c.body))
			if c.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			resp := rec.Result()
			if ok, errs := v.ValidateHttpResponse(req, resp); !ok {
				for _, err := range errs {
					t.Errorf("%d answer does not match the reference: %s: %s", rec.Code, err.Message, err.Reason)
					for _, s := range err.SchemaValidationErrors {
						t.Errorf("  %s", s.Reason)
					}
				}
			}
		})
	}
}
