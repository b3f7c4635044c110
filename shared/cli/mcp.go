package cli

import (
	"context"
	"fmt"
	flag "github.com/spf13/pflag"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/firmoapi/firmo/shared/mcpserver"
)

// mcpCmd runs `firmo mcp`: the Model Context Protocol over stdin and stdout (the stdio
// transport an agent's host starts a server with), its tools calling the Firmo server of
// FIRMO_URL with FIRMO_API_KEY (or --url and --key). Stdout carries the protocol only;
// the SDK's warnings go to stderr. It ends when the host closes stdin, or on SIGINT or
// SIGTERM.
func mcpCmd(ctx context.Context, env Env) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(env.Stdout) // only the help page (--help) is printed through it
	cf := addClientFlags(fs)
	if _, err := parseArgs(fs, env.Args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: firmo mcp takes no arguments, got %q", errUsage, fs.Args())
	}
	r, err := newRemote(env, cf)
	if err != nil {
		return err
	}
	stdin := env.Stdin
	if stdin == nil {
		stdin = os.Stdin
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewTextHandler(env.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	s := mcpserver.New(r.c, mcpserver.Options{Version: env.Version, Logger: log})
	return mcpserver.Serve(ctx, s, stdin, env.Stdout)
}
