package httpapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/ratelimit"
)

// Auth says how a route authenticates its caller.
type Auth int

const (
	// AuthRequired needs an API key (x-service-key or Authorization: Bearer) or an
	// admin app session cookie.
	AuthRequired Auth = iota
	// AuthNone serves anyone (health, API reference, login).
	AuthNone
)

// HandlerFunc handles a request and returns an error to be answered in the JSON
// error shape; it writes the response itself on success.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// Family names an endpoint family: the routes one Lambda function serves on AWS
// (template.yaml's <Family>Function) and one composer builds (shared/app/<family>app).
type Family string

// The endpoint families. A new family is added here, in Families, and in every place
// README.md's "Adding an endpoint family" lists.
const (
	FamilyAccount      Family = "account"
	FamilyGeneration   Family = "generation"
	FamilyIntegrations Family = "integrations"
	FamilyQueries      Family = "queries"
	FamilyEmail        Family = "email"
	FamilyContacts     Family = "contacts"
	FamilyCompany      Family = "company"
	FamilyDatasets     Family = "datasets"
	FamilyCRM          Family = "crm"
)

// Families lists every endpoint family.
func Families() []Family {
	return []Family{FamilyAccount, FamilyGeneration, FamilyIntegrations, FamilyQueries, FamilyEmail, FamilyContacts, FamilyCompany, FamilyDatasets, FamilyCRM}
}

// Route is one endpoint: a method and a Go 1.22 path pattern in an endpoint family.
type Route struct {
	Method string
	Path   string
	Family Family // the Lambda function serving it
	Auth   Auth
	Handle HandlerFunc
	// RateLimit is the route's base limit in requests per minute on the FREE plan (the
	// plan multiplier applies on top); 0 means the ratelimit table's figure or default.
	RateLimit int
	// SizeParams are the request parameters that bound the size of the route's answer,
	// the main one first. A platform that cannot carry a response (Lambda's
	// 6 MB, see ResponseLimit) answers 422 response_too_large naming them.
	SizeParams []string
	// MaxBody, when not 0, bounds the route's request body in place of Deps.MaxBody:
	// for a route whose largest valid request is over the default.
	MaxBody int64
}

// Pattern is the ServeMux pattern of the route.
func (r Route) Pattern() string { return r.Method + " " + r.Path }

// Authenticator resolves credentials to a caller. account.Service implements it.
type Authenticator interface {
	Authenticate(ctx context.Context, secret string) (account.Principal, error)
	SessionPrincipal(ctx context.Context, token string) (account.Principal, error)
}

// SessionCookie is the name of the admin app session cookie.
const SessionCookie = "firmo_session"

// Server assembles routes into http.Handlers: all families for the local server, one
// family for each Lambda function.
type Server struct {
	log     *slog.Logger
	auth    Authenticator
	maxBody int64
	known   func() ([]string, error) // every route pattern of every family (see Deps.Known)
	routes  []Route
	limiter ratelimit.Limiter // nil: no rate limits (see UseRateLimits)
	gate    Gate              // nil: every route is served (see UseGate)
	refunds Refunder          // nil: nothing is refunded (see Deps.Refunds)
}

// Deps are what a Server needs.
type Deps struct {
	Log     *slog.Logger
	Auth    Authenticator
	MaxBody int64 // bounds every request body
	// Known lists the patterns ("GET /v1/score") of every endpoint of the API, served
	// here or not, so a server composed of some families still tells a wrong method
	// (405) from an unknown path (404). The composition passes the API reference's
	// operations. It is called once, when the first request matches no route served
	// here, so a cold start does not parse the reference.
	Known func() ([]string, error)
	// Refunds gives back the charges of a response the platform cannot carry (422
	// response_too_large, see ResponseLimit); nil refunds nothing. billing.Service
	// implements it.
	Refunds Refunder
}

// Refunder gives back the charges made under one request (billing.Hold).
type Refunder interface {
	Refund(ctx context.Context, h *billing.Held) error
}

// NewServer makes a Server.
func NewServer(d Deps) *Server {
	return &Server{log: d.Log, auth: d.Auth, maxBody: d.MaxBody, known: d.Known, refunds: d.Refunds}
}

// Add registers routes. A duplicate pattern panics at start-up, as ServeMux does.
func (s *Server) Add(routes ...Route) { s.routes = append(s.routes, routes...) }

// Routes lists the registered routes sorted by path and method.
func (s *Server) Routes() []Route {
	out := append([]Route(nil), s.routes...)
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Method < out[j].Method
	})
	return out
}

// Families lists the families that have routes.
func (s *Server) Families() []Family {
	seen := map[Family]bool{}
	var out []Family
	for _, r := range s.routes {
		if !seen[r.Family] {
			seen[r.Family] = true
			out = append(out, r.Family)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Handler serves the routes of the given families, or of all families when none is
// given, with responses of any size (the local server).
func (s *Server) Handler(families ...Family) http.Handler {
	return s.handler(nil, families)
}

// LimitedHandler is Handler for a platform that cannot carry responses bigger than
// limit allows (AWS Lambda): such a response is answered 422 response_too_large.
func (s *Server) LimitedHandler(limit ResponseLimit, families ...Family) http.Handler {
	return s.handler(&limit, families)
}

func (s *Server) handler(limit *ResponseLimit, families []Family) http.Handler {
	want := map[Family]bool{}
	for _, f := range families {
		want[f] = true
	}
	mux := http.NewServeMux()
	var patterns []string
	for _, rt := range s.routes {
		if len(want) == 0 || want[rt.Family] {
			mux.Handle(rt.Pattern(), s.endpoint(rt))
		}
		patterns = append(patterns, rt.Pattern())
	}
	// every knows all routes of all families, so a function serving one family (and
	// API Gateway's catch-all route) still tells a wrong method (405) from an unknown
	// path. It is built on the first unmatched request.
	every := sync.OnceValue(func() *http.ServeMux { return s.everyRoute(patterns) })
	var h http.Handler = s.unmatched(mux, every)
	h = s.limitBody(s.routeOf(mux), h)
	h = s.recoverPanics(h)
	h = compress(h)
	if limit != nil {
		// Outside compress: the limit is on what the platform carries.
		h = s.limitResponse(*limit, s.routeOf(mux), h)
	}
	h = s.accessLog(h)
	return s.requestID(h)
}

// routeOf finds the route mux serves a request with.
func (s *Server) routeOf(mux *http.ServeMux) func(*http.Request) (Route, bool) {
	byPattern := map[string]Route{}
	for _, rt := range s.routes {
		byPattern[rt.Pattern()] = rt
	}
	return func(r *http.Request) (Route, bool) {
		_, pattern := mux.Handler(r)
		rt, ok := byPattern[pattern]
		return rt, ok
	}
}

// endpoint wraps a route's handler with authentication, the route its charges are
// recorded under (billing.WithRoute) and error answering.
func (s *Server) endpoint(rt Route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.gate != nil {
			if err := s.gate(rt); err != nil {
				writeGated(w, r, err)
				return
			}
		}
		if rt.Auth == AuthRequired {
			p, err := s.authenticate(r)
			if err != nil {
				w.Header().Set("WWW-Authenticate", `Bearer realm="firmo"`)
				WriteError(w, r, s.log, err)
				return
			}
			if info, ok := r.Context().Value(logInfoKey).(*logInfo); ok {
				info.orgID = p.Org.ID
			}
			// The route's pattern is what its charges are recorded under, here and in
			// the tasks it submits: the one place that names the ledger's endpoint.
			ctx := billing.WithRoute(context.WithValue(r.Context(), principalKey, p), rt.Pattern())
			r = r.WithContext(ctx)
			if err := s.rateLimit(w, r, rt, p); err != nil {
				WriteError(w, r, s.log, err)
				return
			}
			w.Header().Set(HeaderCreditsCharged, "0") // handlers that charge overwrite it
		}
		if err := rt.Handle(w, r); err != nil {
			WriteError(w, r, s.log, err)
		}
	})
}

func (s *Server) authenticate(r *http.Request) (account.Principal, error) {
	if key := strings.TrimSpace(r.Header.Get("x-service-key")); key != "" {
		return s.auth.Authenticate(r.Context(), key)
	}
	if h := strings.TrimSpace(r.Header.Get("Authorization")); h != "" {
		scheme, token, ok := strings.Cut(h, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
			return account.Principal{}, apperr.New(apperr.ErrUnauthorized, "The Authorization header must be of the form: Bearer <API key>.")
		}
		return s.auth.Authenticate(r.Context(), strings.TrimSpace(token))
	}
	if c, err := r.Cookie(SessionCookie); err == nil && c.Value != "" {
		return s.auth.SessionPrincipal(r.Context(), c.Value)
	}
	return account.Principal{}, apperr.New(apperr.ErrUnauthorized, "A valid API key is required: send it in the x-service-key header or as Authorization: Bearer <key>.")
}

// Caller returns the authenticated caller of a request served by an AuthRequired route.
func Caller(r *http.Request) account.Principal {
	p, _ := r.Context().Value(principalKey).(account.Principal)
	return p
}

// everyRoute is a mux of the given patterns and every known one, each answering 404
// (its only use is telling a wrong method from an unknown path). Without the known
// list it holds the given patterns alone, and says so in the log.
func (s *Server) everyRoute(patterns []string) *http.ServeMux {
	known := map[string]bool{}
	for _, p := range patterns {
		known[p] = true
	}
	if s.known != nil {
		all, err := s.known()
		if err != nil {
			s.log.Error("known routes unavailable; wrong methods on other families' paths answer 404", "err", err)
		}
		for _, p := range all {
			known[p] = true
		}
	}
	every := http.NewServeMux()
	for p := range known {
		every.Handle(p, http.NotFoundHandler())
	}
	return every
}

// unmatched answers unknown paths (404) and wrong methods (405, with Allow) in the
// JSON error shape instead of ServeMux's plain text.
func (s *Server) unmatched(mux *http.ServeMux, every func() *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pattern := mux.Handler(r); pattern != "" {
			mux.ServeHTTP(w, r)
			return
		}
		h, pattern := every().Handler(r)
		rec := &recorder{header: http.Header{}}
		h.ServeHTTP(rec, r)
		if pattern != "" {
			// A route of another family: served by another function on AWS.
			rec.status = http.StatusNotFound
		}
		switch rec.status {
		case http.StatusNotFound:
			WriteError(w, r, s.log, apperr.NotFound("No endpoint matches %s %s; see /v1/openapi.json for the API reference.", r.Method, r.URL.Path))
		case http.StatusMethodNotAllowed:
			w.Header().Set("Allow", rec.header.Get("Allow"))
			WriteError(w, r, s.log, &apperr.Error{Kind: apperr.ErrMethod, Message: fmt.Sprintf("%s is not allowed on %s; allowed: %s.", r.Method, r.URL.Path, rec.header.Get("Allow"))})
		default: // redirects to a cleaned path
			for k, v := range rec.header {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.status)
			w.Write(rec.body.Bytes())
		}
	})
}

type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}
func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}

// limitBody bounds the request body by the route's MaxBody, else the server's.
func (s *Server) limitBody(routeOf func(*http.Request) (Route, bool), next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limit := s.maxBody
		if rt, ok := routeOf(r); ok && rt.MaxBody > 0 {
			limit = rt.MaxBody
		}
		if r.ContentLength > limit {
			WriteError(w, r, s.log, &apperr.Error{Kind: apperr.ErrTooLarge, Message: fmt.Sprintf("The request body is larger than %d bytes.", limit)})
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		next.ServeHTTP(w, r)
	})
}

func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.ErrorContext(r.Context(), "panic", "request_id", RequestID(r.Context()), "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				WriteError(w, r, s.log, errors.New("panic recovered"))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

type logInfo struct{ orgID string }

const logInfoKey ctxKey = 100

type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (s *Server) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		info := &logInfo{}
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), logInfoKey, info)))
		s.log.LogAttrs(r.Context(), slog.LevelInfo, "request",
			slog.String("request_id", RequestID(r.Context())),
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
			slog.Int("status", sw.status),
			slog.Int("bytes", sw.bytes),
			slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
			slog.String("org_id", info.orgID),
		)
	})
}

func (s *Server) requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rid := r.Header.Get("x-request-id")
		if !validRequestID(rid) {
			rid = newRequestID()
		}
		w.Header().Set("x-request-id", rid)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ridKey, rid)))
	})
}

func validRequestID(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c == '-' || c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

func newRequestID() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}
