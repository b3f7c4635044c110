package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	flag "github.com/spf13/pflag"
	"io"
	"net"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/firmoapi/firmo/shared/client"
	"github.com/firmoapi/firmo/shared/openapi"
)

// remote is a client of a Firmo server that adds up what its calls were charged
// (X-Credits-Charged), so a command can print its total.
type remote struct {
	c       *client.Client
	credits int64
	program string
}

// clientFlags are the flags every remote command takes: --url and --key override
// FIRMO_URL and FIRMO_API_KEY.
type clientFlags struct {
	url, key, profile *string
}

func addClientFlags(fs *flag.FlagSet) clientFlags {
	return clientFlags{
		url:     fs.String("url", "", "server address (default $FIRMO_URL, else the profile's, else "+client.DefaultBaseURL+")"),
		key:     fs.String("key", "", "API key (default $FIRMO_API_KEY, else the profile's)"),
		profile: fs.String("profile", "", "profile stored by firmo login (default $FIRMO_PROFILE, else default)"),
	}
}

// newRemote is the client of env's FIRMO_URL and FIRMO_API_KEY, overridden by the flags.
func newRemote(env Env, f clientFlags) (*remote, error) {
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	cfg := client.ConfigFromEnv(getenv)
	cfg.UserAgent = "firmo-cli"
	if *f.url != "" {
		cfg.BaseURL = *f.url
	}
	if *f.key != "" {
		cfg.APIKey = *f.key
	}
	// Flags, then the environment, then the profile of firmo login.
	if f.profile != nil {
		explicit := *f.profile != "" || getenv(envProfile) != ""
		if err := applyProfile(&cfg, profileName(*f.profile, getenv), explicit, getenv); err != nil {
			return nil, err
		}
	}
	if cfg.APIKey == "" {
		return nil, fmt.Errorf("%w: no API key: run firmo login, set %s or pass --key", errUsage, client.EnvAPIKey)
	}
	cfg.OnRetry = retryPrinter(env.Stderr)
	c, err := client.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	return &remote{c: c, program: env.program()}, nil
}

// retryPrinter prints each wait between retries, "retrying in N s (reason)", so that a
// Retry-After or a server that is starting is never a silent wait. On a terminal the
// line first clears a progress bar being redrawn.
func retryPrinter(w io.Writer) func(client.Retry) {
	clear := ""
	if isTerminal(w) {
		clear = "\r\033[K"
	}
	return func(rt client.Retry) {
		secs := int64((rt.Wait + time.Second - 1) / time.Second)
		fmt.Fprintf(w, "%sretrying in %d s (%s; %s %s, attempt %d)\n", clear, secs, rt.Reason, rt.Method, rt.Path, rt.Attempt)
	}
}

// connError is a call that reached no server: its message says which address was
// tried and how to fix it, in one line.
type connError struct {
	base, program string
	err           error
}

func (e connError) Error() string {
	reason := "no answer"
	var op *net.OpError
	var dns *net.DNSError
	switch {
	case errors.As(e.err, &dns):
		reason = "unknown host " + dns.Name
	case errors.As(e.err, &op) && op.Err != nil:
		reason = op.Err.Error()
		if strings.Contains(reason, "connection refused") {
			reason = "connection refused"
		}
	}
	return fmt.Sprintf("cannot reach a Firmo server at %s (%s): start one with '%s serve', or set FIRMO_URL (or --url) to a running server's address",
		e.base, reason, e.program)
}
func (e connError) Unwrap() error { return e.err }

// reachError is err as a connError when the call reached no server (a refused
// connection, an unknown host), else err.
func (r *remote) reachError(ctx context.Context, err error) error {
	var op *net.OpError
	if err == nil || ctx.Err() != nil || !errors.As(err, &op) {
		return err
	}
	return connError{base: r.c.BaseURL(), program: r.program, err: err}
}

// do sends call and adds its charge (of an error answer too) to r.credits.
func (r *remote) do(ctx context.Context, call client.Call) (*client.Response, error) {
	resp, err := r.c.Do(ctx, call)
	if resp != nil {
		r.credits += resp.Credits
	}
	var ce *client.Error
	if errors.As(err, &ce) {
		r.credits += ce.Credits
		return nil, apiError{ce}
	}
	return resp, r.reachError(ctx, err)
}

// apiError is an API error answer as the command prints it: status, code, field,
// message and request id (Run adds the "firmo:" the client's message starts with).
type apiError struct{ e *client.Error }

func (a apiError) Error() string { return strings.TrimPrefix(a.e.Error(), "firmo: ") }
func (a apiError) Unwrap() error { return a.e }

// wait polls statusPath until the task ends (client.Wait), adding each poll's charge.
func (r *remote) wait(ctx context.Context, statusPath string, onPoll func(*client.TaskStatus)) (*client.TaskStatus, error) {
	st, err := r.c.Wait(ctx, statusPath, client.WaitOptions{Interval: 500 * time.Millisecond, MaxInterval: 5 * time.Second,
		OnPoll: func(st *client.TaskStatus) {
			r.credits += st.Credits
			if onPoll != nil {
				onPoll(st)
			}
		}})
	var ce *client.Error
	if errors.As(err, &ce) {
		r.credits += ce.Credits
		return st, apiError{ce}
	}
	return st, r.reachError(ctx, err)
}

// parseArgs parses flags placed before, between or after the positional arguments
// (`firmo append FILE --dataset bizdata`; pflag's GNU-style parsing, "--" ends the
// flags) and answers the positional arguments. An unknown flag's error names the
// nearest known one.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SortFlags = false
	// pflag prints the error and the whole usage on a bad flag; the command prints one
	// line instead (Run), and the usage only when asked (-h, --help).
	out := fs.Output()
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.SetOutput(out)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printHelp(out, fs)
			// flag.ErrHelp, which Run answers with exit code 0.
			return nil, fmt.Errorf("%w: %w", errUsage, err)
		}
		return nil, fmt.Errorf("%w: %v%s ('firmo %s --help' lists its flags)", errUsage, err, suggestFlag(fs, err), fs.Name())
	}
	return fs.Args(), nil
}

// apiCommand is one `firmo api` command: an operation of the API reference whose
// parameters (query parameters, or the JSON body's properties) become flags of the
// same names.
type apiCommand struct {
	name, method, path string
	// positional is the parameter a lone positional argument sets (`firmo api bizdata
	// example.com`).
	positional string
	// rows picks the table rows of an answer (nil: the answer's fields, one per line).
	rows func(body []byte) ([]object, error)
	// columns are the table's columns (nil: every field of the rows).
	columns []string
	// job: the answer is {"job_id"}; the command waits for GET /v1/email/jobs/{job_id}.
	job bool
}

var apiCommands = []apiCommand{
	{name: "discover", method: "POST", path: "/v1/contacts/discover", positional: "icp_text", rows: discoverRows,
		columns: []string{"persona_id", "name", "title", "seniority", "department", "email", "domain", "company_name", "country"}},
	{name: "count", method: "GET", path: "/v1/contacts/count"},
	{name: "lookup", method: "GET", path: "/v1/contacts/lookup"},
	{name: "bizdata", method: "GET", path: "/v1/bizdata", positional: "domain"},
	{name: "score", method: "GET", path: "/v1/score", positional: "domain"},
	{name: "history", method: "GET", path: "/v1/history", positional: "domain", rows: arrayRows("certificates"),
		columns: []string{"fqdn", "organization", "city", "country", "date_from", "date_to", "sha1_fingerprint"}},
	{name: "match", method: "GET", path: "/v1/match", positional: "name", rows: arrayRows("matches"),
		columns: []string{"domain", "name", "match_confidence", "status", "address", "employees", "industry_groups"}},
	{name: "extract", method: "GET", path: "/v1/extract", positional: "domain"},
	{name: "email-find", method: "POST", path: "/v1/email/find", job: true, rows: emailJobRows},
}

func findAPICommand(name string) (apiCommand, bool) {
	for _, c := range apiCommands {
		if c.name == name {
			return c, true
		}
	}
	return apiCommand{}, false
}

// param is one API parameter as a flag.
type param struct {
	name, typ, item string // typ: string, integer, number, boolean, array (of item), any
	desc            string
	enum            []string // the values the reference allows, when it names them
}

// paramValue collects a flag's values (repeatable).
type paramValue struct {
	p    param
	vals []string
}

func (v *paramValue) String() string { return strings.Join(v.vals, ",") }
func (v *paramValue) Set(s string) error {
	if err := checkValue(v.p, s); err != nil {
		return err
	}
	v.vals = append(v.vals, s)
	return nil
}
func (v *paramValue) Type() string { return typeLabel(v.p) }

func checkValue(p param, s string) error {
	t := p.typ
	if t == "array" {
		t = p.item
	}
	var err error
	switch t {
	case "integer":
		_, err = strconv.ParseInt(s, 10, 64)
	case "number":
		_, err = strconv.ParseFloat(s, 64)
	case "boolean":
		_, err = strconv.ParseBool(s)
	}
	if err != nil {
		return fmt.Errorf("%q is not of type %s", s, t)
	}
	return nil
}

// jsonValue is s as the JSON value of a parameter of type t.
func jsonValue(t, s string) any {
	switch t {
	case "integer":
		n, _ := strconv.ParseInt(s, 10, 64)
		return n
	case "number":
		f, _ := strconv.ParseFloat(s, 64)
		return f
	case "boolean":
		b, _ := strconv.ParseBool(s)
		return b
	case "any":
		var v any
		if json.Unmarshal([]byte(s), &v) == nil {
			return v
		}
	}
	return s
}

// operationParams reads the parameters of method path from the API reference: its
// query parameters, and the properties of its JSON body.
func operationParams(method, path string) ([]param, error) {
	raw, err := openapi.Document()
	if err != nil {
		return nil, err
	}
	var doc struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("read the API reference: %w", err)
	}
	opRaw, ok := doc.Paths[path][strings.ToLower(method)]
	if !ok {
		return nil, fmt.Errorf("the API reference has no %s %s", method, path)
	}
	var op struct {
		Parameters []struct {
			Name        string          `json:"name"`
			In          string          `json:"in"`
			Description string          `json:"description"`
			Schema      json.RawMessage `json:"schema"`
		} `json:"parameters"`
		RequestBody struct {
			Content map[string]struct {
				Schema json.RawMessage `json:"schema"`
			} `json:"content"`
		} `json:"requestBody"`
	}
	if err := json.Unmarshal(opRaw, &op); err != nil {
		return nil, fmt.Errorf("read %s %s of the API reference: %w", method, path, err)
	}
	var out []param
	for _, p := range op.Parameters {
		if p.In != "query" {
			continue
		}
		typ, item := schemaType(p.Schema)
		out = append(out, param{name: p.Name, typ: typ, item: item, desc: p.Description, enum: schemaEnum(p.Schema)})
	}
	if body, ok := op.RequestBody.Content["application/json"]; ok {
		var s struct {
			Ref        string                     `json:"$ref"`
			Properties map[string]json.RawMessage `json:"properties"`
		}
		_ = json.Unmarshal(body.Schema, &s)
		if s.Ref != "" {
			_ = json.Unmarshal(doc.Components.Schemas[strings.TrimPrefix(s.Ref, "#/components/schemas/")], &s)
		}
		names := make([]string, 0, len(s.Properties))
		for n := range s.Properties {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			typ, item := schemaType(s.Properties[n])
			var d struct {
				Description string `json:"description"`
			}
			_ = json.Unmarshal(s.Properties[n], &d)
			out = append(out, param{name: n, typ: typ, item: item, desc: d.Description, enum: schemaEnum(s.Properties[n])})
		}
	}
	return out, nil
}

// schemaType is a JSON schema's type (the array form of a oneOf, the non-null type of
// a nullable one; "any" when none is named) and an array's item type.
func schemaType(raw json.RawMessage) (string, string) {
	var s struct {
		Type  json.RawMessage   `json:"type"`
		Items json.RawMessage   `json:"items"`
		OneOf []json.RawMessage `json:"oneOf"`
	}
	if json.Unmarshal(raw, &s) != nil {
		return "any", ""
	}
	for _, alt := range s.OneOf {
		if t, item := schemaType(alt); t == "array" {
			return t, item
		}
	}
	if len(s.OneOf) > 0 {
		return schemaType(s.OneOf[0])
	}
	var t string
	if json.Unmarshal(s.Type, &t) != nil {
		var ts []string
		_ = json.Unmarshal(s.Type, &ts)
		for _, x := range ts {
			if x != "null" {
				t = x
				break
			}
		}
	}
	switch t {
	case "array":
		item, _ := schemaType(s.Items)
		return "array", item
	case "string", "integer", "number", "boolean":
		return t, ""
	}
	return "any", ""
}

const apiUsage = `Usage: firmo api COMMAND [flags] [VALUE]

Commands (flags are the API's parameter names, e.g. --filter_country DE; repeat a flag
for several values):
  discover [ICP_TEXT]   POST /v1/contacts/discover (contact search)
  count                 GET /v1/contacts/count
  lookup                GET /v1/contacts/lookup (--persona_id, --email or --linkedin)
  bizdata DOMAIN        GET /v1/bizdata
  score DOMAIN          GET /v1/score
  history DOMAIN        GET /v1/history
  match NAME            GET /v1/match
  extract DOMAIN|URL    GET /v1/extract (a URL, with its scheme, reads that page)
  email-find            POST /v1/email/find, then waits for the job (--first_name, --last_name, --domain)
  request METHOD PATH   any operation of the API reference: --query name=value (repeatable),
                        --body JSON or --body @FILE; prints the answer as sent

Common flags: --json (the default when stdout is not a terminal), --json=FIELD,... (only
those fields: of the answer, or of each row for discover, history, match and email-find,
printed as an array), or --table; --url and
--key (default $FIRMO_URL and $FIRMO_API_KEY); --body JSON (discover, email-find: a
JSON body the flags are merged into). 'firmo api COMMAND -h' lists a command's flags.
The credits charged are printed on stderr.
`

// api runs `firmo api COMMAND ...`.
func api(ctx context.Context, env Env) error {
	if len(env.Args) < 2 {
		fmt.Fprint(env.Stderr, apiUsage)
		return fmt.Errorf("%w: firmo api COMMAND [flags]", errUsage)
	}
	if env.Args[1] == "-h" || env.Args[1] == "--help" || env.Args[1] == "help" {
		fmt.Fprint(env.Stdout, apiUsage)
		return nil
	}
	if env.Args[1] == "request" {
		return apiRequest(ctx, env)
	}
	cmd, ok := findAPICommand(env.Args[1])
	if !ok {
		fmt.Fprint(env.Stderr, apiUsage)
		return fmt.Errorf("%w: unknown api command %q", errUsage, env.Args[1])
	}
	params, err := operationParams(cmd.method, cmd.path)
	if err != nil {
		return err
	}
	fs := flag.NewFlagSet("api "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(env.Stdout) // only the help page (--help) is printed through it
	cf := addClientFlags(fs)
	var asJSON jsonFlag
	fs.Var(&asJSON, "json", "print the answer as JSON (default when stdout is not a terminal); --json=FIELD,... keeps only those fields, of each row for match, history, discover and email-find")
	fs.Lookup("json").NoOptDefVal = allFields
	asTable := fs.Bool("table", false, "print a table of the answer's main fields")
	var body *string
	if cmd.method == "POST" {
		body = fs.String("body", "", "JSON body the flags are merged into")
	}
	values := make([]*paramValue, 0, len(params))
	for _, p := range params {
		v := &paramValue{p: p}
		values = append(values, v)
		// A parameter named like a common flag (extract's url) is set by the
		// positional argument only.
		if fs.Lookup(p.name) == nil {
			fs.Var(v, p.name, flagDesc(p.desc, 100))
			if p.typ == "boolean" {
				fs.Lookup(p.name).NoOptDefVal = "true" // --has_email alone is --has_email=true
				flagValues(fs, p.name, "true", "false")
			}
			if len(p.enum) > 0 {
				flagValues(fs, p.name, p.enum...)
			}
		}
	}
	pos, err := parseArgs(fs, env.Args[2:])
	if err != nil {
		return err
	}
	if len(pos) > 1 || len(pos) == 1 && cmd.positional == "" {
		for _, p := range pos {
			if asJSON.set && asJSON.fields == nil && fieldList.MatchString(p) {
				return fmt.Errorf("%w: firmo api %s: %q is an argument; to keep only those fields, write --json=%s", errUsage, cmd.name, p, p)
			}
		}
		if cmd.positional == "" {
			return fmt.Errorf("%w: firmo api %s takes flags only; got %q", errUsage, cmd.name, strings.Join(pos, " "))
		}
		return fmt.Errorf("%w: firmo api %s takes one argument (%s); got %q", errUsage, cmd.name, cmd.positional, strings.Join(pos, " "))
	}
	if asJSON.fields != nil && *asTable {
		return fmt.Errorf("%w: --json=%s and --table: choose one", errUsage, asJSON.String())
	}
	if len(pos) == 1 {
		target := cmd.positional
		if cmd.name == "extract" && strings.Contains(pos[0], "://") {
			target = "url"
		}
		for _, v := range values {
			if v.p.name == target && len(v.vals) == 0 {
				if err := v.Set(pos[0]); err != nil {
					return fmt.Errorf("%w: %s: %v", errUsage, v.p.name, err)
				}
			}
		}
	}
	r, err := newRemote(env, cf)
	if err != nil {
		return err
	}
	call := client.Call{Method: cmd.method, Path: cmd.path}
	if cmd.method == "GET" {
		q := url.Values{}
		for _, v := range values {
			for _, s := range v.vals {
				q.Add(v.p.name, s)
			}
		}
		call.Query = q
	} else {
		obj := map[string]any{}
		if body != nil && *body != "" {
			if err := json.Unmarshal([]byte(*body), &obj); err != nil {
				return fmt.Errorf("%w: --body must be a JSON object: %v", errUsage, err)
			}
		}
		for _, v := range values {
			if len(v.vals) == 0 {
				continue
			}
			if v.p.typ == "array" {
				arr := make([]any, len(v.vals))
				for i, s := range v.vals {
					arr[i] = jsonValue(v.p.item, s)
				}
				obj[v.p.name] = arr
			} else {
				obj[v.p.name] = jsonValue(v.p.typ, v.vals[len(v.vals)-1])
			}
		}
		call.JSON = obj
	}
	out, err := callAPI(ctx, r, cmd, call)
	fmt.Fprintf(env.Stderr, "credits charged: %d\n", r.credits)
	if cmd.name == "email-find" {
		emailBillingNote(env.Stderr)
	}
	if err != nil {
		return err
	}
	table := *asTable || !asJSON.set && isTerminal(env.Stdout)
	if len(bytes.TrimSpace(out)) == 0 {
		// 204, no body: match found no company at min_match_confidence or above. JSON
		// gets the answer's shape with nothing in it, so a pipeline reads it as usual.
		fmt.Fprintf(env.Stderr, "no result (%s %s answered 204: %s)\n", cmd.method, cmd.path, noContentMeaning(cmd))
		if table {
			_, err := fmt.Fprintln(env.Stdout, "(0 rows)")
			return err
		}
		empty := emptyAnswer(cmd)
		if asJSON.fields != nil {
			if cmd.rows != nil {
				empty = []byte("[]")
			} else if empty, err = selectFields(cmd, empty, asJSON.fields); err != nil {
				return err
			}
		}
		return printJSON(env.Stdout, empty, isTerminal(env.Stdout))
	}
	if table {
		return printTable(env.Stdout, cmd, out)
	}
	if asJSON.fields != nil {
		if out, err = selectFields(cmd, out, asJSON.fields); err != nil {
			return err
		}
	}
	return printJSON(env.Stdout, out, isTerminal(env.Stdout))
}

// noContentMeaning is what a 204 of cmd's operation means.
func noContentMeaning(cmd apiCommand) string {
	if cmd.name == "match" {
		return "no company reached min_match_confidence"
	}
	return "nothing to answer"
}

// emptyAnswer is the JSON a 204 of cmd is printed as: the answer's array empty
// ({"matches":[]} for match), else {}.
func emptyAnswer(cmd apiCommand) []byte {
	if cmd.name == "match" {
		return []byte(`{"matches":[]}`)
	}
	return []byte(`{}`)
}

func typeLabel(p param) string {
	if p.typ == "array" {
		return p.item + ", repeatable"
	}
	return p.typ
}

// callAPI sends call; for an email find it waits for the job and answers the job.
func callAPI(ctx context.Context, r *remote, cmd apiCommand, call client.Call) ([]byte, error) {
	resp, err := r.do(ctx, call)
	if err != nil {
		return nil, err
	}
	if !cmd.job {
		return resp.Body, nil
	}
	var sub struct {
		JobID string `json:"job_id"`
	}
	if err := resp.Decode(&sub); err != nil || sub.JobID == "" {
		return nil, fmt.Errorf("%s answered no job_id: %.200s", cmd.path, resp.Body)
	}
	st, err := r.wait(ctx, "/v1/email/jobs/"+url.PathEscape(sub.JobID), nil)
	if err != nil {
		return nil, err
	}
	return st.Body, nil
}

// printJSON prints the answer as the server sent it (indented on a terminal; the
// field order is kept either way).
func printJSON(w io.Writer, body []byte, indent bool) error {
	if indent {
		var b bytes.Buffer
		if json.Indent(&b, body, "", "  ") == nil {
			body = b.Bytes()
		}
	}
	body = bytes.TrimRight(body, "\n")
	_, err := fmt.Fprintf(w, "%s\n", body)
	return err
}

// printTable prints the answer's rows under their columns, or its fields one per line.
func printTable(w io.Writer, cmd apiCommand, body []byte) error {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	if cmd.rows == nil {
		obj, err := decodeObject(body)
		if err != nil {
			return err
		}
		for _, f := range obj {
			fmt.Fprintf(tw, "%s\t%s\n", f.key, shortCell(f.val, 100))
		}
		return tw.Flush()
	}
	rows, err := cmd.rows(body)
	if err != nil {
		return err
	}
	cols := tableColumns(rows, cmd.columns)
	fmt.Fprintln(tw, strings.ToUpper(strings.Join(cols, "\t")))
	for _, row := range rows {
		cells := make([]string, len(cols))
		for i, c := range cols {
			cells[i] = shortCell(row.get(c), 40)
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "(%d rows)\n", len(rows))
	return err
}

// tableColumns are want's columns some row has (every row's fields in first-seen
// order when want is nil, or when no row has any of them).
func tableColumns(rows []object, want []string) []string {
	var cols []string
	for _, c := range want {
		for _, r := range rows {
			if r.has(c) {
				cols = append(cols, c)
				break
			}
		}
	}
	if len(cols) > 0 {
		return cols
	}
	return unionKeys(rows)
}

// flagDesc is a parameter's description as one help line of about n characters: whole
// when it fits, else its first sentence when that fits, else cut at a word's end with
// "…" (never mid-word, as a plain cut at n did: "punctuation are strip").
func flagDesc(d string, n int) string {
	d = strings.Join(strings.Fields(d), " ")
	r := []rune(d)
	if len(r) <= n {
		return d
	}
	if i := strings.Index(d, ". "); i > 0 && len([]rune(d[:i+1])) <= n {
		return d[:i+1]
	}
	cut := string(r[:n])
	if i := strings.LastIndex(cut, " "); i > 0 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, ",;:") + "…"
}

// shortCell is a value as one table cell of at most n characters.
func shortCell(v json.RawMessage, n int) string {
	s := strings.Join(strings.Fields(cellText(v)), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// discoverRows are the contacts of a contact search answer, company by company.
func discoverRows(body []byte) ([]object, error) {
	top, err := decodeObject(body)
	if err != nil {
		return nil, err
	}
	companies, err := decodeObject(top.get("results"))
	if err != nil {
		return nil, nil
	}
	var rows []object
	for _, c := range companies {
		entry, err := decodeObject(c.val)
		if err != nil {
			continue
		}
		contacts, _ := decodeArray(entry.get("contacts"))
		rows = append(rows, contacts...)
	}
	return rows, nil
}

// arrayRows picks the array field name of an answer.
func arrayRows(name string) func([]byte) ([]object, error) {
	return func(body []byte) ([]object, error) {
		top, err := decodeObject(body)
		if err != nil {
			return nil, err
		}
		return decodeArray(top.get(name))
	}
}

// emailJobRows is an email job as one row: its status and its result's fields.
func emailJobRows(body []byte) ([]object, error) {
	job, err := decodeObject(body)
	if err != nil {
		return nil, err
	}
	row := object{{key: "job_status", val: job.get("status")}}
	res, _ := decodeObject(job.get("result"))
	for _, f := range res {
		if f.key == "result" {
			found, _ := decodeObject(f.val)
			row = append(row, found...)
			continue
		}
		row = append(row, f)
	}
	if e := job.get("error"); e != nil {
		row = append(row, field{key: "error", val: e})
	}
	return []object{row}, nil
}

// isTerminal reports whether w is a terminal (a character device), without a
// dependency.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// emailBillingNote says where an email find's charge went: the service bills a found
// address when its job completes, in the worker, so no response of the command's calls
// carries it in X-Credits-Charged.
func emailBillingNote(w io.Writer) {
	fmt.Fprintln(w, "note: found addresses are billed when their job completes, not on these calls; GET /v1/account/usage lists the charges")
}
