// Package cli is the `firmo` command: serve, keys, version. functions/local/main.go
// only calls Run.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/config"
)

// Env is what the command reads from its process.
type Env struct {
	Args    []string // without the program name
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
  firmo version                      print the version

Configuration comes from FIRMO_* environment variables; see README.md.
`

// Run runs the command and returns the process exit code.
func Run(ctx context.Context, env Env) int {
	if len(env.Args) == 0 {
		fmt.Fprint(env.Stderr, usage)
		return 2
	}
	var err error
	switch env.Args[0] {
	case "serve":
		err = serve(ctx, env)
	case "keys":
		err = keys(ctx, env)
	case "seed":
		err = seed(ctx, env)
	case "ingest":
		err = ingest(ctx, env)
	case "version", "--version":
		fmt.Fprintf(env.Stdout, "firmo %s\n", env.Version)
	case "help", "-h", "--help":
		fmt.Fprint(env.Stdout, usage)
	default:
		fmt.Fprintf(env.Stderr, "firmo: unknown command %q\n\n%s", env.Args[0], usage)
		return 2
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "firmo: %s\n", message(err))
		if errors.Is(err, errUsage) {
			return 2
		}
		return 1
	}
	return 0
}

var errUsage = errors.New("usage")

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

func serve(ctx context.Context, env Env) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	if err := fs.Parse(env.Args[1:]); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	cfg, log, err := load(env)
	if err != nil {
		return err
	}
	if cfg.Backend != config.BackendLocal {
		return fmt.Errorf("firmo serve runs the embedded composition; unset FIRMO_BACKEND or set it to local (AWS deploys with sam deploy)")
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	a, err := allapp.NewLocal(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer a.Close()
	demo, err := a.EnsureDemo(ctx)
	if err != nil {
		return fmt.Errorf("demo organisation: %w", err)
	}
	if err := seedOnFirstStart(ctx, env, a, cfg); err != nil {
		return err
	}
	// Task workers run until shutdown drains them; unfinished tasks resume here.
	if err := a.StartTasks(context.Background()); err != nil {
		return err
	}
	// Rescoring and stale-field refreshing run on a timer; stopped before the store closes.
	defer a.StartReprocessing(ctx, cfg.ReprocessEvery, log)()
	// The company-name index follows the company store: synced now in the background
	// (rebuilt when missing; picks up companies seeded or ingested while stopped) and
	// again every reprocessing interval.
	defer a.StartNameSync(ctx, cfg.ReprocessEvery, log)()

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	srv := &http.Server{Handler: a.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	printBanner(env.Stdout, ln.Addr().String(), cfg.DataDir, demo)

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down", "timeout", cfg.ShutdownWait.String())
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownWait)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("graceful shutdown: %w", err)
	}
	if err := a.StopTasks(sctx); err != nil {
		log.Warn("task records still running at shutdown resume at the next start", "err", err)
	}
	log.Info("stopped")
	return nil
}

func printBanner(w io.Writer, addr, dataDir string, d account.Demo) {
	host := addr
	if strings.HasPrefix(host, "[::]:") || strings.HasPrefix(host, "0.0.0.0:") {
		host = "localhost:" + host[strings.LastIndex(host, ":")+1:]
	}
	fmt.Fprintf(w, "Firmo is serving on http://%s (data in %s)\n", host, dataDir)
	fmt.Fprintf(w, "Demo organisation %q (plan %s). Demo API key (also in %s/%s):\n\n    %s\n\n", d.Org.Name, d.Org.Plan, dataDir, allapp.DemoKeyFile, d.Key)
	if d.AdminPassword != "" {
		fmt.Fprintf(w, "Admin app sign-in: %s, password in %s/%s\n", account.DemoAdminEmail, dataDir, allapp.DemoPasswordFile)
	}
	fmt.Fprintf(w, "Try: curl -H 'x-service-key: %s' http://%s/v1/account\nAPI reference: http://%s/docs\n", d.Key, host, host)
}

func keys(ctx context.Context, env Env) error {
	if len(env.Args) < 2 {
		return fmt.Errorf("%w: firmo keys create|revoke", errUsage)
	}
	a, _, err := openApp(ctx, env)
	if err != nil {
		return err
	}
	defer a.Close()
	switch env.Args[1] {
	case "create":
		return keysCreate(ctx, env, a)
	case "revoke":
		if len(env.Args) != 3 {
			return fmt.Errorf("%w: firmo keys revoke KEY_PREFIX", errUsage)
		}
		k, err := a.Accounts.RevokeKeyByID(ctx, env.Args[2])
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "revoked %s\n", k.ID)
		return nil
	}
	return fmt.Errorf("%w: unknown keys command %q", errUsage, env.Args[1])
}

func keysCreate(ctx context.Context, env Env, a *allapp.App) error {
	fs := flag.NewFlagSet("keys create", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	orgName := fs.String("org", "", "organisation name (created if needed)")
	planName := fs.String("plan", "FREE", "plan of a new organisation: FREE, STARTER, PRO, ENTERPRISE")
	roleName := fs.String("role", "admin", "role of the new user: admin or member")
	email := fs.String("email", "", "email of the new user (default: generated)")
	label := fs.String("name", "", "label of the key")
	if err := fs.Parse(env.Args[2:]); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if strings.TrimSpace(*orgName) == "" {
		return fmt.Errorf("%w: --org is required", errUsage)
	}
	plan, err := account.ParsePlan(*planName)
	if err != nil {
		return err
	}
	role, err := account.ParseRole(*roleName)
	if err != nil {
		return err
	}
	org, created, err := a.Accounts.EnsureOrg(ctx, *orgName, plan)
	if err != nil {
		return err
	}
	if !created && org.Plan != plan && isFlagSet(fs, "plan") {
		fmt.Fprintf(env.Stderr, "note: organisation %q exists on plan %s; --plan %s ignored\n", org.Name, org.Plan, plan)
	}
	addr := *email
	if addr == "" {
		id := strings.ReplaceAll(time.Now().UTC().Format("20060102T150405.000000"), ".", "")
		addr = fmt.Sprintf("%s-%s@%s.firmo.local", role, strings.ToLower(id), slug(org.Name))
	}
	user, err := a.Accounts.CreateUser(ctx, org.ID, addr, role, "")
	if err != nil {
		return err
	}
	secret, key, err := a.Accounts.CreateKey(ctx, org.ID, user.ID, *label)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "organisation %q (%s, plan %s), user %s (%s), key %s\n", org.Name, org.ID, org.Plan, user.Email, user.Role, key.ID)
	fmt.Fprintln(env.Stdout, secret)
	return nil
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
