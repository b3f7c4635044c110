// Package cli is the `firmo` command: serve, keys, version, and the user commands that
// call a Firmo server (api, the file jobs). functions/local/main.go only calls Run.
package cli

import (
	"context"
	"errors"
	"fmt"
	flag "github.com/spf13/pflag"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/config"
)

// Env is what the command reads from its process.
type Env struct {
	// Program is the command as invoked (os.Args[0], such as ./bin/firmo): the resume
	// hints repeat it so they can be pasted (default "firmo").
	Program string
	Args    []string  // without the program name
	Stdin   io.Reader // read by `firmo mcp` (nil: os.Stdin)
	Stdout  io.Writer
	Stderr  io.Writer
	Getenv  config.Getenv
	Version string
}

const usage = `firmo: the Firmo B2B data API

Usage:
  firmo serve                        run the whole API on embedded storage (FIRMO_ADDR, FIRMO_DATA_DIR)
  firmo keys create --org NAME [--plan PLAN] [--role ROLE] [--email EMAIL] [--name LABEL]
                                     create the organisation if needed, a user and an API key
  firmo keys revoke KEY_PREFIX       revoke a key (its fk_... prefix)
  firmo seed [--companies N] [--contacts M] [--seed S] [--as-of DATE] [--out DIR]
                                     load the deterministic demo world (or write it as ingest files)
  firmo ingest companies|contacts|certs|pages FILE [--format csv|jsonl|pem]
                                     load company rows, certificates or pages; bad rows are listed and skipped
  firmo reindex-contacts             write every stored contact to the OpenSearch contacts index
                                     (FIRMO_OPENSEARCH_URL; contacts stored before it was set)
  firmo icp-train (--truth | --org ORG_ID [--integration ID]) [--companies N] [--icps K] [--out FILE] [--svg FILE]
                                     train the native ICP-fit model (native-icp) and write its model file
  firmo api COMMAND [flags]          one API call: discover, count, lookup, bizdata, score, history,
                                     match, extract, email-find (firmo api -h lists them and their flags)
  firmo api request METHOD PATH [--query name=value] [--body JSON|@FILE]
                                     any operation of the API reference, the answer as sent
  firmo login [--profile NAME] [--url URL] [--key KEY] [--list]
                                     check a key against the server and store it in a profile
                                     ($XDG_CONFIG_HOME/firmo/config.json, mode 0600)
  firmo bulkmatch FILE [--name_column COL] [--out OUT] [--format csv|json] [--resume TASK_ID]
                                     match a CSV or Excel file of company names
  firmo segment FILE [--domain_column COL] [--max_segments N] [--out OUT] [--resume TASK_ID]
                                     segment the companies of a file's domain column
  firmo research FILE --prompt TEXT [--out OUT] [--resume TASK_ID]
                                     batch research over a file's domains (/v1/gen/process)
  firmo validate-icp FILE --icp TEXT [--out OUT] [--resume TASK_ID]
                                     ICP validation of a file's domains (/v1/validate/icp)
  firmo append FILE --dataset NAME[,NAME] --out OUT [--chunk-size 500]
                                     append datasets to a file's domains, 500 rows per request
  firmo email-batch FILE --out OUT   find the work address of each row (first and last name, or
                                     name, and domain columns), in batches of 500
  firmo mcp [--url URL] [--key KEY]  serve the Model Context Protocol on stdin/stdout: tools for AI agents
                                     (contact search and count, company profile and score, match, email find, task status)
  firmo samples [--out DIR]          write the README's sample input files (companies.csv, companies.xlsx,
                                     domains.csv, names.csv) from the demo world into DIR (default data/samples)
  firmo completion bash|zsh|fish     print a shell completion script (commands, first arguments, flags and their values)
  firmo help COMMAND                 a command's help page: synopsis, examples, flags (also COMMAND --help)
  firmo version                      print the version

File jobs read CSV (any common encoding) or Excel .xlsx, write CSV or JSON (--format, else
the --out extension) to --out or stdout, and print progress on stderr: a bar on a terminal,
otherwise a line every few seconds such as "progress 1200/2000 60.0% 85.3/s eta 9s". They
end with the credits charged (X-Credits-Charged). Ctrl-C or SIGTERM stops waiting; the
server's task goes on. A task job (bulkmatch, segment, research, validate-icp) then prints
the same command with --resume TASK_ID, which polls that task to the end and writes the
same output. append and email-batch keep OUT.firmo-state.json beside the output: running
the same command again resumes at the next chunk, without sending a done chunk again (a
run that fails before any chunk is done leaves nothing behind). Output rows are in input
order, one per input row; a summary line ends each job (rows in, out, without a result by
reason). Waits between retries print "retrying in N s (reason)".
Remote commands call $FIRMO_URL (default http://localhost:8080) with $FIRMO_API_KEY;
--url and --key override them, and a profile of firmo login (--profile, $FIRMO_PROFILE,
else "default") fills in what neither sets.

Exit codes: 0 success; 1 an error (an API error answer, an unreachable server, a file
that cannot be read); 2 a usage error (an unknown command or flag, a missing argument);
130 interrupted by Ctrl-C or SIGTERM (a task job prints how to resume it).

Configuration comes from FIRMO_* environment variables; see README.md.
`

// Run runs the command and returns the process exit code.
func Run(ctx context.Context, env Env) int {
	if len(env.Args) == 0 {
		fmt.Fprint(env.Stderr, usage)
		return 2
	}
	switch env.Args[0] {
	case "version", "--version":
		fmt.Fprintf(env.Stdout, "firmo %s\n", env.Version)
		return 0
	case "help", "-h", "--help":
		if len(env.Args) == 1 {
			fmt.Fprint(env.Stdout, usage)
			return 0
		}
		// firmo help CMD [SUB]: the command's own help page.
		env.Args = append(env.Args[1:len(env.Args):len(env.Args)], "--help")
	}
	root := rootCommand(ctx, env)
	err := root.ExecuteContext(ctx)
	if err != nil {
		if errors.Is(err, errInterrupted) {
			return 130
		}
		if errors.Is(err, errHelpShown) || errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(env.Stderr, "firmo: %s\n", message(err))
		var ce cobraError
		if errors.Is(err, errUsage) || errors.As(err, &ce) {
			return 2
		}
		return 1
	}
	return 0
}

// cobraError is an error of cobra's own (an unknown command, with its suggestions).
type cobraError struct{ err error }

func (e cobraError) Error() string { return e.err.Error() }

// commands are firmo's commands: each parses its own flags (pflag, GNU style) and prints
// its own help page (--help); cobra dispatches them, suggests the nearest name for a
// mistyped one and writes shell completion scripts (firmo completion bash|zsh|fish).
var commands = []struct {
	name, short string
	run         func(context.Context, Env) error
	args        []string // completions of the first argument
}{
	{"serve", "run the whole API on embedded storage", serve, nil},
	{"keys", "create or revoke API keys", keys, []string{"create", "revoke"}},
	{"seed", "load the deterministic demo world (or write it as ingest files)", seed, nil},
	{"ingest", "load company rows, certificates or pages", ingest, []string{"companies", "contacts", "certs", "pages", "sites"}},
	{"reindex-contacts", "write every stored contact to the OpenSearch contacts index", reindexContacts, nil},
	{"icp-train", "train the native ICP-fit model", icpTrain, nil},
	{"api", "one API call, or any operation with api request", api, nil},
	{"bulkmatch", "match a CSV or Excel file of company names", bulkmatch, nil},
	{"segment", "segment the companies of a file's domain column", segment, nil},
	{"research", "batch research over a file's domains", research, nil},
	{"validate-icp", "ICP validation of a file's domains", validateICP, nil},
	{"append", "append datasets to a file's domains", appendJob, nil},
	{"email-batch", "find the work address of each row of a file", emailBatch, nil},
	{"mcp", "serve the Model Context Protocol on stdin/stdout", mcpCmd, nil},
	{"samples", "write the README's sample input files", samples, nil},
	{"login", "store a checked API key in a profile", login, nil},
}

// rootCommand is the cobra tree over commands: cobra sees the command names only, and
// hands each command its arguments as typed.
func rootCommand(ctx context.Context, env Env) *cobra.Command {
	root := &cobra.Command{
		Use:           "firmo",
		Short:         "the Firmo B2B data API",
		Long:          usage,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetArgs(env.Args)
	root.SetOut(env.Stdout)
	root.SetErr(env.Stderr)
	root.SetHelpFunc(func(*cobra.Command, []string) { fmt.Fprint(env.Stdout, usage) })
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return cobraError{err} })
	root.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		hint := "firmo help lists them"
		cmd.SuggestionsMinimumDistance = 2
		if sug := cmd.SuggestionsFor(args[0]); len(sug) > 0 {
			hint = "did you mean " + strings.Join(sug, " or ") + "?"
		}
		return cobraError{fmt.Errorf("unknown command %q (%s)", args[0], hint)}
	}
	root.RunE = func(*cobra.Command, []string) error { return fmt.Errorf("%w: firmo COMMAND", errUsage) }
	for _, c := range commands {
		run, args := c.run, c.args
		sub := &cobra.Command{
			Use:                c.name,
			Short:              c.short,
			DisableFlagParsing: true,
			ValidArgs:          args,
			RunE: func(_ *cobra.Command, rest []string) error {
				e := env
				e.Args = append([]string{c.name}, rest...)
				err := run(ctx, e)
				if errors.Is(err, flag.ErrHelp) {
					// The command printed its help page; cobra, given flag.ErrHelp, would
					// print the root usage after it.
					return errHelpShown
				}
				return err
			},
		}
		if c.name == "api" {
			names := []string{"request"}
			for _, a := range apiCommands {
				names = append(names, a.name)
			}
			sub.ValidArgs = names
		}
		if completing(env) && len(env.Args) > 2 && env.Args[1] == c.name {
			addCompletionFlags(ctx, env, sub, run, len(sub.ValidArgs) > 0)
		}
		root.AddCommand(sub)
	}
	return root
}

var errUsage = errors.New("usage")

// errHelpShown is a command's answer to --help once it printed its help page (exit 0).
var errHelpShown = errors.New("help page shown")

// program is the command as invoked, for hints the user pastes.
func (env Env) program() string {
	if env.Program == "" {
		return "firmo"
	}
	return env.Program
}

func message(err error) string {
	var ae *apperr.Error
	if errors.As(err, &ae) {
		if ae.Field != "" {
			return fmt.Sprintf("%s: %s", ae.Field, ae.Message)
		}
		return ae.Message
	}
	return err.Error()
}

func load(env Env) (config.Config, *slog.Logger, error) {
	cfg, err := config.Load(env.Getenv)
	if err != nil {
		return config.Config{}, nil, err
	}
	return cfg, app.NewLogger(cfg, env.Stderr), nil
}

// openApp loads the configuration and opens the app the command works on (the caller
// closes it).
func openApp(ctx context.Context, env Env) (*allapp.App, config.Config, error) {
	cfg, log, err := load(env)
	if err != nil {
		return nil, cfg, err
	}
	a, err := allapp.New(ctx, cfg, log)
	return a, cfg, err
}

// keys runs `firmo keys create|revoke`. While `firmo serve` runs on the data dir (and
// holds its store), the command goes through the server's admin socket; otherwise it
// opens the store itself (README "Accounts and keys").
func keys(ctx context.Context, env Env) error {
	if len(env.Args) < 2 {
		return fmt.Errorf("%w: firmo keys create|revoke", errUsage)
	}
	var cmd adminCommand
	switch env.Args[1] {
	case "create":
		req, err := parseKeysCreate(env)
		if err != nil {
			return err
		}
		cmd = adminCommand{path: adminCreateKey, in: req}
	case "revoke":
		if len(env.Args) != 3 {
			return fmt.Errorf("%w: firmo keys revoke KEY_PREFIX", errUsage)
		}
		cmd = adminCommand{path: adminRevokeKey, in: revokeRequest{KeyID: env.Args[2]}}
	default:
		return fmt.Errorf("%w: unknown keys command %q", errUsage, env.Args[1])
	}
	cfg, log, err := load(env)
	if err != nil {
		return err
	}
	var out keyResult
	served := false
	if cfg.Backend == config.BackendLocal {
		if served, err = callAdmin(ctx, cfg.DataDir, cmd, &out); err != nil {
			return err
		}
	}
	if !served {
		a, err := allapp.New(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer a.Close()
		if out, err = runAdmin(ctx, a.Accounts, cmd); err != nil {
			return err
		}
	}
	if cmd.path == adminRevokeKey {
		fmt.Fprintf(env.Stdout, "revoked %s\n", out.KeyID)
		return nil
	}
	if out.PlanIgnored {
		fmt.Fprintf(env.Stderr, "note: organisation %q exists on plan %s; --plan ignored\n", out.OrgName, out.Plan)
	}
	fmt.Fprintf(env.Stderr, "organisation %q (%s, plan %s), user %s (%s), key %s\n", out.OrgName, out.OrgID, out.Plan, out.UserEmail, out.Role, out.KeyID)
	fmt.Fprintln(env.Stdout, out.Secret)
	return nil
}

// parseKeysCreate reads the flags of `firmo keys create`; bad values are usage errors
// before any store or server is asked.
func parseKeysCreate(env Env) (keyRequest, error) {
	fs := flag.NewFlagSet("keys create", flag.ContinueOnError)
	fs.SetOutput(env.Stdout) // only the help page (--help) is printed through it
	orgName := fs.String("org", "", "organisation name (created if needed)")
	planName := fs.String("plan", "FREE", "plan of a new organisation: FREE, STARTER, PRO, ENTERPRISE")
	roleName := fs.String("role", "admin", "role of the new user: admin or member")
	flagValues(fs, "plan", string(account.PlanFree), string(account.PlanStarter), string(account.PlanPro), string(account.PlanEnterprise))
	flagValues(fs, "role", string(account.RoleAdmin), string(account.RoleMember))
	email := fs.String("email", "", "email of the new user (default: generated)")
	label := fs.String("name", "", "label of the key")
	if _, err := parseArgs(fs, env.Args[2:]); err != nil {
		return keyRequest{}, err
	}
	if strings.TrimSpace(*orgName) == "" {
		return keyRequest{}, fmt.Errorf("%w: --org is required", errUsage)
	}
	plan, err := account.ParsePlan(*planName)
	if err != nil {
		return keyRequest{}, err
	}
	role, err := account.ParseRole(*roleName)
	if err != nil {
		return keyRequest{}, err
	}
	return keyRequest{Org: *orgName, Plan: plan, PlanSet: isFlagSet(fs, "plan"), Role: role, Email: *email, Name: *label}, nil
}

// createKey creates the organisation if needed (on req.Plan), a user and a key.
func createKey(ctx context.Context, accounts *account.Service, req keyRequest) (keyResult, error) {
	org, created, err := accounts.EnsureOrg(ctx, req.Org, req.Plan)
	if err != nil {
		return keyResult{}, err
	}
	addr := req.Email
	if addr == "" {
		id := strings.ReplaceAll(time.Now().UTC().Format("20060102T150405.000000"), ".", "")
		addr = fmt.Sprintf("%s-%s@%s.firmo.local", req.Role, strings.ToLower(id), slug(org.Name))
	}
	user, err := accounts.CreateUser(ctx, org.ID, addr, req.Role, "")
	if err != nil {
		return keyResult{}, err
	}
	secret, key, err := accounts.CreateKey(ctx, org.ID, user.ID, req.Name)
	if err != nil {
		return keyResult{}, err
	}
	return keyResult{Secret: secret, KeyID: key.ID, OrgID: org.ID, OrgName: org.Name, Plan: org.Plan,
		PlanIgnored: !created && org.Plan != req.Plan && req.PlanSet, UserEmail: user.Email, Role: user.Role}, nil
}

func isFlagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func slug(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	out := strings.Trim(b.String(), "-")
	if out == "" {
		return "org"
	}
	return out
}
