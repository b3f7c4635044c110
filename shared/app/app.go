// Package app is Firmo's composition root: it builds every service from the
// configuration, on embedded storage (NewLocal) or on AWS (NewAWS), and hands out
// the HTTP handler of one endpoint family or of all of them.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/boltkv"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/dynamokv"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/openapi"
)

// App holds the built services.
type App struct {
	Config   config.Config
	Log      *slog.Logger
	Store    kv.Store
	Accounts *account.Service
	Server   *httpapi.Server
}

// New builds the composition the configuration selects.
func New(ctx context.Context, cfg config.Config, log *slog.Logger) (*App, error) {
	if cfg.Backend == config.BackendAWS {
		return NewAWS(ctx, cfg, log)
	}
	return NewLocal(ctx, cfg, log)
}

// NewLocal builds Firmo on embedded storage under cfg.DataDir.
func NewLocal(ctx context.Context, cfg config.Config, log *slog.Logger) (*App, error) {
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create data dir: %w", err)
	}
	store, err := boltkv.Open(filepath.Join(cfg.DataDir, "firmo.db"))
	if err != nil {
		return nil, err
	}
	return build(cfg, log, store)
}

// NewAWS builds Firmo on AWS services (or their local stand-ins when the endpoints
// in cfg.AWS are set).
func NewAWS(ctx context.Context, cfg config.Config, log *slog.Logger) (*App, error) {
	awsCfg, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithRegion(cfg.AWS.Region))
	if err != nil {
		return nil, fmt.Errorf("load AWS configuration: %w", err)
	}
	ddb := dynamodb.NewFromConfig(awsCfg, func(o *dynamodb.Options) {
		if cfg.AWS.DynamoDBEndpoint != "" {
			o.BaseEndpoint = aws.String(cfg.AWS.DynamoDBEndpoint)
		}
	})
	return build(cfg, log, dynamokv.New(ddb, cfg.AWS.Table))
}

func build(cfg config.Config, log *slog.Logger, store kv.Store) (*App, error) {
	accounts := account.New(store)
	doc, err := openapi.Document()
	if err != nil {
		store.Close()
		return nil, fmt.Errorf("assemble API reference: %w", err)
	}
	docsHTML, err := openapi.HTML()
	if err != nil {
		store.Close()
		return nil, fmt.Errorf("render API reference: %w", err)
	}
	srv := httpapi.NewServer(log, accounts, cfg.MaxBodyBytes)
	srv.Add(httpapi.MetaRoutes(doc, docsHTML)...)
	srv.Add(httpapi.AccountRoutes(accounts, httpapi.SessionOptions{TTL: cfg.SessionTTL, Insecure: cfg.InsecureCookies})...)
	return &App{Config: cfg, Log: log, Store: store, Accounts: accounts, Server: srv}, nil
}

// Handler serves the given endpoint families, or all of them.
func (a *App) Handler(families ...string) http.Handler { return a.Server.Handler(families...) }

// Close releases the app's resources.
func (a *App) Close() error { return a.Store.Close() }

// NewLogger makes the structured logger the configuration asks for.
func NewLogger(cfg config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// DemoKeyFile is where a local server keeps the demo API key (mode 0600).
const DemoKeyFile = "demo-api-key"

// DemoPasswordFile is where a local server keeps the demo admin's password (mode 0600).
const DemoPasswordFile = "demo-admin-password"

// EnsureDemo makes sure the demo organisation and its key exist (local composition):
// FIRMO_DEMO_API_KEY wins, then the key saved by an earlier start, else a new key.
// The key is written to <data dir>/demo-api-key.
func (a *App) EnsureDemo(ctx context.Context) (account.Demo, error) {
	want := a.Config.DemoAPIKey
	keyPath := filepath.Join(a.Config.DataDir, DemoKeyFile)
	if want == "" {
		if b, err := os.ReadFile(keyPath); err == nil {
			want = string(trimSpace(b))
		} else if !errors.Is(err, os.ErrNotExist) {
			return account.Demo{}, fmt.Errorf("read %s: %w", keyPath, err)
		}
	}
	d, err := a.Accounts.EnsureDemo(ctx, want)
	if err != nil {
		return account.Demo{}, err
	}
	if err := writeSecretFile(keyPath, d.Key); err != nil {
		return account.Demo{}, err
	}
	if d.AdminPassword != "" {
		if err := writeSecretFile(filepath.Join(a.Config.DataDir, DemoPasswordFile), d.AdminPassword); err != nil {
			return account.Demo{}, err
		}
	}
	return d, nil
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r' || b[len(b)-1] == ' ') {
		b = b[:len(b)-1]
	}
	return b
}

// writeSecretFile writes atomically with mode 0600 and fsyncs, so a crash leaves the
// old or the new content, never a torn file.
func writeSecretFile(path, content string) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := f.WriteString(content + "\n"); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sync %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("rename %s: %w", path, err)
	}
	return os.Chmod(path, 0o600)
}
