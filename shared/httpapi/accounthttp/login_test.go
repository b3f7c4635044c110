package accounthttp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/httpapi/accounthttp"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
)

// anyWrong accepts no password, so every sign-in is a failure, without argon2id's cost.
type anyWrong struct{}

func (anyWrong) Verify(string, string) bool { return false }

// loginHandler serves the account routes over a service whose client addresses lock
// after 2 failures.
func loginHandler(t *testing.T) http.Handler {
	t.Helper()
	store, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	svc := account.New(store, account.WithPasswordHasher(anyWrong{}), account.WithLoginLimits(account.LoginLimits{
		Account: account.DefaultLoginLimits().Account,
		Address: account.LoginLimit{Free: 1, LockAfter: 2, LockFor: 10 * time.Minute, Forget: time.Hour},
	}))
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := httpapi.NewServer(httpapi.Deps{Log: log, Auth: svc, MaxBody: 1 << 20})
	srv.Add(accounthttp.AccountRoutes(svc, accounthttp.SessionOptions{TTL: time.Hour})...)
	return srv.Handler()
}

func loginBody(i int) string {
	return fmt.Sprintf(`{"email":"user%d@acme.test","password":"wrong password"}`, i)
}

func TestLoginClientAddress(t *testing.T) {
	t.Run("locked address answers 429 rate_limited with Retry-After; X-Forwarded-For is ignored", func(t *testing.T) {
		h := loginHandler(t)
		post := func(i int) *httptest.ResponseRecorder {
			r := httptest.NewRequest("POST", "/v1/auth/login", strings.NewReader(loginBody(i)))
			r.RemoteAddr = "203.0.113.5:51234"
			r.Header.Set("X-Forwarded-For", fmt.Sprintf("198.51.100.%d", i)) // a new address each time, forged
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			return w
		}
		for i := 1; i <= 2; i++ {
			if w := post(i); w.Code != http.StatusUnauthorized {
				t.Fatalf("failure %d: %d %s", i, w.Code, w.Body)
			}
		}
		w := post(3)
		var body httpapi.ErrorBody
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		if w.Code != http.StatusTooManyRequests || body.Error.Code != "rate_limited" || w.Header().Get("Retry-After") != "600" {
			t.Fatalf("third attempt: %d Retry-After %q %s", w.Code, w.Header().Get("Retry-After"), w.Body)
		}
		if !strings.Contains(body.Error.Message, "your address") || body.Error.RequestID == "" {
			t.Errorf("message %q request id %q", body.Error.Message, body.Error.RequestID)
		}
	})

	t.Run("on Lambda the address is API Gateway's requestContext.http.sourceIp", func(t *testing.T) {
		proxy := httpadapter.NewV2(loginHandler(t)).ProxyWithContext
		post := func(i int, sourceIP string) int {
			resp, err := proxy(context.Background(), events.APIGatewayV2HTTPRequest{
				Version: "2.0", RouteKey: "$default", RawPath: "/v1/auth/login", Body: loginBody(i),
				Headers: map[string]string{"content-type": "application/json", "x-forwarded-for": fmt.Sprintf("198.51.100.%d", i)},
				RequestContext: events.APIGatewayV2HTTPRequestContext{
					RouteKey: "$default", Stage: "$default", RequestID: "req", TimeEpoch: 1,
					HTTP: events.APIGatewayV2HTTPRequestContextHTTPDescription{Method: "POST", Path: "/v1/auth/login", SourceIP: sourceIP},
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			return resp.StatusCode
		}
		for i := 1; i <= 2; i++ {
			if got := post(i, "203.0.113.6"); got != http.StatusUnauthorized {
				t.Fatalf("failure %d: %d", i, got)
			}
		}
		if got := post(3, "203.0.113.6"); got != http.StatusTooManyRequests {
			t.Errorf("third attempt from the same sourceIp: %d, want 429", got)
		}
		if got := post(4, "203.0.113.7"); got != http.StatusUnauthorized {
			t.Errorf("another sourceIp: %d, want 401", got)
		}
	})
}
