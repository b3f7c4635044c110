package client

import (
	"context"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// The tests of this file hold the package to the API reference (openapi.json, the
// document the server serves at /v1/openapi.json, kept beside the code; a test of the
// server module fails when the two differ):
// Operations covers exactly its operations, each method sends its operation's method,
// path, query parameters, JSON properties and form fields, and every field of every
// request and response type names a property of the operation's schema.

type reference struct {
	doc map[string]any
	ops map[string]refOp // by operationId
}

type refOp struct {
	method, path string
	op           map[string]any
}

func loadReference(t *testing.T) *reference {
	t.Helper()
	raw, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	r := &reference{ops: map[string]refOp{}}
	if err := json.Unmarshal(raw, &r.doc); err != nil {
		t.Fatal(err)
	}
	for p, ops := range r.doc["paths"].(map[string]any) {
		for m, o := range ops.(map[string]any) {
			op, ok := o.(map[string]any)
			if !ok {
				continue
			}
			id, _ := op["operationId"].(string)
			if id == "" {
				continue
			}
			r.ops[id] = refOp{method: strings.ToUpper(m), path: p, op: op}
		}
	}
	return r
}

// resolve follows a $ref.
func (r *reference) resolve(s map[string]any) map[string]any {
	for s != nil {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		cur := any(r.doc)
		for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			cur = cur.(map[string]any)[part]
		}
		s, _ = cur.(map[string]any)
	}
	return s
}

// objectShape is the properties and required properties of a schema: allOf parts
// merged, oneOf/anyOf object variants merged (their required lists are not).
func (r *reference) objectShape(s map[string]any) (props map[string]map[string]any, required []string) {
	props = map[string]map[string]any{}
	var walk func(s map[string]any, mandatory bool)
	walk = func(s map[string]any, mandatory bool) {
		s = r.resolve(s)
		if s == nil {
			return
		}
		if p, ok := s["properties"].(map[string]any); ok {
			for k, v := range p {
				props[k], _ = v.(map[string]any)
			}
		}
		if mandatory {
			for _, q := range asList(s["required"]) {
				required = append(required, q.(string))
			}
		}
		for _, part := range asList(s["allOf"]) {
			walk(part.(map[string]any), mandatory)
		}
		for _, key := range []string{"oneOf", "anyOf"} {
			for _, part := range asList(s[key]) {
				walk(part.(map[string]any), false)
			}
		}
	}
	walk(s, true)
	return props, required
}

func asList(v any) []any { l, _ := v.([]any); return l }

// types is the schema's JSON types (its oneOf/anyOf variants' too).
func (r *reference) types(s map[string]any) []string {
	s = r.resolve(s)
	var out []string
	switch t := s["type"].(type) {
	case string:
		out = append(out, t)
	case []any:
		for _, x := range t {
			out = append(out, x.(string))
		}
	}
	for _, key := range []string{"oneOf", "anyOf", "allOf"} {
		for _, part := range asList(s[key]) {
			out = append(out, r.types(part.(map[string]any))...)
		}
	}
	if len(out) == 0 && s["properties"] != nil {
		out = append(out, "object")
	}
	return out
}

// variant is the schema's own or oneOf/anyOf variant of the given JSON type.
func (r *reference) variant(s map[string]any, typ string) map[string]any {
	s = r.resolve(s)
	if slices.Contains(r.types(map[string]any{"type": s["type"]}), typ) {
		return s
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		for _, part := range asList(s[key]) {
			if v := r.variant(part.(map[string]any), typ); v != nil {
				return v
			}
		}
	}
	return nil
}

// checkType walks a Go type against a schema: a struct's JSON fields must be
// properties (recursively checked), the schema's required properties fields; a slice
// is checked against the items, a map against additionalProperties; a scalar's kind
// must be one of the schema's types.
func (r *reference) checkType(t *testing.T, where string, gt reflect.Type, s map[string]any) {
	t.Helper()
	for gt.Kind() == reflect.Pointer {
		gt = gt.Elem()
	}
	s = r.resolve(s)
	if len(s) == 0 {
		return // any value
	}
	types := r.types(s)
	want := func(typ string) bool {
		if len(types) == 0 || slices.Contains(types, typ) {
			return true
		}
		t.Errorf("%s: Go type %s, but the reference says %v", where, gt, types)
		return false
	}
	if gt == reflect.TypeOf(time.Time{}) {
		// encoding/json reads and writes a time.Time as an RFC 3339 string.
		if want("string") && r.variant(s, "string")["format"] != "date-time" {
			t.Errorf("%s: Go type time.Time, but the reference's string is not a date-time", where)
		}
		return
	}
	switch gt.Kind() {
	case reflect.Struct:
		if !want("object") {
			return
		}
		props, required := r.objectShape(s)
		fields := jsonFields(gt, "json")
		for name, f := range fields {
			ps, ok := props[name]
			if !ok {
				t.Errorf("%s: field %s (json %q) is not a property of the reference's schema (properties: %s)", where, f.Name, name, strings.Join(sortedKeys(props), ", "))
				continue
			}
			r.checkType(t, where+"."+name, f.Type, ps)
		}
		for _, q := range required {
			if _, ok := fields[q]; !ok {
				t.Errorf("%s: the reference requires property %q; %s has no such field", where, q, gt)
			}
		}
	case reflect.Slice:
		if gt.Elem().Kind() == reflect.Uint8 {
			return
		}
		if !want("array") {
			return
		}
		if items, ok := r.variant(s, "array")["items"].(map[string]any); ok {
			r.checkType(t, where+"[]", gt.Elem(), items)
		}
	case reflect.Map:
		if !want("object") {
			return
		}
		if ap, ok := r.variant(s, "object")["additionalProperties"].(map[string]any); ok {
			r.checkType(t, where+"{}", gt.Elem(), ap)
		}
	case reflect.String:
		want("string")
	case reflect.Bool:
		want("boolean")
	case reflect.Int, reflect.Int64, reflect.Int32:
		want("integer")
	case reflect.Float64, reflect.Float32:
		if !slices.Contains(types, "integer") {
			want("number")
		}
	}
}

// jsonFields are a struct's fields by their tag name (embedded structs flattened).
func jsonFields(gt reflect.Type, tag string) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := range gt.NumField() {
		f := gt.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			for k, v := range jsonFields(f.Type, tag) {
				out[k] = v
			}
			continue
		}
		if name := fieldName(f, tag); name != "" && f.IsExported() {
			out[name] = f
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// params are an operation's parameters in one place (query or path) by name, with
// whether each is required.
func (r *reference) params(o refOp, in string) map[string]bool {
	out := map[string]bool{}
	for _, p := range asList(o.op["parameters"]) {
		pm := r.resolve(p.(map[string]any))
		if pm["in"] == in {
			req, _ := pm["required"].(bool)
			out[pm["name"].(string)] = req
		}
	}
	return out
}

// bodySchema is the operation's request body schema of a content type.
func (r *reference) bodySchema(o refOp, ctype string) map[string]any {
	rb, _ := o.op["requestBody"].(map[string]any)
	content, _ := r.resolve(rb)["content"].(map[string]any)
	c, _ := content[ctype].(map[string]any)
	s, _ := c["schema"].(map[string]any)
	return s
}

// responseSchema is the JSON schema of the operation's first 2xx answer.
func (r *reference) responseSchema(o refOp) map[string]any {
	resps, _ := o.op["responses"].(map[string]any)
	for _, code := range sortedKeys(resps) {
		if !strings.HasPrefix(code, "2") {
			continue
		}
		content, _ := r.resolve(resps[code].(map[string]any))["content"].(map[string]any)
		if c, ok := content["application/json"].(map[string]any); ok {
			s, _ := c["schema"].(map[string]any)
			return s
		}
	}
	return nil
}

func TestOperationsCoverTheReference(t *testing.T) {
	ref := loadReference(t)
	seen := map[string]bool{}
	ct := reflect.TypeOf(&Client{})
	for _, o := range Operations() {
		if seen[o.ID] {
			t.Errorf("%s is listed twice", o.ID)
		}
		seen[o.ID] = true
		d, ok := ref.ops[o.ID]
		if !ok {
			t.Errorf("%s is not an operation of the reference", o.ID)
			continue
		}
		if d.method != o.Method || d.path != o.Path {
			t.Errorf("%s: listed as %s %s, the reference has %s %s", o.ID, o.Method, o.Path, d.method, d.path)
		}
		if _, ok := ct.MethodByName(o.GoMethod); !ok {
			t.Errorf("%s: Client has no method %s", o.ID, o.GoMethod)
		}
	}
	for id, d := range ref.ops {
		if !seen[id] && id != "getDocs" {
			t.Errorf("the reference's %s (%s %s) has no method", id, d.method, d.path)
		}
	}
	if len(seen) != len(ref.ops)-1 {
		t.Errorf("%d operations listed, the reference has %d besides getDocs", len(seen), len(ref.ops)-1)
	}
}

// recorded is one request the recording server saw.
type recorded struct {
	method, path string
	query        map[string][]string
	ctype        string
	body         []byte
}

// fill makes a value of type gt with every field set: strings "x", numbers 1, true,
// one item per slice and map, a small CSV for a reader.
func fill(gt reflect.Type) reflect.Value {
	switch {
	case gt == reflect.TypeFor[context.Context]():
		return reflect.ValueOf(context.Background())
	case gt == reflect.TypeFor[io.Reader]():
		return reflect.ValueOf(io.Reader(strings.NewReader("name,domain\nAcme,acme.test\n")))
	}
	v := reflect.New(gt).Elem()
	switch gt.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(1)
	case reflect.Float64:
		v.SetFloat(1)
	case reflect.Pointer:
		v.Set(fill(gt.Elem()).Addr())
	case reflect.Interface:
		v.Set(reflect.ValueOf("x"))
	case reflect.Slice:
		v.Set(reflect.Append(v, fill(gt.Elem())))
	case reflect.Map:
		v.Set(reflect.MakeMap(gt))
		v.SetMapIndex(fill(gt.Key()), fill(gt.Elem()))
	case reflect.Struct:
		for i := range gt.NumField() {
			if gt.Field(i).IsExported() {
				v.Field(i).Set(fill(gt.Field(i).Type))
			}
		}
	}
	return v
}

// TestMethodsSendTheirOperation calls every method with every argument field set
// against a server that records the request, and checks the request against the
// reference: the method, the path template, and that every query parameter, JSON
// property and form field sent is one the operation documents, its required ones
// among them.
func TestMethodsSendTheirOperation(t *testing.T) {
	ref := loadReference(t)
	var mu sync.Mutex
	var got []recorded
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, recorded{r.Method, r.URL.EscapedPath(), r.URL.Query(), r.Header.Get("Content-Type"), body})
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "{}")
	}))
	defer srv.Close()
	c, err := New(Config{BaseURL: srv.URL, APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	cv := reflect.ValueOf(c)
	for _, o := range Operations() {
		t.Run(o.ID, func(t *testing.T) {
			m := cv.MethodByName(o.GoMethod)
			if !m.IsValid() {
				t.Fatalf("no method %s", o.GoMethod)
			}
			args := make([]reflect.Value, m.Type().NumIn())
			for i := range args {
				args[i] = fill(m.Type().In(i))
			}
			mu.Lock()
			got = nil
			mu.Unlock()
			m.Call(args) // the answer ({}) need not decode: the request is what is checked
			mu.Lock()
			reqs := got
			mu.Unlock()
			if len(reqs) != 1 {
				t.Fatalf("%s sent %d requests, want 1", o.GoMethod, len(reqs))
			}
			rq := reqs[0]
			d := ref.ops[o.ID]
			pathRE := regexp.MustCompile("^" + regexp.MustCompile(`\\\{[^}]+\\\}`).ReplaceAllString(regexp.QuoteMeta(d.path), `[^/]+`) + "$")
			if rq.method != d.method || !pathRE.MatchString(rq.path) {
				t.Fatalf("%s sent %s %s; the reference's %s is %s %s", o.GoMethod, rq.method, rq.path, o.ID, d.method, d.path)
			}
			checkNames(t, "query parameter", sortedKeys(rq.query), ref.params(d, "query"))
			mt, mparams, _ := mime.ParseMediaType(rq.ctype)
			switch mt {
			case "":
				if s := ref.bodySchema(d, "application/json"); s != nil && len(asList(ref.resolve(s)["required"])) > 0 {
					t.Errorf("%s sent no body; the reference requires one", o.GoMethod)
				}
			case "application/json":
				s := ref.bodySchema(d, mt)
				if s == nil {
					t.Fatalf("%s sent a JSON body; the reference has none", o.GoMethod)
				}
				var body map[string]any
				if err := json.Unmarshal(rq.body, &body); err != nil {
					t.Fatalf("body %s: %v", rq.body, err)
				}
				props, required := ref.objectShape(s)
				checkNames(t, "JSON property", sortedKeys(body), shapeNames(props, required))
			case "multipart/form-data":
				s := ref.bodySchema(d, mt)
				if s == nil {
					t.Fatalf("%s sent a form; the reference has none", o.GoMethod)
				}
				mr := multipart.NewReader(strings.NewReader(string(rq.body)), mparams["boundary"])
				var names []string
				for {
					p, err := mr.NextPart()
					if err != nil {
						break
					}
					names = append(names, p.FormName())
				}
				props, required := ref.objectShape(s)
				checkNames(t, "form field", names, shapeNames(props, required))
			default:
				t.Errorf("%s sent a %s body", o.GoMethod, mt)
			}
		})
	}
}

func shapeNames(props map[string]map[string]any, required []string) map[string]bool {
	out := map[string]bool{}
	for k := range props {
		out[k] = slices.Contains(required, k)
	}
	return out
}

// checkNames: every sent name is documented; every required one was sent.
func checkNames(t *testing.T, what string, sent []string, documented map[string]bool) {
	t.Helper()
	for _, n := range sent {
		if _, ok := documented[n]; !ok {
			t.Errorf("sent %s %q, which the reference does not document (it has %s)", what, n, strings.Join(sortedKeys(documented), ", "))
		}
	}
	for n, req := range documented {
		if req && !slices.Contains(sent, n) {
			t.Errorf("the reference requires %s %q; it was not sent", what, n)
		}
	}
}

// TestTypesMatchTheReference walks every method's request and answer types against
// the operation's schemas: the answer type (the method's first result) against the
// 2xx JSON answer, a struct argument against the JSON body, the form, or the query
// parameters.
func TestTypesMatchTheReference(t *testing.T) {
	ref := loadReference(t)
	ct := reflect.TypeOf(&Client{})
	for _, o := range Operations() {
		t.Run(o.ID, func(t *testing.T) {
			m, ok := ct.MethodByName(o.GoMethod)
			if !ok {
				t.Fatalf("no method %s", o.GoMethod)
			}
			d := ref.ops[o.ID]
			out := m.Type.Out(0)
			if out != reflect.TypeFor[[]byte]() {
				s := ref.responseSchema(d)
				if s == nil {
					t.Fatalf("the reference has no JSON answer for %s", o.ID)
				}
				ref.checkType(t, o.GoMethod+" answer "+out.String(), out, s)
			}
			for i := 1; i < m.Type.NumIn(); i++ { // 0 is the receiver
				in := m.Type.In(i)
				if in.Kind() != reflect.Struct {
					continue
				}
				where := o.GoMethod + " argument " + in.String()
				switch {
				case len(jsonFields(in, "form")) > 0:
					s := ref.bodySchema(d, "multipart/form-data")
					props, required := ref.objectShape(s)
					checkNames(t, "form field of "+where, sortedKeys(jsonFields(in, "form")), shapeNames(props, required))
				case ref.bodySchema(d, "application/json") != nil:
					ref.checkType(t, where, in, ref.bodySchema(d, "application/json"))
				default:
					checkNames(t, "query parameter of "+where, sortedKeys(jsonFields(in, "json")), ref.params(d, "query"))
				}
			}
		})
	}
}
