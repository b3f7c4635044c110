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
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/contactsearch"
	"github.com/firmoapi/firmo/shared/dnsmx"
	"github.com/firmoapi/firmo/shared/emailfind"
	"github.com/firmoapi/firmo/shared/extract"
	"github.com/firmoapi/firmo/shared/fetch"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/integration"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/kv/dynamokv"
	"github.com/firmoapi/firmo/shared/openapi"
	"github.com/firmoapi/firmo/shared/query"
	"github.com/firmoapi/firmo/shared/ratelimit"
	"github.com/firmoapi/firmo/shared/ratelimit/kvlimit"
	"github.com/firmoapi/firmo/shared/ratelimit/memlimit"
	"github.com/firmoapi/firmo/shared/smtpverify"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/memqueue"
	"github.com/firmoapi/firmo/shared/task/sfnflow"
	"github.com/firmoapi/firmo/shared/task/sqsqueue"
	"github.com/firmoapi/firmo/shared/websearch"
)

// App holds the built services.
type App struct {
	Config   config.Config
	Log      *slog.Logger
	Store    kv.Store
	Accounts *account.Service
	Server   *httpapi.Server
	// Tasks is the async task engine; kinds register on Tasks.Kinds() before StartTasks.
	Tasks *task.Engine
	// Billing charges credits (Charge) and keeps the ledger; Queries holds saved queries
	// (Resolve and Scope for inclusion/exclusion lists, SaveSearch for contact search).
	Billing *billing.Service
	Queries *query.Service
	// Emails runs email finding jobs (kind email_find); Emails' Finder finds one
	// address synchronously (contact generation's find_emails).
	Emails *emailfind.Service
	// Integrations holds LLM integrations (Resolve, Judge) and SearchProviders the
	// organisations' web search providers (Resolve); see integrations.go.
	Integrations    *integration.Service
	SearchProviders *websearch.Service
	// Companies holds company data: profiles, certificates, pages, the derivation
	// pipeline and the reprocessing job (see company.go in this package).
	Companies *company.Service
	// Contacts holds contact records; ContactSearch answers the contacts family.
	Contacts      *contact.Store
	ContactSearch *contactsearch.Service

	worldZone *dnsmx.MapZone // the demo world's DNS zone; nil on AWS
	worldDNS  *dnsmx.Server
	names     nameParts // company-name matching (see match.go in this package)

	local *localTasks // the embedded queue and workflow; nil on AWS
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
	cluster, err := openSearchClient(ctx, cfg, nil)
	if err != nil {
		return nil, err
	}
	store, err := boltkv.Open(filepath.Join(cfg.DataDir, "firmo.db"))
	if err != nil {
		return nil, err
	}
	return build(cfg, log, store, newLocalTasks(log), cluster)
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
	cluster, err := openSearchClient(ctx, cfg, &awsCfg)
	if err != nil {
		return nil, err
	}
	a, err := build(cfg, log, dynamokv.New(ddb, cfg.AWS.Table), awsTasks(cfg, awsCfg), cluster)
	if err != nil {
		return nil, err
	}
	if cfg.AWS.TestTaskKinds {
		if err := a.registerTestKinds(); err != nil {
			a.Close()
			return nil, err
		}
	}
	return a, nil
}

// awsTasks is the task runtime on AWS: records go to the SQS queue (functions/worker
// consumes it) and tasks run as Step Functions executions (functions/steps). A function
// without FIRMO_QUEUE_URL or FIRMO_STATE_MACHINE_ARN serves status and cancel but
// refuses submissions (503).
func awsTasks(cfg config.Config, awsCfg aws.Config) taskRuntime {
	rt := taskRuntime{opts: lambdaTaskOptions()}
	if cfg.AWS.QueueURL != "" {
		client := sqs.NewFromConfig(awsCfg, func(o *sqs.Options) {
			if cfg.AWS.SQSEndpoint != "" {
				o.BaseEndpoint = aws.String(cfg.AWS.SQSEndpoint)
			}
		})
		rt.queue = sqsqueue.New(client, cfg.AWS.QueueURL)
	}
	if cfg.AWS.StateMachineARN != "" {
		client := sfn.NewFromConfig(awsCfg, func(o *sfn.Options) {
			if cfg.AWS.SFNEndpoint != "" {
				o.BaseEndpoint = aws.String(cfg.AWS.SFNEndpoint)
			}
		})
		rt.flow = sfnflow.New(client, cfg.AWS.StateMachineARN, cfg.AWS.TaskPoll)
	}
	return rt
}

// build composes the services; cluster is the OpenSearch client, nil when none is
// configured (see opensearch.go).
func build(cfg config.Config, log *slog.Logger, store kv.Store, rt taskRuntime, cluster *opensearchapi.Client) (*App, error) {
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
	taskOpts := rt.opts
	taskOpts.Log = log
	tasks := task.New(store, task.NewRegistry(), rt.queue, rt.flow, task.NewLimiter(nil, taskConcurrency), taskOpts)
	srv.Add(httpapi.GenerationRoutes(tasks)...)
	credits, queries := billing.New(store), query.New(store)
	srv.UseRateLimits(rateLimiter(cfg, store))
	srv.Add(httpapi.UsageRoutes(credits, time.Now)...)
	srv.Add(httpapi.QueryRoutes(queries)...)
	// The finder tries each company's pattern from the contact index, which is built below.
	patterns := &lazyPatterns{}
	verifier := smtpverify.New(smtpverify.Settings{Resolver: cfg.DNSResolver, Port: cfg.SMTP.Port, HELO: cfg.SMTP.HELO, From: cfg.SMTP.From})
	emails, err := emailfind.NewService(store, tasks, emailfind.NewFinder(verifier, patterns, 0, 0), credits, accounts, log)
	if err != nil {
		store.Close()
		return nil, fmt.Errorf("email finder: %w", err)
	}
	srv.Add(httpapi.EmailRoutes(emails)...)
	companies, err := buildCompanies(cfg, store)
	if err != nil {
		store.Close()
		return nil, err
	}
	srv.Add(httpapi.CompanyRoutes(companies.svc)...)
	// Page extraction (STARTER plan and up) fetches through the guarded client and
	// prefers the homepage the company store holds; the industry list is static.
	srv.Add(httpapi.ExtractRoutes(fetch.New(fetch.Options{AllowHosts: cfg.FetchAllowHosts}), extract.New(), companies.svc)...)
	srv.Add(httpapi.IndustryRoutes()...)
	integrations, searchProviders, err := buildIntegrations(cfg, store, companies.svc.Store())
	if err != nil {
		if companies.dns != nil {
			companies.dns.Close()
		}
		store.Close()
		return nil, err
	}
	srv.Add(httpapi.IntegrationRoutes(integrations)...)
	srv.Add(httpapi.SearchProviderRoutes(searchProviders)...)
	srv.Add(httpapi.ModelRoutes(integrations)...)
	contacts, contactSearch, err := buildContacts(cfg, cluster, store, companies.svc.Store(), queries, credits, promptReader(integrations, log))
	if err != nil {
		if companies.dns != nil {
			companies.dns.Close()
		}
		store.Close()
		return nil, err
	}
	researchSvc, err := buildResearch(tasks, integrations, searchProviders, companies.svc, contacts, credits, accounts, log)
	if err != nil {
		if companies.dns != nil {
			companies.dns.Close()
		}
		store.Close()
		return nil, err
	}
	srv.Add(httpapi.ProcessRoutes(researchSvc)...)
	names, err := buildNames(cfg, cluster, companies.svc.Store(), tasks, store, credits)
	if err != nil {
		if companies.dns != nil {
			companies.dns.Close()
		}
		store.Close()
		return nil, err
	}
	srv.Add(httpapi.MatchRoutes(names.matcher, names.bulk, credits)...)
	patterns.source = contactSearch
	srv.Add(httpapi.ContactRoutes(contactSearch)...)
	return &App{Config: cfg, Log: log, Store: store, Accounts: accounts, Server: srv, Tasks: tasks, Billing: credits, Queries: queries, Emails: emails, local: rt.local,
		Companies: companies.svc, worldZone: companies.zone, worldDNS: companies.dns,
		Integrations: integrations, SearchProviders: searchProviders, names: names,
		Contacts: contacts, ContactSearch: contactSearch}, nil
}

// rateLimiter counts requests in process locally (one process serves everything) and in
// DynamoDB on AWS, where every Lambda instance must see the same counts.
func rateLimiter(cfg config.Config, store kv.Store) ratelimit.Limiter {
	if cfg.Backend == config.BackendAWS {
		return kvlimit.New(store, time.Now)
	}
	return memlimit.New(time.Now)
}

// taskConcurrency bounds the records of one provider running at once (each provider
// gets its own lane of that many workers in the embedded queue).
const taskConcurrency = 50

// taskRuntime is the task engine's queue and workflow for one composition.
type taskRuntime struct {
	queue task.Queue
	flow  task.Workflow
	opts  task.Options // Log is set by build
	local *localTasks
}

// localTasks is the embedded runtime: in-process queue and workflow, started by
// StartTasks. Nothing in them is persisted: unfinished tasks resume from the store.
type localTasks struct {
	queue   *memqueue.Queue
	flow    *memqueue.Workflow
	started bool
}

func newLocalTasks(log *slog.Logger) taskRuntime {
	q := memqueue.New(memqueue.Options{Workers: taskConcurrency, Log: log})
	f := memqueue.NewWorkflow(memqueue.FlowOptions{Log: log})
	return taskRuntime{queue: q, flow: f, local: &localTasks{queue: q, flow: f}}
}

// StartTasks runs the embedded task workers and resumes every unfinished task (after a
// crash, the records without an answer are enqueued again). On AWS, SQS and Step
// Functions run tasks and this does nothing.
func (a *App) StartTasks(ctx context.Context) error {
	if a.local == nil || a.local.started {
		return nil
	}
	a.local.started = true
	a.local.queue.Run(a.Tasks)
	a.local.flow.Run(a.Tasks)
	n, err := a.Tasks.Resume(ctx)
	if err != nil {
		return fmt.Errorf("resume unfinished tasks: %w", err)
	}
	if n > 0 {
		a.Log.Info("resumed unfinished tasks", "tasks", n)
	}
	return nil
}

// StopTasks stops the embedded workflows and lets in-flight records finish until ctx
// ends; records cut short write nothing and are redone at the next start.
func (a *App) StopTasks(ctx context.Context) error {
	if a.local == nil {
		return nil
	}
	a.local.flow.Close()
	return a.local.queue.Close(ctx)
}

// Handler serves the given endpoint families, or all of them.
func (a *App) Handler(families ...string) http.Handler { return a.Server.Handler(families...) }

// Close releases the app's resources, stopping the task workers first.
func (a *App) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	a.StopTasks(ctx)
	if a.worldDNS != nil {
		a.worldDNS.Close()
	}
	a.names.close()
	return a.Store.Close()
}

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

// lazyPatterns lets the email finder, built before the contact index, use it.
type lazyPatterns struct{ source emailfind.PatternSource }

func (l *lazyPatterns) CompanyPattern(ctx context.Context, domain string) (emailfind.Pattern, bool, error) {
	if l.source == nil {
		return emailfind.Pattern{}, false, nil
	}
	return l.source.CompanyPattern(ctx, domain)
}
