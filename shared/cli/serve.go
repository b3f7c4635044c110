package cli

import (
	"context"
	"errors"
	"fmt"
	flag "github.com/spf13/pflag"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/app/patternsapp"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/httpapi"
)

// serve runs `firmo serve`. It listens before loading anything slow: on a first start
// the demo world is seeded in the background while /healthz answers, /readyz and the
// routes that need the world answer 503 with Retry-After (README "The demo world").
func serve(ctx context.Context, env Env) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(env.Stdout) // only the help page (--help) is printed through it
	if _, err := parseArgs(fs, env.Args[1:]); err != nil {
		return err
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
	if cfg.CRM.Fakes {
		stopFakes, err := crmDemo(&cfg, env.Stdout)
		if err != nil {
			return err
		}
		defer stopFakes()
	}

	a, err := allapp.NewLocal(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer a.Close()
	demo, err := a.EnsureDemo(ctx)
	if err != nil {
		return fmt.Errorf("demo organisation: %w", err)
	}
	seedNow, err := needsSeeding(ctx, a, cfg)
	if err != nil {
		return err
	}
	ready := &readiness{}
	ready.set(startPhase(seedNow))
	a.Core.Server.UseGate(ready.gate)
	// Task workers run until shutdown drains them; unfinished tasks resume here.
	if err := a.StartTasks(context.Background()); err != nil {
		return err
	}

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("listen on %s: %w (another program is using the port: set FIRMO_ADDR, e.g. FIRMO_ADDR=:8081, and FIRMO_URL=http://localhost:8081 for the firmo commands)", cfg.Addr, err)
		}
		return fmt.Errorf("listen on %s: %w", cfg.Addr, err)
	}
	srv := newHTTPServer(a.Handler(), cfg)
	adm := listenAdmin(cfg.DataDir, a, log)
	printBanner(env.Stdout, ln.Addr().String(), cfg.DataDir, demo)

	errc := make(chan error, 3)
	go func() { errc <- fmt.Errorf("serve: %w", srv.Serve(ln)) }()
	if adm != nil {
		go func() {
			if err := adm.serve(); err != nil {
				errc <- fmt.Errorf("serve the admin socket: %w", err)
			}
		}()
	}
	bg := startBackground(ctx, env, a, cfg, log, ready, seedNow, errc)

	var runErr error
	select {
	case runErr = <-errc:
	case <-ctx.Done():
	}
	log.Info("shutting down", "timeout", cfg.ShutdownWait.String())
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownWait)
	defer cancel()
	shutdownErr := srv.Shutdown(sctx)
	if adm != nil {
		adm.close(sctx)
	}
	bg.stop()
	if err := a.StopTasks(sctx); err != nil {
		log.Warn("task records still running at shutdown resume at the next start", "err", err)
	}
	if runErr != nil {
		return runErr
	}
	if shutdownErr != nil {
		return fmt.Errorf("graceful shutdown: %w", shutdownErr)
	}
	log.Info("stopped")
	return nil
}

// newHTTPServer is the API's server: headers within 10 s, each body within
// cfg.BodyTimeout after them (FIRMO_BODY_TIMEOUT), idle connections closed after 2
// minutes.
func newHTTPServer(h http.Handler, cfg config.Config) *http.Server {
	return &http.Server{Handler: bodyDeadline(h, cfg.BodyTimeout), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
}

// bodyDeadline gives a request's body d to arrive in full after its headers, so a
// client trickling a body cannot hold a connection and a handler. http.Server's
// ReadTimeout would bound it too, but its deadline stays on the connection while the
// handler runs, and when it fires during the server's background read it cancels the
// request's context: a search running longer than the timeout would be cut. Here the
// deadline is lifted as soon as the body has been read.
func bodyDeadline(next http.Handler, d time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		rc := http.NewResponseController(w)
		if err := rc.SetReadDeadline(time.Now().Add(d)); err == nil {
			r.Body = &deadlineBody{ReadCloser: r.Body, lift: func() { rc.SetReadDeadline(time.Time{}) }}
		}
		next.ServeHTTP(w, r)
	})
}

// deadlineBody lifts the read deadline once the body has been read to its end.
type deadlineBody struct {
	io.ReadCloser
	lift   func()
	lifted bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.lifted {
		b.lifted = true
		b.lift()
	}
	return n, err
}

// phase is what a starting server still loads: the message of its 503 answers and
// the families and routes it holds back.
type phase struct {
	message  string
	families map[httpapi.Family]bool
	paths    map[string]bool // single routes held back beyond the families
}

// startPhase is the phase a server starts in: seeding on a first start; on a restart
// the stored world is complete but the name index may be missing or behind the store
// (companies ingested while the server was stopped) and contact search loads afresh, so
// the same routes wait as after seeding.
func startPhase(seedNow bool) *phase {
	if seedNow {
		return seedingPhase()
	}
	return indexingPhase(false)
}

// seedingPhase holds back every family that reads the company or contact store (or
// the world's DNS zone); accounts, keys, saved queries and integrations answer.
func seedingPhase() *phase {
	return &phase{
		message: "The demo world is being loaded (first start); retry after the time given in Retry-After.",
		families: map[httpapi.Family]bool{httpapi.FamilyCompany: true, httpapi.FamilyContacts: true,
			httpapi.FamilyEmail: true, httpapi.FamilyGeneration: true},
	}
}

// startKind names a start in the 503 messages.
func startKind(first bool) string {
	if first {
		return "first start"
	}
	return "restart"
}

// indexingPhase holds back contact search while its index is built once, instead of
// letting each search wait for (and start) the build, and company-name matching while
// the name index is synced with the store: a match read from a half-filled index (a
// first start, or a restart whose index file was missing) would answer "no match" for
// companies the store has.
func indexingPhase(first bool) *phase {
	return &phase{
		message:  "Contact search and the company-name index are being loaded (" + startKind(first) + "); retry after the time given in Retry-After.",
		families: map[httpapi.Family]bool{httpapi.FamilyContacts: true},
		paths:    map[string]bool{"/v1/match": true, "/v1/bulkmatch": true},
	}
}

// contactsPhase is indexingPhase once the name index is synced: only contact search
// still waits.
func contactsPhase(first bool) *phase {
	return &phase{
		message:  "Contact search is being indexed (" + startKind(first) + "); retry after the time given in Retry-After.",
		families: map[httpapi.Family]bool{httpapi.FamilyContacts: true},
	}
}

// readinessRetry is the Retry-After of a 503 while loading.
const readinessRetry = 5 * time.Second

// readiness is the start-up gate of `firmo serve` (httpapi.Gate): /readyz and the
// families of the current phase answer 503 until the phase is nil.
type readiness struct{ cur atomic.Pointer[phase] }

func (r *readiness) set(p *phase) { r.cur.Store(p) }

func (r *readiness) gate(rt httpapi.Route) error {
	p := r.cur.Load()
	if p == nil || (rt.Path != "/readyz" && !p.families[rt.Family] && !p.paths[rt.Path]) {
		return nil
	}
	return &apperr.Error{Kind: apperr.ErrUnavailable, Message: p.message, RetryAfter: readinessRetry}
}

// background is the start-up work that runs while the server answers.
type background struct {
	cancel context.CancelFunc
	done   chan struct{}
	mu     sync.Mutex
	stops  []func()
}

// startBackground seeds the demo world when seedNow (errors go to errc, every company
// derived in full as it is stored), brings the name index up to date, learns the email
// pattern book and loads contact search, all before ready: at the first 200 from
// /readyz every read answers what it will answer once the start has settled (README
// "The demo world"). Contact search is searchable by exact scans from then on while its
// HNSW graph is built after ready (or loaded when persisted by an earlier start). The
// verification pass of the stored contacts' addresses starts at ready, beside the
// graph; the company reprocessing job after the graph, so neither competes with the
// start for the CPU.
func startBackground(ctx context.Context, env Env, a *allapp.App, cfg config.Config, log *slog.Logger, ready *readiness, seedNow bool, errc chan<- error) *background {
	ctx, cancel := context.WithCancel(ctx)
	bg := &background{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(bg.done)
		start := time.Now()
		if seedNow {
			if err := seedOnFirstStart(ctx, env, a, cfg); err != nil {
				if ctx.Err() == nil {
					errc <- err
				}
				return
			}
			ready.set(indexingPhase(true))
		}
		namesSynced := func() { ready.set(contactsPhase(seedNow)) }
		graph, err := loadBeforeReady(ctx, a, log, namesSynced)
		if err != nil {
			if ctx.Err() == nil {
				log.Error("contact search index", "err", err)
			}
		} else {
			log.Info("contact search loaded", "took", time.Since(start).Round(time.Millisecond).String())
		}
		if seedNow && ctx.Err() == nil {
			fmt.Fprintf(env.Stderr, "Ready: the demo world is seeded and derived, names indexed and contact search loaded in %s (GET /readyz answers 200).\n", time.Since(start).Round(100*time.Millisecond))
		}
		ready.set(nil)
		if ctx.Err() != nil {
			return
		}
		bg.mu.Lock()
		// The company-name index follows the company store every reprocessing interval
		// (its first pass ran before ready); email_validated comes from a real SMTP
		// verification of the stored contacts' addresses, resumed where the last run
		// stopped, then on the reprocessing schedule. Neither changes any other answer.
		bg.stops = append(bg.stops, a.StartNameSync(ctx, cfg.ReprocessEvery, log), a.StartEmailChecks(ctx, cfg.ReprocessEvery, log))
		bg.mu.Unlock()
		if err == nil {
			// Searches scan every vector exactly until the graph is in (milliseconds for
			// the demo world); building it took 8 to 11 of the 49 to 56 CPU seconds a
			// first start spent before ready when ready waited for it (README "The demo
			// world"). The graph changes no answer of the demo world's size.
			gstart := time.Now()
			if err := graph(ctx); err != nil {
				if ctx.Err() == nil {
					log.Error("contact search graph", "err", err)
				}
			} else {
				log.Info("contact search graph built", "took", time.Since(gstart).Round(time.Millisecond).String())
			}
		}
		if ctx.Err() == nil {
			// After ready and the graph: rescoring and stale-field refreshing on a timer.
			// On a first start every company was derived while seeded, so its first pass
			// changes nothing.
			bg.mu.Lock()
			bg.stops = append(bg.stops, a.StartReprocessing(ctx, cfg.ReprocessEvery, log))
			bg.mu.Unlock()
		}
	}()
	return bg
}

// loadBeforeReady is what stands between a loaded store and ready: the company-name
// index synced with the store (rebuilt when missing; picks up companies seeded or
// ingested while stopped), the email pattern book learned (contact search's
// email_pattern answers from it) and contact search loaded (Prepare: its contacts
// with their companies' current fields, embedded). The three run at once: loading
// contact search runs mostly on one core. namesSynced is called once the name index
// is synced (before loadBeforeReady returns). It returns Prepare's graph builder.
func loadBeforeReady(ctx context.Context, a *allapp.App, log *slog.Logger, namesSynced func()) (graph func(context.Context) error, err error) {
	side := make(chan struct{}, 2)
	go func() {
		defer func() { side <- struct{}{} }()
		start := time.Now()
		rep, err := a.SyncNames(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			log.Error("company-name index sync", "err", err)
		case rep.Indexed > 0 || rep.Deleted > 0:
			log.Info("company-name index sync", "companies", rep.Companies, "indexed", rep.Indexed, "deleted", rep.Deleted, "took", time.Since(start).Round(time.Millisecond).String())
		}
		if err == nil {
			namesSynced()
		}
	}()
	go func() {
		defer func() { side <- struct{}{} }()
		if err := patternsapp.Book(a.Core).Refresh(ctx); err != nil && ctx.Err() == nil {
			log.Warn("email pattern book", "err", err)
		}
	}()
	graph, err = a.ContactSearch.Prepare(ctx)
	<-side
	<-side
	if graph == nil {
		graph = func(context.Context) error { return nil }
	}
	return graph, err
}

// stop ends the start-up work and the jobs it started, before the store closes.
func (bg *background) stop() {
	bg.cancel()
	<-bg.done
	bg.mu.Lock()
	defer bg.mu.Unlock()
	for i := len(bg.stops) - 1; i >= 0; i-- {
		bg.stops[i]()
	}
}

func printBanner(w io.Writer, addr, dataDir string, d account.Demo) {
	host := addr
	if strings.HasPrefix(host, "[::]:") || strings.HasPrefix(host, "0.0.0.0:") {
		host = "localhost:" + host[strings.LastIndex(host, ":")+1:]
	}
	keyFile := filepath.Join(dataDir, allapp.DemoKeyFile)
	fmt.Fprintf(w, "Firmo is serving on http://%s (data in %s)\n", host, dataDir)
	// The key is a secret: shown once, when this start issued it (README "Two
	// commands"); later starts point at the file instead of printing it into logs.
	if d.KeyCreated {
		fmt.Fprintf(w, "Demo organisation %q (plan %s). Demo API key (shown once; kept in %s):\n\n    %s\n\n", d.Org.Name, d.Org.Plan, keyFile, d.Key)
	} else {
		fmt.Fprintf(w, "Demo organisation %q (plan %s). Demo API key in %s\n", d.Org.Name, d.Org.Plan, keyFile)
	}
	if d.AdminPassword != "" {
		fmt.Fprintf(w, "Admin app sign-in: %s, password in %s/%s\n", account.DemoAdminEmail, dataDir, allapp.DemoPasswordFile)
	}
	fmt.Fprintf(w, "Try: curl -H \"x-service-key: $(cat %s)\" http://%s/v1/account\nAPI reference: http://%s/docs\n", keyFile, host, host)
}
