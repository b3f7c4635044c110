// Package awsiam finds the IAM actions a Go package's source calls, so that what an
// adapter says it calls, and what template.yaml grants the functions linking it, can be
// checked against the code rather than remembered.
//
// Two kinds of call are found in a package's non-test files:
//   - AWS SDK for Go v2 operations: a method call X.Op(ctx, input, ...) where Op is an
//     operation of an imported github.com/aws/aws-sdk-go-v2/service/<svc> package, and
//     the package's waiter and paginator constructors (dynamodb.NewTableExistsWaiter
//     calls DescribeTable). The SDK keeps each operation, its waiters and paginators in
//     api_op_<Op>.go, which is how operations are recognised.
//   - OpenSearch requests: an opensearchapi.<Name>Req value, whose GetRequest builds the
//     HTTP request; its method gives the es:ESHttp<Method> action that Amazon OpenSearch
//     Service checks.
//
// Adapters list what they call in IAMActions (and SetupActions for calls deployed
// functions never make); their tests call Check. It reads the SDK's and opensearch-go's
// sources through `go list`, so it is for tests only.
package awsiam

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

const (
	sdkServicePrefix = "github.com/aws/aws-sdk-go-v2/service/"
	openSearchAPI    = "github.com/opensearch-project/opensearch-go/v4/opensearchapi"
)

// servicePrefix is the IAM service prefix of each SDK service package Firmo imports.
var servicePrefix = map[string]string{
	"dynamodb":       "dynamodb",
	"sqs":            "sqs",
	"sfn":            "states",
	"kms":            "kms",
	"secretsmanager": "secretsmanager",
}

// actionOf names operations whose IAM action is not prefix:Operation: SQS authorizes
// its batch APIs with the single-message actions (SQS API reference, "Amazon SQS batch
// actions").
var actionOf = map[string]string{
	"sqs:SendMessageBatch":             "sqs:SendMessage",
	"sqs:DeleteMessageBatch":           "sqs:DeleteMessage",
	"sqs:ChangeMessageVisibilityBatch": "sqs:ChangeMessageVisibility",
}

// Calls maps each IAM action a package calls to where (file:line), sorted.
type Calls map[string][]string

// Actions lists the actions, sorted.
func (c Calls) Actions() []string {
	out := make([]string, 0, len(c))
	for a := range c {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// SourceCalls returns the IAM actions the non-test Go files in dir call.
func SourceCalls(dir string) (Calls, error) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	calls := Calls{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		if err := fileCalls(fset, f, dir, calls); err != nil {
			return nil, err
		}
	}
	for _, where := range calls {
		sort.Strings(where)
	}
	return calls, nil
}

// fileCalls adds the calls of one file.
func fileCalls(fset *token.FileSet, f *ast.File, dir string, calls Calls) error {
	services := map[string]*service{} // import alias -> SDK service
	var osAlias string
	var osReqs map[string][]string
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		alias := filepath.Base(path)
		if imp.Name != nil {
			alias = imp.Name.Name
		}
		switch svc, ok := strings.CutPrefix(path, sdkServicePrefix); {
		case ok && !strings.Contains(svc, "/"):
			s, err := loadService(dir, svc)
			if err != nil {
				return err
			}
			services[alias] = s
		case path == openSearchAPI:
			reqs, err := loadOpenSearchRequests(dir)
			if err != nil {
				return err
			}
			osAlias, osReqs = alias, reqs
		}
	}
	if len(services) == 0 && osAlias == "" {
		return nil
	}
	var errs []error
	add := func(action string, pos token.Pos) {
		if a, ok := actionOf[action]; ok {
			action = a
		}
		p := fset.Position(pos)
		calls[action] = append(calls[action], fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line))
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CompositeLit:
			if sel, ok := n.Type.(*ast.SelectorExpr); ok && isIdent(sel.X, osAlias) && osAlias != "" {
				methods, ok := osReqs[sel.Sel.Name]
				if !ok && strings.HasSuffix(sel.Sel.Name, "Req") {
					errs = append(errs, fmt.Errorf("%s: opensearchapi.%s: no GetRequest with a literal HTTP method found", fset.Position(n.Pos()), sel.Sel.Name))
				}
				for _, m := range methods {
					add("es:ESHttp"+m, n.Pos())
				}
			}
		case *ast.CallExpr:
			sel, ok := n.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok {
				if s, ok := services[id.Name]; ok { // a package function: a waiter or paginator
					if op, ok := s.constructors[sel.Sel.Name]; ok {
						add(s.prefix+":"+op, n.Pos())
					}
					return true
				}
			}
			if len(n.Args) < 2 { // SDK operations take (ctx, input, optFns...)
				return true
			}
			s, err := operationService(services, sel.Sel.Name, n.Args[1])
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", fset.Position(n.Pos()), err))
			} else if s != nil {
				add(s.prefix+":"+sel.Sel.Name, n.Pos())
			}
		}
		return true
	})
	return errors.Join(errs...)
}

// operationService is the imported SDK service whose operation a method call named
// name is: the one whose <name>Input the call passes, else the only imported service
// with that operation; nil when none has it.
func operationService(services map[string]*service, name string, input ast.Expr) (*service, error) {
	if u, ok := input.(*ast.UnaryExpr); ok {
		input = u.X
	}
	if c, ok := input.(*ast.CompositeLit); ok {
		if sel, ok := c.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == name+"Input" {
			if id, ok := sel.X.(*ast.Ident); ok && services[id.Name] != nil {
				return services[id.Name], nil
			}
		}
	}
	var found []*service
	for _, s := range services {
		if s.operations[name] {
			found = append(found, s)
		}
	}
	switch len(found) {
	case 0:
		return nil, nil
	case 1:
		return found[0], nil
	}
	return nil, fmt.Errorf("call of %s: several imported AWS services have that operation; pass its input as a &<service>.%sInput{...} literal", name, name)
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// service is one SDK service package: its operations and the waiter and paginator
// constructors that call them.
type service struct {
	prefix       string
	operations   map[string]bool
	constructors map[string]string // NewTableExistsWaiter -> DescribeTable
}

var (
	cacheMu  sync.Mutex
	services = map[string]*service{}
	osReqs   map[string][]string
)

func loadService(dir, svc string) (*service, error) {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if s, ok := services[svc]; ok {
		return s, nil
	}
	prefix, ok := servicePrefix[svc]
	if !ok {
		return nil, fmt.Errorf("awsiam: no IAM service prefix known for SDK service %q; add it to servicePrefix", svc)
	}
	src, err := packageDir(dir, sdkServicePrefix+svc)
	if err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(src, "api_op_*.go"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("awsiam: no api_op_*.go files in %s: %v", src, err)
	}
	s := &service{prefix: prefix, operations: map[string]bool{}, constructors: map[string]string{}}
	fset := token.NewFileSet()
	for _, name := range files {
		op := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(name), "api_op_"), ".go")
		s.operations[op] = true
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "New") && fn.Name.IsExported() {
				s.constructors[fn.Name.Name] = op
			}
		}
	}
	services[svc] = s
	return s, nil
}

// loadOpenSearchRequests maps each opensearchapi request type to the HTTP methods its
// GetRequest may use (the method literals in its body: some choose one by their fields).
func loadOpenSearchRequests(dir string) (map[string][]string, error) {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if osReqs != nil {
		return osReqs, nil
	}
	src, err := packageDir(dir, openSearchAPI)
	if err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(src, "*.go"))
	if err != nil {
		return nil, err
	}
	methods := map[string]string{"GET": "Get", "HEAD": "Head", "POST": "Post", "PUT": "Put", "DELETE": "Delete", "PATCH": "Patch"}
	out := map[string][]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Name.Name != "GetRequest" || fn.Recv == nil || len(fn.Recv.List) != 1 || fn.Body == nil {
				continue
			}
			recv, ok := fn.Recv.List[0].Type.(*ast.Ident)
			if !ok {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					v, _ := strconv.Unquote(lit.Value)
					if m, ok := methods[v]; ok && !slices.Contains(out[recv.Name], m) {
						out[recv.Name] = append(out[recv.Name], m)
					}
				}
				return true
			})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("awsiam: no GetRequest methods found in %s", src)
	}
	osReqs = out
	return out, nil
}

// packageDir is the source directory of an import path as the module in dir resolves it.
func packageDir(dir, importPath string) (string, error) {
	cmd := exec.Command(goBinary(), "list", "-f", "{{.Dir}}", importPath)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			err = fmt.Errorf("%w: %s", err, ee.Stderr)
		}
		return "", fmt.Errorf("awsiam: go list %s: %w", importPath, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// goBinary is the go command on PATH, else the one of the toolchain go test runs under.
func goBinary() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	return filepath.Join(os.Getenv("GOROOT"), "bin", "go")
}

// Check fails t unless the package in dir calls exactly the actions listed: deployed
// (the IAMActions a function linking the package needs) and setup (calls only tests or
// local stand-ins make, such as creating a table; no function is granted them).
func Check(t testing.TB, dir string, deployed, setup []string) {
	t.Helper()
	calls, err := SourceCalls(dir)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]string{}
	for _, a := range deployed {
		listed[a] = "IAMActions"
	}
	for _, a := range setup {
		if listed[a] != "" {
			t.Errorf("%s is listed both in IAMActions and SetupActions", a)
		}
		listed[a] = "SetupActions"
	}
	for _, a := range calls.Actions() {
		if listed[a] == "" {
			t.Errorf("the source calls %s (%s), which neither IAMActions nor SetupActions lists: add it (and to template.yaml's grants if deployed functions call it)", a, strings.Join(calls[a], ", "))
		}
	}
	for a, list := range listed {
		if len(calls[a]) == 0 {
			t.Errorf("%s lists %s, which the source never calls: remove it", list, a)
		}
	}
}
