// Package crmhttp is the HTTP exchange the CRM provider clients share (hubspotcrm,
// salesforcecrm, pipedrivecrm): a GET that decodes the provider's JSON, waits out
// 429 answers as their Retry-After says (a bounded number of times, the context
// respected), maps 401 and a refused refresh to crm.ErrTokenRejected, and wraps
// every other failure in an apperr kind with the provider's own message.
package crmhttp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/crm"
)

// Defaults for Caller's zero fields.
const (
	DefaultMaxRetries = 5
	DefaultMaxWait    = 2 * time.Minute
	// firstBackoff is the wait after a 429 that carries no Retry-After (HubSpot's
	// often do not); it doubles on each further one.
	firstBackoff = time.Second
	// maxBody bounds one decoded page.
	maxBody = 64 << 20
)

// Caller makes a provider's API calls.
type Caller struct {
	// Provider names the provider in errors: hubspot, salesforce or pipedrive.
	Provider string
	// Message extracts the provider's error message from an error body; the
	// caller falls back to the HTTP status text.
	Message func(body []byte) string
	// Kind, when set, names the apperr kind of an error answer the provider
	// uses its own way (Salesforce's 403 REQUEST_LIMIT_EXCEEDED is a rate limit);
	// nil leaves the answer to the status.
	Kind func(status int, body []byte) error
	// MaxRetries is how many 429 answers one call waits out before it fails with
	// apperr.ErrRateLimited; MaxWait is the longest single wait it accepts.
	MaxRetries int
	MaxWait    time.Duration
	// Sleep waits d or until ctx is done; Now reads the clock (an HTTP-date
	// Retry-After). Defaults: a timer and time.Now; tests pass a virtual clock.
	Sleep func(ctx context.Context, d time.Duration) error
	Now   func() time.Time
}

// Request is one GET.
type Request struct {
	// HTTP carries the connection's token (crm.Conn.HTTP).
	HTTP *http.Client
	URL  string
	// Header is added to the request (Accept is always application/json).
	Header http.Header
	// Pace, when set, is called before every attempt (a client-side rate limit).
	Pace func(ctx context.Context) error
}

// GetJSON performs req and decodes a 200 answer into out.
func (c *Caller) GetJSON(ctx context.Context, req Request, out any) error {
	backoff := firstBackoff
	for attempt := 0; ; attempt++ {
		if req.Pace != nil {
			if err := req.Pace(ctx); err != nil {
				return c.ctxErr(ctx, err)
			}
		}
		status, header, body, err := c.get(ctx, req)
		if err != nil {
			return err
		}
		switch {
		case status == http.StatusOK:
			if err := json.Unmarshal(body, out); err != nil {
				return fmt.Errorf("%s: decode %s: %v: %w", c.Provider, pathOf(req.URL), err, apperr.ErrUnavailable)
			}
			return nil
		case status == http.StatusTooManyRequests:
			wait, given := c.retryAfter(header)
			if !given {
				wait, backoff = backoff, backoff*2
			}
			if attempt >= c.maxRetries() || wait > c.maxWait() {
				return apperr.Retryable(fmt.Errorf("%s: rate limited %d times (%s): %w",
					c.Provider, attempt+1, c.message(status, body), apperr.ErrRateLimited), wait)
			}
			if err := c.sleep(ctx, wait); err != nil {
				return c.ctxErr(ctx, err)
			}
		case status == http.StatusUnauthorized:
			return fmt.Errorf("%s: %s (HTTP 401): %w", c.Provider, c.message(status, body), crm.ErrTokenRejected)
		case c.Kind != nil && c.Kind(status, body) != nil:
			return fmt.Errorf("%s: %s (HTTP %d): %w", c.Provider, c.message(status, body), status, c.Kind(status, body))
		case status >= 500:
			return fmt.Errorf("%s: %s (HTTP %d): %w", c.Provider, c.message(status, body), status, apperr.ErrUnavailable)
		default:
			return fmt.Errorf("%s: %s (HTTP %d): %w", c.Provider, c.message(status, body), status, apperr.ErrBadRequest)
		}
	}
}

// get sends one request and reads its answer.
func (c *Caller) get(ctx context.Context, req Request) (int, http.Header, []byte, error) {
	hr, err := http.NewRequestWithContext(ctx, http.MethodGet, req.URL, nil)
	if err != nil {
		return 0, nil, nil, fmt.Errorf("%s: build request: %w", c.Provider, err)
	}
	for k, v := range req.Header {
		hr.Header[k] = v
	}
	hr.Header.Set("Accept", "application/json")
	resp, err := req.HTTP.Do(hr)
	if err != nil {
		return 0, nil, nil, c.transportErr(ctx, req.URL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody))
	if err != nil {
		return 0, nil, nil, c.transportErr(ctx, req.URL, err)
	}
	return resp.StatusCode, resp.Header, body, nil
}

// transportErr maps a failed round trip: a cancelled context, a refresh the
// provider refused (the oauth2 transport refreshes before sending), or the network.
func (c *Caller) transportErr(ctx context.Context, rawURL string, err error) error {
	if ctx.Err() != nil {
		return c.ctxErr(ctx, ctx.Err())
	}
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		if re.ErrorCode == "invalid_grant" || re.Response != nil && re.Response.StatusCode == http.StatusUnauthorized {
			return fmt.Errorf("%s: token refresh refused (%s): %w", c.Provider, refreshMessage(re), crm.ErrTokenRejected)
		}
		return fmt.Errorf("%s: token refresh failed (%s): %w", c.Provider, refreshMessage(re), apperr.ErrUnavailable)
	}
	// The URL holds no secret (tokens travel in headers), but the error text of
	// url.Error repeats it in full; the path is enough.
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	// err stays in the chain: the connection's token transport reports a refresh it
	// gave up on as crm.ErrNeedsReauth, which the service reads with errors.Is.
	return fmt.Errorf("%s: GET %s: %w: %w", c.Provider, pathOf(rawURL), err, apperr.ErrUnavailable)
}

func refreshMessage(re *oauth2.RetrieveError) string {
	msg := re.ErrorCode
	if re.ErrorDescription != "" {
		msg += ": " + re.ErrorDescription
	}
	if msg == "" && re.Response != nil {
		msg = re.Response.Status
	}
	return msg
}

func (c *Caller) ctxErr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s: %w", c.Provider, ctx.Err())
	}
	return fmt.Errorf("%s: %w", c.Provider, err)
}

// retryAfter reads Retry-After: delay seconds or an HTTP date.
func (c *Caller) retryAfter(h http.Header) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil && secs >= 0 {
		return time.Duration(secs * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(c.now()), 0), true
	}
	return 0, false
}

func (c *Caller) message(status int, body []byte) string {
	if c.Message != nil {
		if m := strings.TrimSpace(c.Message(body)); m != "" {
			if len(m) > 300 {
				m = m[:300] + "..."
			}
			return m
		}
	}
	return http.StatusText(status)
}

func (c *Caller) maxRetries() int {
	if c.MaxRetries > 0 {
		return c.MaxRetries
	}
	return DefaultMaxRetries
}

func (c *Caller) maxWait() time.Duration {
	if c.MaxWait > 0 {
		return c.MaxWait
	}
	return DefaultMaxWait
}

func (c *Caller) sleep(ctx context.Context, d time.Duration) error {
	if c.Sleep != nil {
		return c.Sleep(ctx, d)
	}
	return Sleep(ctx, d)
}

func (c *Caller) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Sleep waits d on a timer, or returns ctx's error once ctx is done.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// pathOf is rawURL without its query, for error messages.
func pathOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(bad URL)"
	}
	u.RawQuery = ""
	return u.String()
}

// Join joins an API base URL (scheme and host, perhaps a path) and a path.
func Join(base, path string) string {
	return strings.TrimRight(base, "/") + path
}

// DecodeError decodes a provider's JSON error body into v.
func DecodeError(body []byte, v any) error { return json.Unmarshal(body, v) }
