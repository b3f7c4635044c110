// Package client is Firmo's Go client: one Client per base URL and API key, a call per
// API operation (the typed methods in this package), retries of 429 and 503 answers that
// honour Retry-After, an x-request-id on every call, and Wait, which polls a task's
// status route until it finishes.
//
// Every typed method is built on Do, which any caller may use for a route this package
// does not cover yet. Each returns its decoded answer, the *Response (request id,
// credits charged, attempts, headers) and an error (*Error for a non-2xx answer).
// RunTask and the ...AndWait methods submit a task, poll it with backoff and return
// the finished result, or the interim one with ErrNotFinished when ctx ends first.
//
// The types come from the API reference (openapi.json here, the document every Firmo
// server serves at /v1/openapi.json and shows at /docs): package api holds the types
// oapi-codegen v2.8.2 generates from it, and the answers named in types.go are those
// types. The rest of the request and response types are written for a Go caller
// (plain values where the reference's optional properties would be pointers, Go lists
// where it has "a list or one value" unions, an Order kept from the answer's JSON), and
// tests hold them to the generated types and to the reference: Operations covers
// exactly its operations, each method calls its operation's method and path, and every
// JSON field of every request and response type is a property of the operation's
// schema, with its required properties present.
//
// This is its own Go module (github.com/firmoapi/firmo/shared/client) and needs the
// standard library only: no require line, no go.sum. Its go line, 1.22, is the oldest
// Go it builds with: the code ranges over integers and jitters its backoff with
// math/rand/v2, both new in Go 1.22, and `go vet` (whose stdversion check reports any
// standard library API newer than the go line) passes at 1.22. oapi-codegen's own
// output would need github.com/oapi-codegen/runtime: its client code needs v1.9.0, whose
// go line is 1.26; its types need only runtime's JSON merge for unions, which v1.3.1 to
// v1.8.0 (go 1.24) have too, but those require gin, echo and iris, whose go.mod lines
// would reach a user's go.sum. So api's types are generated with standard library types
// and a union template of their own (api/union.tmpl), and need no runtime at all.
package client

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// DefaultBaseURL is the address `make run` serves on.
const DefaultBaseURL = "http://localhost:8080"

// Environment variables read by ConfigFromEnv.
const (
	EnvURL    = "FIRMO_URL"
	EnvAPIKey = "FIRMO_API_KEY"
)

// Config configures a Client.
type Config struct {
	// BaseURL is the server's address, such as https://api.example.com (default
	// DefaultBaseURL). A path prefix is kept: routes are appended to it.
	BaseURL string
	// APIKey is sent as Authorization: Bearer <key>.
	APIKey string
	// HTTPClient sends the requests (default: a client with a 5-minute timeout).
	HTTPClient *http.Client
	// Retries is how many times a 429 or 503 answer, or a connection refused or reset
	// before any answer, is retried (default 4; negative: never).
	Retries int
	// MaxRetryWait caps one wait between retries (default 2 minutes). A Retry-After
	// longer than this is not waited out: the 429 or 503 is returned as an *Error.
	MaxRetryWait time.Duration
	// UserAgent is sent as User-Agent (default "firmo-go-client").
	UserAgent string
	// Session, when set and APIKey is not, is sent as the admin app session cookie
	// (the value Login returns).
	Session string
	// OnRetry, when set, is called before each wait between retries, so a program can
	// say why it waits (the firmo command prints "retrying in N s (reason)").
	OnRetry func(Retry)
}

// Retry is one wait between two attempts of a call.
type Retry struct {
	Method, Path string
	// Attempt is the attempt that failed (1 for the first).
	Attempt int
	// Wait is how long the client waits before the next attempt.
	Wait time.Duration
	// Reason is what failed: "429 rate_limited", "503", "connection refused", ...
	Reason string
	// Err is the failure: an *Error for an answer, else the transport error.
	Err error
}

// ConfigFromEnv reads FIRMO_URL and FIRMO_API_KEY through getenv (os.Getenv in a
// program); unset values keep their defaults.
func ConfigFromEnv(getenv func(string) string) Config {
	return Config{BaseURL: strings.TrimSpace(getenv(EnvURL)), APIKey: strings.TrimSpace(getenv(EnvAPIKey))}
}

// Client calls one Firmo server. It is safe for concurrent use.
type Client struct {
	base    *url.URL
	key     string
	hc      *http.Client
	retries int
	maxWait time.Duration
	agent   string
	session string
	onRetry func(Retry)
	// sleep waits d or until ctx ends (tests replace it).
	sleep func(ctx context.Context, d time.Duration) error
}

// New returns a client for cfg. A BaseURL that is not an absolute http or https URL is
// an error.
func New(cfg Config) (*Client, error) {
	raw := cfg.BaseURL
	if raw == "" {
		raw = DefaultBaseURL
	}
	u, err := url.Parse(strings.TrimRight(raw, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("client: base URL %q must be an absolute http or https URL", raw)
	}
	c := &Client{base: u, key: cfg.APIKey, hc: cfg.HTTPClient, retries: cfg.Retries, maxWait: cfg.MaxRetryWait, agent: cfg.UserAgent, session: cfg.Session, onRetry: cfg.OnRetry, sleep: sleepCtx}
	if c.hc == nil {
		c.hc = &http.Client{Timeout: 5 * time.Minute}
	}
	if c.retries == 0 {
		c.retries = 4
	}
	if c.retries < 0 {
		c.retries = 0
	}
	if c.maxWait <= 0 {
		c.maxWait = 2 * time.Minute
	}
	if c.agent == "" {
		c.agent = "firmo-go-client"
	}
	return c, nil
}

// BaseURL is the server address the client calls.
func (c *Client) BaseURL() string { return c.base.String() }

// Call is one request.
type Call struct {
	Method string
	// Path is the route, such as /v1/contacts; path parameters already filled in
	// (escape them with url.PathEscape).
	Path  string
	Query url.Values
	// JSON, when not nil, is encoded as the JSON body.
	JSON any
	// Body is a raw body sent with ContentType (a multipart form, for example) when JSON
	// is nil. It is a byte slice so that a retry can send it again.
	Body        []byte
	ContentType string
	// Accept is sent as Accept (default application/json).
	Accept string
	// RequestID is sent as x-request-id (default: a new random id per call, the same
	// on each retry of it).
	RequestID string
}

// Response is a 2xx answer.
type Response struct {
	Status    int
	Header    http.Header
	Body      []byte
	RequestID string
	// Credits is the X-Credits-Charged header: what this call was charged (0 when the
	// header is absent).
	Credits int64
	// Attempts is how many requests the call took (1 without retries).
	Attempts int
}

// Decode decodes the JSON body into v.
func (r *Response) Decode(v any) error {
	if err := json.Unmarshal(r.Body, v); err != nil {
		return fmt.Errorf("client: decode %d answer (request %s): %w", r.Status, r.RequestID, err)
	}
	return nil
}

// Error is a non-2xx answer in the API's one JSON error shape
// ({"error": {"code", "message", "field", "request_id"}}).
type Error struct {
	Status    int
	Code      string
	Message   string
	Field     string
	RequestID string
	// RetryAfter is the Retry-After header of a 429 or 503 (0 when absent).
	RetryAfter time.Duration
	// Credits is the X-Credits-Charged header.
	Credits int64
	// Body is the raw answer, for answers that are not the error shape.
	Body []byte
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "firmo: %d", e.Status)
	if e.Code != "" {
		fmt.Fprintf(&b, " %s", e.Code)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, " (field %s)", e.Field)
	}
	if e.Message != "" {
		fmt.Fprintf(&b, ": %s", e.Message)
	} else if len(e.Body) > 0 {
		fmt.Fprintf(&b, ": %.200s", strings.TrimSpace(string(e.Body)))
	}
	if e.RequestID != "" {
		fmt.Fprintf(&b, " [request %s]", e.RequestID)
	}
	return b.String()
}

// Retryable reports whether the same call may succeed later: 429 and 503 (and 502 and
// 504 from a gateway in front of the API).
func (e *Error) Retryable() bool { return retryableStatus(e.Status) }

// IsRetryable reports whether err is an *Error that is retryable.
func IsRetryable(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Retryable()
}

func retryableStatus(s int) bool {
	return s == http.StatusTooManyRequests || s == http.StatusServiceUnavailable || s == http.StatusBadGateway || s == http.StatusGatewayTimeout
}

// Do sends call, retrying 429 and 503 answers (waiting out Retry-After, else backing
// off exponentially from one second) up to the configured number of retries. A 2xx
// answer is returned as a Response; any other as an *Error.
func (c *Client) Do(ctx context.Context, call Call) (*Response, error) {
	body, ctype := call.Body, call.ContentType
	if call.JSON != nil {
		var err error
		if body, err = json.Marshal(call.JSON); err != nil {
			return nil, fmt.Errorf("client: encode %s %s body: %w", call.Method, call.Path, err)
		}
		ctype = "application/json"
	}
	rid := call.RequestID
	if rid == "" {
		rid = newRequestID()
	}
	target := c.url(call.Path, call.Query)
	for attempt := 1; ; attempt++ {
		resp, err := c.send(ctx, call, target, body, ctype, rid)
		if err == nil {
			resp.Attempts = attempt
			if resp.Status >= 200 && resp.Status < 300 {
				return resp, nil
			}
			e := asError(resp)
			if !retryableStatus(e.Status) || attempt > c.retries {
				return nil, e
			}
			wait := e.RetryAfter
			if wait <= 0 {
				wait = backoff(attempt)
			}
			if wait > c.maxWait {
				return nil, e
			}
			reason := strconv.Itoa(e.Status)
			if e.Code != "" {
				reason += " " + e.Code
			}
			c.notify(Retry{Method: call.Method, Path: call.Path, Attempt: attempt, Wait: wait, Reason: reason, Err: e})
			if err := c.sleep(ctx, wait); err != nil {
				return nil, e
			}
			continue
		}
		if ctx.Err() != nil || !transient(err) || attempt > c.retries {
			return nil, err
		}
		wait := backoff(attempt)
		c.notify(Retry{Method: call.Method, Path: call.Path, Attempt: attempt, Wait: wait, Reason: transportReason(err), Err: err})
		if err := c.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

func (c *Client) send(ctx context.Context, call Call, target string, body []byte, ctype, rid string) (*Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, call.Method, target, rd)
	if err != nil {
		return nil, fmt.Errorf("client: %s %s: %w", call.Method, call.Path, err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	accept := call.Accept
	if accept == "" {
		accept = "application/json"
	}
	req.Header.Set("Accept", accept)
	req.Header.Set("User-Agent", c.agent)
	req.Header.Set("x-request-id", rid)
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	} else if c.session != "" {
		req.AddCookie(&http.Cookie{Name: SessionCookie, Value: c.session})
	}
	hr, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("client: %s %s: %w", call.Method, call.Path, err)
	}
	defer hr.Body.Close()
	raw, err := io.ReadAll(hr.Body)
	if err != nil {
		return nil, fmt.Errorf("client: %s %s: read answer: %w", call.Method, call.Path, err)
	}
	got := hr.Header.Get("x-request-id")
	if got == "" {
		got = rid
	}
	credits, _ := strconv.ParseInt(hr.Header.Get("X-Credits-Charged"), 10, 64)
	return &Response{Status: hr.StatusCode, Header: hr.Header, Body: raw, RequestID: got, Credits: credits}, nil
}

func (c *Client) url(p string, q url.Values) string {
	u := *c.base
	u.Path = strings.TrimRight(u.Path, "/") + "/" + strings.TrimLeft(p, "/")
	u.RawPath = ""
	if strings.Contains(p, "%") {
		// Path parameters escaped by the caller stay escaped.
		u.RawPath = strings.TrimRight(c.base.EscapedPath(), "/") + "/" + strings.TrimLeft(p, "/")
		if dec, err := url.PathUnescape(u.RawPath); err == nil {
			u.Path = dec
		}
	}
	if len(q) > 0 {
		u.RawQuery = q.Encode()
	}
	return u.String()
}

func asError(r *Response) *Error {
	e := &Error{Status: r.Status, RequestID: r.RequestID, Credits: r.Credits, Body: r.Body}
	var shape struct {
		Error struct {
			Code      string `json:"code"`
			Message   string `json:"message"`
			Field     string `json:"field"`
			RequestID string `json:"request_id"`
		} `json:"error"`
	}
	if json.Unmarshal(r.Body, &shape) == nil {
		e.Code, e.Message, e.Field = shape.Error.Code, shape.Error.Message, shape.Error.Field
		if shape.Error.RequestID != "" {
			e.RequestID = shape.Error.RequestID
		}
	}
	if ra := strings.TrimSpace(r.Header.Get("Retry-After")); ra != "" {
		if secs, err := strconv.Atoi(ra); err == nil && secs >= 0 {
			e.RetryAfter = time.Duration(secs) * time.Second
		} else if t, err := http.ParseTime(ra); err == nil {
			e.RetryAfter = max(time.Until(t), 0)
		}
	}
	return e
}

// transient reports whether a transport error happened before any answer and may pass:
// a refused or reset connection.
func transient(err error) bool {
	s := err.Error()
	return strings.Contains(s, "connection refused") || strings.Contains(s, "connection reset") || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

func (c *Client) notify(r Retry) {
	if c.onRetry != nil {
		c.onRetry(r)
	}
}

// transportReason names a transport error in a few words.
func transportReason(err error) string {
	s := err.Error()
	switch {
	case strings.Contains(s, "connection refused"):
		return "connection refused"
	case strings.Contains(s, "connection reset"):
		return "connection reset"
	default:
		return "connection closed before an answer"
	}
}

// backoff is 1 s, 2 s, 4 s, ... capped at 30 s, each plus a random jitter of up to
// half of it, so that clients refused together do not come back together.
func backoff(attempt int) time.Duration {
	d := min(time.Second<<min(attempt-1, 5), 30*time.Second)
	return d + mrand.N(d/2)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func newRequestID() string {
	var b [12]byte
	rand.Read(b[:])
	return "cli-" + hex.EncodeToString(b[:])
}
