package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	flag "github.com/spf13/pflag"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/firmoapi/firmo/shared/client"
	"golang.org/x/term"
)

// Profiles of `firmo login`: a server address and an API key per name, in a JSON file
// of mode 0600. The remote commands read the profile named by --profile, else
// $FIRMO_PROFILE, else "default"; FIRMO_URL and FIRMO_API_KEY win over it, and --url
// and --key over those.
const (
	envProfile     = "FIRMO_PROFILE"
	envConfigFile  = "FIRMO_CONFIG"
	defaultProfile = "default"
)

type profile struct {
	URL    string `json:"url,omitempty"`
	APIKey string `json:"api_key"`
}

type profileFile struct {
	Profiles map[string]profile `json:"profiles"`
}

// configPath is $FIRMO_CONFIG, else $XDG_CONFIG_HOME/firmo/config.json, else
// $HOME/.config/firmo/config.json ("" when none of them is set).
func configPath(getenv func(string) string) string {
	if p := getenv(envConfigFile); p != "" {
		return p
	}
	if d := getenv("XDG_CONFIG_HOME"); d != "" {
		return filepath.Join(d, "firmo", "config.json")
	}
	if h := getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "firmo", "config.json")
	}
	return ""
}

func readProfiles(path string) (profileFile, error) {
	pf := profileFile{Profiles: map[string]profile{}}
	if path == "" {
		return pf, nil
	}
	raw, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return pf, nil
	}
	if err != nil {
		return pf, err
	}
	if err := json.Unmarshal(raw, &pf); err != nil {
		return pf, fmt.Errorf("read %s: %w", path, err)
	}
	if pf.Profiles == nil {
		pf.Profiles = map[string]profile{}
	}
	return pf, nil
}

func writeProfiles(path string, pf profileFile) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	raw, err := json.MarshalIndent(pf, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(raw, '\n'), 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// profileName is --profile, else $FIRMO_PROFILE, else "default".
func profileName(flagValue string, getenv func(string) string) string {
	if flagValue != "" {
		return flagValue
	}
	if p := getenv(envProfile); p != "" {
		return p
	}
	return defaultProfile
}

// applyProfile fills cfg's address and key from the profile where the environment left
// them unset. A profile named explicitly (flag or env) must exist.
func applyProfile(cfg *client.Config, name string, explicit bool, getenv func(string) string) error {
	path := configPath(getenv)
	pf, err := readProfiles(path)
	if err != nil {
		return err
	}
	p, ok := pf.Profiles[name]
	if !ok {
		if explicit {
			return fmt.Errorf("%w: no profile %q in %s (firmo login --profile %s creates it)", errUsage, name, path, name)
		}
		return nil
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = p.URL
	}
	if cfg.APIKey == "" {
		cfg.APIKey = p.APIKey
	}
	return nil
}

// login runs `firmo login [--profile NAME] [--url URL] [--key KEY]`: it checks the key
// against the server (GET /v1/account) and stores it in the profile. Without --key the
// key is read from stdin (one line), so it stays out of the shell's history.
func login(ctx context.Context, env Env) error {
	fs := flag.NewFlagSet("login", flag.ContinueOnError)
	fs.SetOutput(env.Stdout) // only the help page (--help) is printed through it
	name := fs.String("profile", "", "profile to store (default $FIRMO_PROFILE, else default)")
	base := fs.String("url", "", "server address (default $FIRMO_URL, else "+client.DefaultBaseURL+")")
	key := fs.String("key", "", "API key (default: read from stdin)")
	list := fs.Bool("list", false, "list the stored profiles (keys shown by their public id) and exit")
	pos, err := parseArgs(fs, env.Args[1:])
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("%w: firmo login takes flags only; got %q", errUsage, strings.Join(pos, " "))
	}
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	path := configPath(getenv)
	if path == "" {
		return fmt.Errorf("%w: no place for the config file: set %s or HOME", errUsage, envConfigFile)
	}
	pf, err := readProfiles(path)
	if err != nil {
		return err
	}
	if *list {
		names := make([]string, 0, len(pf.Profiles))
		for n := range pf.Profiles {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			p := pf.Profiles[n]
			fmt.Fprintf(env.Stdout, "%s\t%s\t%s\n", n, orDefault(p.URL, client.DefaultBaseURL), keyID(p.APIKey))
		}
		return nil
	}
	if *key == "" {
		in := env.Stdin
		if in == nil {
			in = os.Stdin
		}
		k, err := readKey(in, env.Stderr)
		if err != nil {
			return err
		}
		*key = k
	}
	if *key == "" {
		return fmt.Errorf("%w: no API key given (--key, or one line on stdin)", errUsage)
	}
	u := *base
	if u == "" {
		u = strings.TrimSpace(getenv(client.EnvURL))
	}
	c, err := client.New(client.Config{BaseURL: u, APIKey: *key, UserAgent: "firmo-cli", OnRetry: retryPrinter(env.Stderr)})
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	r := &remote{c: c, program: env.program()}
	acct, _, err := c.GetAccount(ctx)
	if err != nil {
		var ce *client.Error
		if errors.As(err, &ce) {
			return apiError{ce}
		}
		return r.reachError(ctx, err)
	}
	n := profileName(*name, getenv)
	pf.Profiles[n] = profile{URL: u, APIKey: *key}
	if err := writeProfiles(path, pf); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "logged in to %s as organisation %q (plan %s); profile %q saved in %s\n",
		c.BaseURL(), acct.Organization, acct.Plan, n, path)
	return nil
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// keyID is an API key's public id (fk_ and its first part), the part safe to show.
func keyID(key string) string {
	if i := strings.Index(strings.TrimPrefix(key, "fk_"), "_"); strings.HasPrefix(key, "fk_") && i > 0 {
		return key[:3+i]
	}
	return "(key)"
}

// readKey reads one line, the key: from a terminal with a prompt and without echoing
// it (the key is a secret), else (a pipe or a file, as in `firmo login < data/demo-api-key`)
// silently.
func readKey(in io.Reader, prompt io.Writer) (string, error) {
	if f, ok := in.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		fmt.Fprint(prompt, "API key (not shown): ")
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(prompt)
		return strings.TrimSpace(string(b)), err
	}
	line, err := bufio.NewReader(in).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	return strings.TrimSpace(line), nil
}
