package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"

	"github.com/spf13/cobra"
	flag "github.com/spf13/pflag"
)

// completeValues is the annotation a flag's possible values are declared under, next
// to the flag (flagValues); shell completion offers them (cobra's
// RegisterFlagCompletionFunc).
const completeValues = "firmo_complete_values"

// flagValues declares the values flag name of fs takes, for shell completion.
func flagValues(fs *flag.FlagSet, name string, values ...string) {
	_ = fs.SetAnnotation(name, completeValues, values)
}

// flagCapture is the output a command's flags are captured through: printHelp, asked
// for a help page on a flagCapture, keeps the command's flag set instead of printing.
type flagCapture struct {
	io.Writer
	fs *flag.FlagSet
}

// commandFlags are the flags of `firmo NAME ARG...`, from the command itself: it runs
// with --help and its flag set is captured (every command defines its flags before
// it does anything else). nil for a command without flags.
func commandFlags(ctx context.Context, env Env, run func(context.Context, Env) error, name string, args []string) *flag.FlagSet {
	c := &flagCapture{Writer: io.Discard}
	e := env
	e.Args = append(append([]string{name}, args...), "--help")
	e.Stdout, e.Stderr, e.Stdin = c, c, bytes.NewReader(nil)
	_ = run(ctx, e)
	return c.fs
}

// completing says whether env is a shell's completion request (cobra's __complete).
func completing(env Env) bool {
	return len(env.Args) > 0 && (env.Args[0] == cobra.ShellCompRequestCmd || env.Args[0] == cobra.ShellCompNoDescRequestCmd)
}

// addCompletionFlags gives the cobra command sub the flags of the command being
// completed (`firmo NAME [ARG] ... <TAB>`), so that cobra completes their names and, for
// those with declared values, their values.
func addCompletionFlags(ctx context.Context, env Env, sub *cobra.Command, run func(context.Context, Env) error, hasArgs bool) {
	words := env.Args[2 : len(env.Args)-1] // after the command's name, before the word being completed
	var args []string
	if hasArgs && len(words) > 0 && !strings.HasPrefix(words[0], "-") {
		args = words[:1] // api bizdata, keys create, ingest companies
	}
	fs := commandFlags(ctx, env, run, sub.Name(), args)
	if fs == nil {
		return
	}
	sub.DisableFlagParsing = false
	sub.FParseErrWhitelist.UnknownFlags = true
	fs.VisitAll(func(f *flag.Flag) {
		if sub.Flags().Lookup(f.Name) != nil {
			return
		}
		sub.Flags().AddFlag(f)
		values := f.Annotations[completeValues]
		if len(values) == 0 {
			return
		}
		_ = sub.RegisterFlagCompletionFunc(f.Name, func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return completeList(values, toComplete), cobra.ShellCompDirectiveNoFileComp
		})
	})
}

// completeList completes toComplete from values; after a comma (--dataset
// bizdata,gr<TAB>) the last item is completed and the items before it are kept.
func completeList(values []string, toComplete string) []cobra.Completion {
	done, last := "", toComplete
	if i := strings.LastIndex(toComplete, ","); i >= 0 {
		done, last = toComplete[:i+1], toComplete[i+1:]
	}
	given := map[string]bool{}
	for _, v := range strings.Split(done, ",") {
		given[v] = true
	}
	var out []cobra.Completion
	for _, v := range values {
		if strings.HasPrefix(v, last) && !given[v] {
			out = append(out, done+v)
		}
	}
	return out
}

// schemaEnum is the values a parameter's schema allows, if it names them (its enum,
// its items', or its oneOf variants'); null is left out.
func schemaEnum(raw json.RawMessage) []string {
	var s struct {
		Enum  []any             `json:"enum"`
		Items json.RawMessage   `json:"items"`
		OneOf []json.RawMessage `json:"oneOf"`
	}
	if json.Unmarshal(raw, &s) != nil {
		return nil
	}
	var out []string
	for _, v := range s.Enum {
		if str, ok := v.(string); ok {
			out = append(out, str)
		}
	}
	if len(out) == 0 && len(s.Items) > 0 {
		out = schemaEnum(s.Items)
	}
	for _, alt := range s.OneOf {
		if len(out) > 0 {
			break
		}
		out = schemaEnum(alt)
	}
	return out
}
