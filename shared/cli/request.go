package cli

import (
	"context"
	"fmt"
	flag "github.com/spf13/pflag"
	"net/url"
	"os"
	"regexp"
	"strings"

	"github.com/firmoapi/firmo/shared/client"
	"github.com/firmoapi/firmo/shared/openapi"
)

// queryFlag collects --query name=value pairs.
type queryFlag struct{ v url.Values }

func (q *queryFlag) String() string { return q.v.Encode() }
func (q *queryFlag) Type() string   { return "name=value" }
func (q *queryFlag) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("%q is not name=value", s)
	}
	q.v.Add(name, value)
	return nil
}

// apiRequest runs `firmo api request METHOD PATH`: one call of any operation of the API
// reference (the path with its parameters filled in, such as /v1/gen/status/ID), the
// answer printed as sent. A path no operation has is refused with the operations whose
// paths are nearest.
func apiRequest(ctx context.Context, env Env) error {
	fs := flag.NewFlagSet("api request", flag.ContinueOnError)
	fs.SetOutput(env.Stdout) // only the help page (--help) is printed through it
	cf := addClientFlags(fs)
	q := &queryFlag{v: url.Values{}}
	fs.Var(q, "query", "a query parameter as name=value (repeatable)")
	body := fs.String("body", "", "JSON body, or @FILE to read it from a file")
	accept := fs.String("accept", "", "Accept header (default application/json; text/csv where an operation offers CSV)")
	pos, err := parseArgs(fs, env.Args[2:])
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("%w: firmo api request METHOD PATH [--query name=value] [--body JSON|@FILE]", errUsage)
	}
	method, path := strings.ToUpper(pos[0]), pos[1]
	if p, rawQuery, ok := strings.Cut(path, "?"); ok {
		path = p
		extra, err := url.ParseQuery(rawQuery)
		if err != nil {
			return fmt.Errorf("%w: the query of %s: %v", errUsage, pos[1], err)
		}
		for k, vs := range extra {
			for _, v := range vs {
				q.v.Add(k, v)
			}
		}
	}
	if err := knownOperation(method, path); err != nil {
		return err
	}
	call := client.Call{Method: method, Path: path, Query: q.v, Accept: *accept}
	if *body != "" {
		raw := []byte(*body)
		if strings.HasPrefix(*body, "@") {
			if raw, err = os.ReadFile(strings.TrimPrefix(*body, "@")); err != nil {
				return err
			}
		}
		call.Body, call.ContentType = raw, "application/json"
	}
	r, err := newRemote(env, cf)
	if err != nil {
		return err
	}
	resp, err := r.do(ctx, call)
	fmt.Fprintf(env.Stderr, "credits charged: %d\n", r.credits)
	if err != nil {
		return err
	}
	if len(resp.Body) == 0 {
		fmt.Fprintf(env.Stderr, "%d, no body\n", resp.Status)
		return nil
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		return printJSON(env.Stdout, resp.Body, isTerminal(env.Stdout))
	}
	_, err = env.Stdout.Write(resp.Body)
	return err
}

// knownOperation checks that method path is an operation of the API reference (a path
// parameter matches any one segment).
func knownOperation(method, path string) error {
	ops, err := openapi.Operations()
	if err != nil {
		return err
	}
	param := regexp.MustCompile(`\{[^/]+\}`)
	var near []string
	for _, op := range ops {
		// The reference's paths are letters, digits, -, _ and / besides {parameters}.
		pat := regexp.MustCompile("^" + param.ReplaceAllString(op.Path, `[^/]+`) + "$")
		if pat.MatchString(path) {
			if op.Method == method {
				return nil
			}
			near = append(near, op.Method+" "+op.Path)
			continue
		}
		if sharedPrefix(op.Path, path) >= 2 {
			near = append(near, op.Method+" "+op.Path)
		}
	}
	hint := ""
	if len(near) > 0 {
		hint = "; did you mean: " + strings.Join(near[:min(len(near), 6)], ", ")
	}
	return fmt.Errorf("%w: %s %s is not an operation of the API reference (/v1/openapi.json)%s", errUsage, method, path, hint)
}

// sharedPrefix counts the leading path segments a and b share.
func sharedPrefix(a, b string) int {
	as, bs := strings.Split(strings.Trim(a, "/"), "/"), strings.Split(strings.Trim(b, "/"), "/")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	return n
}
