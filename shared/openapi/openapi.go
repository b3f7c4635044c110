// Package openapi holds Firmo's OpenAPI 3.1 document and renders the browsable
// reference served at /docs. A test in shared/app keeps the document's operations and
// the router's routes the same set.
//
// The document is assembled from base.json (info, security, shared components) and one
// fragment per endpoint family in paths/*.json, each of the form
// {"tags": [...], "paths": {...}, "components": {"schemas": {...}, ...}}, so families
// are documented beside each other without editing one shared file.
package openapi

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"path"
	"sort"
	"strings"
)

//go:embed base.json paths/*.json
var files embed.FS

// Document assembles the OpenAPI document from its fragments. Two fragments defining
// the same operation or the same component differently are an error.
func Document() ([]byte, error) {
	var base map[string]any
	raw, err := files.ReadFile("base.json")
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(raw, &base); err != nil {
		return nil, fmt.Errorf("base.json: %w", err)
	}
	entries, err := files.ReadDir("paths")
	if err != nil {
		return nil, err
	}
	paths := asMap(base, "paths")
	components := asMap(base, "components")
	for _, e := range entries {
		name := path.Join("paths", e.Name())
		raw, err := files.ReadFile(name)
		if err != nil {
			return nil, err
		}
		var frag map[string]any
		if err := json.Unmarshal(raw, &frag); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for p, ops := range asMap(frag, "paths") {
			dst := asMap(paths, p)
			for method, op := range ops.(map[string]any) {
				if _, dup := dst[method]; dup {
					return nil, fmt.Errorf("%s: %s %s is defined twice", name, strings.ToUpper(method), p)
				}
				dst[method] = op
			}
		}
		for kind, defs := range asMap(frag, "components") {
			dst := asMap(components, kind)
			for k, v := range defs.(map[string]any) {
				if old, dup := dst[k]; dup && !sameJSON(old, v) {
					return nil, fmt.Errorf("%s: components.%s.%s differs from another fragment's", name, kind, k)
				}
				dst[k] = v
			}
		}
		if err := mergeTags(base, frag, name); err != nil {
			return nil, err
		}
	}
	if err := addOperationIDs(paths); err != nil {
		return nil, err
	}
	return json.MarshalIndent(base, "", "  ")
}

// mergeTags adds a fragment's tags to the document's; a tag two fragments declare
// (families spread over several files) is kept once, and declaring it differently is
// an error. Validators reject a document whose tags repeat a name.
func mergeTags(base, frag map[string]any, name string) error {
	tags, _ := frag["tags"].([]any)
	existing, _ := base["tags"].([]any)
	for _, t := range tags {
		dup := false
		for _, e := range existing {
			if tagName(e) == tagName(t) {
				if !sameJSON(e, t) {
					return fmt.Errorf("%s: tag %q differs from another fragment's", name, tagName(t))
				}
				dup = true
			}
		}
		if !dup {
			existing = append(existing, t)
		}
	}
	if existing != nil {
		base["tags"] = existing
	}
	return nil
}

func tagName(t any) string {
	m, _ := t.(map[string]any)
	s, _ := m["name"].(string)
	return s
}

// addOperationIDs gives every operation without one an operationId made from its method
// and path ("GET /v1/gen/status/{task_id}" -> "getGenStatusByTaskId"), so client
// generators get stable names; ids must be unique.
func addOperationIDs(paths map[string]any) error {
	seen := map[string]string{}
	for p, ops := range paths {
		for method, op := range ops.(map[string]any) {
			o, ok := op.(map[string]any)
			if !ok {
				continue
			}
			id, _ := o["operationId"].(string)
			if id == "" {
				id = operationID(method, p)
				o["operationId"] = id
			}
			if other, dup := seen[id]; dup {
				return fmt.Errorf("operationId %q of %s %s is also %s's", id, strings.ToUpper(method), p, other)
			}
			seen[id] = strings.ToUpper(method) + " " + p
		}
	}
	return nil
}

func operationID(method, p string) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(method))
	for _, seg := range strings.Split(strings.Trim(p, "/"), "/") {
		if seg == "v1" || seg == "" {
			continue
		}
		if strings.HasPrefix(seg, "{") {
			b.WriteString("By")
			seg = strings.Trim(seg, "{}")
		}
		for _, word := range strings.FieldsFunc(seg, func(r rune) bool { return r == '_' || r == '-' || r == '.' }) {
			b.WriteString(strings.ToUpper(word[:1]) + word[1:])
		}
	}
	return b.String()
}

func asMap(m map[string]any, key string) map[string]any {
	v, ok := m[key].(map[string]any)
	if !ok {
		v = map[string]any{}
		m[key] = v
	}
	return v
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// Operation is one method on one path of the document.
type Operation struct {
	Method      string
	Path        string
	Summary     string
	Description string
	Tags        []string
	Public      bool
	Params      []Param
	Responses   []string
}

// Param is a parameter of an operation.
type Param struct {
	Name, In, Description, Type string
	Required                    bool
}

type doc struct {
	Info struct {
		Title, Version, Description string
	} `json:"info"`
	Paths map[string]map[string]struct {
		Summary     string            `json:"summary"`
		Description string            `json:"description"`
		Tags        []string          `json:"tags"`
		Security    *[]map[string]any `json:"security"`
		Parameters  []struct {
			Name        string `json:"name"`
			In          string `json:"in"`
			Description string `json:"description"`
			Required    bool   `json:"required"`
			Schema      struct {
				Type any `json:"type"`
			} `json:"schema"`
		} `json:"parameters"`
		Responses map[string]json.RawMessage `json:"responses"`
	} `json:"paths"`
}

// Operations parses the document into its operations, sorted by path and method.
func Operations() ([]Operation, error) {
	document, err := Document()
	if err != nil {
		return nil, err
	}
	var d doc
	if err := json.Unmarshal(document, &d); err != nil {
		return nil, fmt.Errorf("parse openapi.json: %w", err)
	}
	var ops []Operation
	for path, methods := range d.Paths {
		for method, op := range methods {
			o := Operation{Method: strings.ToUpper(method), Path: path, Summary: op.Summary, Description: op.Description, Tags: op.Tags,
				Public: op.Security != nil && len(*op.Security) == 0}
			for _, p := range op.Parameters {
				o.Params = append(o.Params, Param{Name: p.Name, In: p.In, Description: p.Description, Required: p.Required, Type: fmt.Sprint(p.Schema.Type)})
			}
			for code := range op.Responses {
				o.Responses = append(o.Responses, code)
			}
			sort.Strings(o.Responses)
			ops = append(ops, o)
		}
	}
	sort.Slice(ops, func(i, j int) bool {
		if ops[i].Path != ops[j].Path {
			return ops[i].Path < ops[j].Path
		}
		return ops[i].Method < ops[j].Method
	})
	return ops, nil
}

var page = template.Must(template.New("docs").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}} reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d2330;line-height:1.45}
h1{margin-bottom:0} .v{color:#667} code{background:#f1f3f7;padding:0 .25rem;border-radius:3px}
.op{border:1px solid #d8dce6;border-radius:6px;margin:1rem 0;padding:.6rem 1rem}
.m{display:inline-block;min-width:4.5rem;font-weight:700;font-family:monospace}
.GET{color:#1a7f37}.POST{color:#0550ae}.PUT{color:#9a6700}.PATCH{color:#8250df}.DELETE{color:#cf222e}
.p{font-family:monospace;font-size:1.05rem} .pub{font-size:.8rem;color:#667;margin-left:.5rem}
table{border-collapse:collapse;margin:.4rem 0} td,th{border:1px solid #e3e6ee;padding:.2rem .5rem;text-align:left;font-size:.9rem}
nav a{margin-right:.8rem}
</style></head><body>
<h1>{{.Title}}</h1><p class="v">version {{.Version}} · <a href="/v1/openapi.json">openapi.json</a></p>
<p>{{.Description}}</p>
<nav>{{range .Tags}}<a href="#{{.}}">{{.}}</a>{{end}}</nav>
{{range .Groups}}<h2 id="{{.Tag}}">{{.Tag}}</h2>
{{range .Ops}}<div class="op" id="{{.Method}}{{.Path}}"><span class="m {{.Method}}">{{.Method}}</span><span class="p">{{.Path}}</span>{{if .Public}}<span class="pub">no key needed</span>{{end}}
<div><strong>{{.Summary}}</strong></div>{{if .Description}}<p>{{.Description}}</p>{{end}}
{{if .Params}}<table><tr><th>parameter</th><th>in</th><th>type</th><th>required</th><th>description</th></tr>
{{range .Params}}<tr><td><code>{{.Name}}</code></td><td>{{.In}}</td><td>{{.Type}}</td><td>{{if .Required}}yes{{end}}</td><td>{{.Description}}</td></tr>{{end}}</table>{{end}}
<div>Responses: {{range .Responses}}<code>{{.}}</code> {{end}}</div></div>{{end}}{{end}}
</body></html>`))

// HTML renders the browsable reference: plain HTML from the document, no scripts.
func HTML() ([]byte, error) {
	ops, err := Operations()
	if err != nil {
		return nil, err
	}
	document, err := Document()
	if err != nil {
		return nil, err
	}
	var d doc
	json.Unmarshal(document, &d)
	type group struct {
		Tag string
		Ops []Operation
	}
	var groups []group
	index := map[string]int{}
	for _, op := range ops {
		tag := "other"
		if len(op.Tags) > 0 {
			tag = op.Tags[0]
		}
		i, ok := index[tag]
		if !ok {
			i = len(groups)
			index[tag] = i
			groups = append(groups, group{Tag: tag})
		}
		groups[i].Ops = append(groups[i].Ops, op)
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i].Tag < groups[j].Tag })
	var tags []string
	for _, g := range groups {
		tags = append(tags, g.Tag)
	}
	var buf bytes.Buffer
	err = page.Execute(&buf, map[string]any{"Title": d.Info.Title, "Version": d.Info.Version, "Description": d.Info.Description, "Groups": groups, "Tags": tags})
	return buf.Bytes(), err
}
