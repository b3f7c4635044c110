package allapp_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"gopkg.in/yaml.v3"
)

// The AWS composition through its real bootstraps: every function runs as its Lambda
// binary under the test kit's runtime-API emulator, with the environment template.yaml
// gives it (intrinsics resolved against the stand-ins), plus the stand-ins' endpoints.

// stackRefs resolves what template.yaml's intrinsics name: parameters (their template
// default unless set here), resources (Ref), attributes (GetAtt "Resource.Attr").
type stackRefs map[string]string

// functionEnv is the environment SAM gives a function: Globals' variables overlaid by
// the function's own, each value resolved. A value the stand-ins cannot give (an
// unknown Ref) fails the test, naming it.
func functionEnv(t *testing.T, tpl *template, id string, refs stackRefs) map[string]string {
	t.Helper()
	fn := function{id: id, props: mapGet(mapGet(tpl.resources, id), "Properties")}
	if fn.props == nil {
		t.Fatalf("template.yaml has no function %s", id)
	}
	out := map[string]string{}
	for _, vars := range []*yaml.Node{mapGet(mapGet(tpl.globals, "Environment"), "Variables"), mapGet(mapGet(fn.props, "Environment"), "Variables")} {
		for name, v := range pairs(vars) {
			out[name] = tpl.resolve(t, v, refs)
		}
	}
	return out
}

// param is a template parameter's value: the one given in refs, else its default.
func (tpl *template) param(name string, refs stackRefs) (string, bool) {
	if v, ok := refs[name]; ok {
		return v, true
	}
	p := mapGet(mapGet(tpl.root, "Parameters"), name)
	if p == nil {
		return "", false
	}
	return scalar(mapGet(p, "Default")), true
}

// resolve evaluates the intrinsics a template value uses: !Ref, !GetAtt, !Sub, !If,
// !Join and conditions (!Equals, !Not, !And, !Or, !Condition).
func (tpl *template) resolve(t *testing.T, n *yaml.Node, refs stackRefs) string {
	t.Helper()
	switch n.Tag {
	case "!Ref":
		if v, ok := tpl.param(n.Value, refs); ok {
			return v
		}
		t.Fatalf("template.yaml: !Ref %s has no stand-in value", n.Value)
	case "!GetAtt":
		name := n.Value
		if n.Kind == yaml.SequenceNode {
			name = scalar(n.Content[0]) + "." + scalar(n.Content[1])
		}
		if v, ok := refs[name]; ok {
			return v
		}
		t.Fatalf("template.yaml: !GetAtt %s has no stand-in value", name)
	case "!Sub":
		return regexp.MustCompile(`\$\{([^}]+)\}`).ReplaceAllStringFunc(n.Value, func(m string) string {
			name := m[2 : len(m)-1]
			if strings.Contains(name, ".") {
				return tpl.resolve(t, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!GetAtt", Value: name}, refs)
			}
			return tpl.resolve(t, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!Ref", Value: name}, refs)
		})
	case "!If":
		if tpl.condition(t, mapGet(mapGet(tpl.root, "Conditions"), scalar(n.Content[0])), refs) {
			return tpl.resolve(t, n.Content[1], refs)
		}
		return tpl.resolve(t, n.Content[2], refs)
	case "!Join":
		var parts []string
		for _, p := range n.Content[1].Content {
			parts = append(parts, tpl.resolve(t, p, refs))
		}
		return strings.Join(parts, scalar(n.Content[0]))
	}
	if n.Kind != yaml.ScalarNode {
		t.Fatalf("template.yaml: cannot resolve %s %v at line %d", n.Tag, n.Kind, n.Line)
	}
	return n.Value
}

func (tpl *template) condition(t *testing.T, n *yaml.Node, refs stackRefs) bool {
	t.Helper()
	if n == nil {
		t.Fatal("template.yaml: !If names a condition that does not exist")
	}
	switch n.Tag {
	case "!Equals":
		return tpl.resolve(t, n.Content[0], refs) == tpl.resolve(t, n.Content[1], refs)
	case "!Not":
		return !tpl.condition(t, n.Content[0], refs)
	case "!And", "!Or":
		all, any := true, false
		for _, c := range n.Content {
			v := tpl.condition(t, c, refs)
			all, any = all && v, any || v
		}
		if n.Tag == "!And" {
			return all
		}
		return any
	case "!Condition":
		return tpl.condition(t, mapGet(mapGet(tpl.root, "Conditions"), n.Value), refs)
	}
	t.Fatalf("template.yaml: condition %s at line %d is not understood", n.Tag, n.Line)
	return false
}

// apiRequest is one API call as API Gateway (HTTP API, payload 2.0) hands it to a
// function.
type apiRequest struct {
	method, path, key string
	body              []byte
	contentType       string
}

func (r apiRequest) event() events.APIGatewayV2HTTPRequest {
	path, query, _ := strings.Cut(r.path, "?")
	ev := events.APIGatewayV2HTTPRequest{
		Version: "2.0", RouteKey: r.method + " " + path, RawPath: path, RawQueryString: query,
		Headers: map[string]string{"x-service-key": r.key, "user-agent": "firmo-e2e"},
		RequestContext: events.APIGatewayV2HTTPRequestContext{
			Stage: "$default", RequestID: fmt.Sprintf("e2e-%d", time.Now().UnixNano()), TimeEpoch: time.Now().UnixMilli(),
			HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: r.method, Path: path, Protocol: "HTTP/1.1", SourceIP: "127.0.0.1", UserAgent: "firmo-e2e"},
		},
	}
	if query != "" {
		v, _ := url.ParseQuery(query)
		ev.QueryStringParameters = map[string]string{}
		for k := range v {
			ev.QueryStringParameters[k] = v.Get(k)
		}
	}
	if r.body != nil {
		ev.Headers["content-type"] = r.contentType
		// API Gateway base64-encodes bodies that are not text; doing it for every body
		// exercises the decoding.
		ev.Body, ev.IsBase64Encoded = base64.StdEncoding.EncodeToString(r.body), true
	}
	return ev
}

// jsonRequest is a JSON body request.
func jsonRequest(method, path, key, body string) apiRequest {
	r := apiRequest{method: method, path: path, key: key}
	if body != "" {
		r.body, r.contentType = []byte(body), "application/json"
	}
	return r
}

// multipartRequest is a file upload with form fields.
func multipartRequest(t *testing.T, path, key, file string, fields map[string]string) apiRequest {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		w.WriteField(k, v)
	}
	part, err := w.CreateFormFile("file", "names.csv")
	if err != nil {
		t.Fatal(err)
	}
	part.Write([]byte(file))
	w.Close()
	return apiRequest{method: "POST", path: path, key: key, body: buf.Bytes(), contentType: w.FormDataContentType()}
}

// invoker calls a function of the emulator synchronously.
type invoker interface {
	Invoke(ctx context.Context, name string, payload []byte) ([]byte, error)
}

// callFunction invokes a function with the request and decodes its JSON answer.
func callFunction(t *testing.T, l invoker, fn string, r apiRequest) (int, map[string]any) {
	t.Helper()
	payload, err := json.Marshal(r.event())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	raw, err := l.Invoke(ctx, fn, payload)
	if err != nil {
		t.Fatalf("%s %s on %s: %v", r.method, r.path, fn, err)
	}
	var resp events.APIGatewayV2HTTPResponse
	if err := json.Unmarshal(raw, &resp); err != nil {
		t.Fatalf("%s %s on %s: not an HTTP API response: %v\n%s", r.method, r.path, fn, err, raw)
	}
	body := []byte(resp.Body)
	if resp.IsBase64Encoded {
		if body, err = base64.StdEncoding.DecodeString(resp.Body); err != nil {
			t.Fatal(err)
		}
	}
	var out map[string]any
	if len(body) > 0 {
		if err := json.Unmarshal(body, &out); err != nil {
			t.Fatalf("%s %s on %s: %d, body not JSON: %s", r.method, r.path, fn, resp.StatusCode, body)
		}
	}
	return resp.StatusCode, out
}

// pollFunction calls until done says the answer is final, or fails after timeout.
func pollFunction(t *testing.T, l invoker, fn string, r apiRequest, timeout time.Duration, done func(map[string]any) bool) map[string]any {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		code, body := callFunction(t, l, fn, r)
		if code != 200 {
			t.Fatalf("%s %s on %s = %d %v", r.method, r.path, fn, code, body)
		}
		if done(body) {
			return body
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s %s on %s: not done after %s: %v", r.method, r.path, fn, timeout, body)
		}
		time.Sleep(300 * time.Millisecond)
	}
}
