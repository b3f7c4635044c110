// Package allapp is the composition of every endpoint family in one process: the
// `firmo` binary (functions/local) serves it on the embedded backend, and tests build
// it on either backend. Lambdas never import it: each composes its own family.
package allapp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/accountapp"
	"github.com/firmoapi/firmo/shared/app/companyapp"
	"github.com/firmoapi/firmo/shared/app/contactsapp"
	"github.com/firmoapi/firmo/shared/app/crmapp"
	"github.com/firmoapi/firmo/shared/app/datasetsapp"
	"github.com/firmoapi/firmo/shared/app/emailapp"
	"github.com/firmoapi/firmo/shared/app/generationapp"
	"github.com/firmoapi/firmo/shared/app/integrationsapp"
	"github.com/firmoapi/firmo/shared/app/localbackend"
	"github.com/firmoapi/firmo/shared/app/queriesapp"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/crm"
	"github.com/firmoapi/firmo/shared/emailfind"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/namematch"
	"github.com/firmoapi/firmo/shared/namematch/bleveindex"
	"github.com/firmoapi/firmo/shared/query"
	"github.com/firmoapi/firmo/shared/research"
	"github.com/firmoapi/firmo/shared/secret/kmssecret"
	"github.com/firmoapi/firmo/shared/websearch"
)

// App is every family composed on one core, with the services the command line and
// tests reach for.
type App struct {
	*app.Core
	*companyapp.Composer // seeding, reprocessing, name-index sync, the scheduler's job

	Companies       *company.Service
	Contacts        *contact.Store
	ContactSearch   *contactsearch.Service
	Emails          *emailfind.Service
	Integrations    *integration.Service
	SearchProviders *websearch.Service
	Queries         *query.Service
	Research        *research.Service
	CRM             *crm.Service

	mail *worldMail // the demo world's mail servers (worldmail.go); nil on AWS
}

// New builds the composition the configuration selects.
func New(ctx context.Context, cfg config.Config, log *slog.Logger) (*App, error) {
	if cfg.Backend == config.BackendAWS {
		return NewAWS(ctx, cfg, log)
	}
	return NewLocal(ctx, cfg, log)
}

// NewLocal builds every family on the embedded backend under cfg.DataDir, with the
// embedded company-name index.
func NewLocal(ctx context.Context, cfg config.Config, log *slog.Logger) (*App, error) {
	b, err := localbackend.New(cfg, log)
	if err != nil {
		return nil, err
	}
	return compose(ctx, cfg, log, b, openBleve, &worldMail{})
}

// NewAWS builds every family on AWS services (or their local stand-ins).
func NewAWS(ctx context.Context, cfg config.Config, log *slog.Logger) (*App, error) {
	b, err := app.AWSBackend(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return compose(ctx, cfg, log, b, nil, nil)
}

func compose(ctx context.Context, cfg config.Config, log *slog.Logger, b app.Backend, names companyapp.OpenNameIndex, mail *worldMail) (*App, error) {
	a := &App{Composer: &companyapp.Composer{NameIndex: names}, mail: mail}
	fams := families(a.Composer)
	if mail != nil { // first: it routes the email verifier before the email family is built
		fams = append([]app.Composer{mail}, fams...)
	}
	core, err := app.Build(ctx, app.Deps{Config: cfg, Log: log, Backend: b}, fams...)
	if err != nil {
		return nil, err
	}
	a.Core = core
	if err := a.collect(ctx); err != nil {
		core.Close()
		return nil, err
	}
	return a, nil
}

// collect reaches the services the families built (each is built once per core, so
// these are the ones serving) and loads the world's DNS zone.
func (a *App) collect(ctx context.Context) error {
	providers, err := integrationsapp.Build(ctx, a.Core, integrationsapp.Sealing{Name: "sealer", New: kmssecret.NewSealer})
	if err != nil {
		return err
	}
	contacts, err := contactsapp.Build(ctx, a.Core)
	if err != nil {
		return err
	}
	if a.Emails, err = emailapp.Service(ctx, a.Core); err != nil {
		return err
	}
	if a.Research, err = generationapp.Research(ctx, a.Core); err != nil {
		return err
	}
	a.Companies = a.Composer.Pipeline().Service
	a.Contacts, a.ContactSearch = contacts.Store, contacts.Search
	a.Integrations, a.SearchProviders = providers.Integrations, providers.SearchProviders
	if a.Queries, err = queriesapp.Service(ctx, a.Core); err != nil {
		return err
	}
	if a.CRM, err = crmapp.Build(ctx, a.Core); err != nil {
		return err
	}
	return a.loadWorldZone(ctx)
}

// Families are the composers of every endpoint family, in the order New composes
// them, for tests that check each family's wiring.
func Families() []app.Composer { return families(&companyapp.Composer{}) }

func families(company *companyapp.Composer) []app.Composer {
	return []app.Composer{accountapp.Composer(), queriesapp.Composer(), integrationsapp.Composer(integrationsapp.Sealing{Name: "sealer", New: kmssecret.NewSealer}),
		company, contactsapp.Composer(), emailapp.Composer(),
		generationapp.Composer(generationapp.FindEmailsWith(emailapp.ContactFinderOn)), crmapp.Composer(), datasetsapp.Composer()}
}

// openBleve opens the embedded company-name index.
func openBleve(dir string) (namematch.Index, io.Closer, error) {
	ix, err := bleveindex.Open(dir)
	if err != nil {
		return nil, nil, err
	}
	return ix, ix, nil
}

// DemoKeyFile is where a local server keeps the demo API key (mode 0600).
const DemoKeyFile = "demo-api-key"

// DemoPasswordFile is where a local server keeps the demo admin's password (mode 0600).
const DemoPasswordFile = "demo-admin-password"

// EnsureDemo makes sure the demo organisation and its key exist (local composition):
// FIRMO_DEMO_API_KEY wins, then the key saved by an earlier start, else a new key.
// The key is written to <data dir>/demo-api-key.
func (a *App) EnsureDemo(ctx context.Context) (account.Demo, error) {
	want := a.Core.Config.DemoAPIKey
	keyPath := filepath.Join(a.Core.Config.DataDir, DemoKeyFile)
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
		if err := writeSecretFile(filepath.Join(a.Core.Config.DataDir, DemoPasswordFile), d.AdminPassword); err != nil {
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
