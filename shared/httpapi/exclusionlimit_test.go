package httpapi_test

import (
	"bytes"
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

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/httpapi/queryhttp"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/query"
)

// longDomain is a domain name of the longest length allowed, 253, whose registrable
// domain is the i-th of distinct ones.
func longDomain(i int) string {
	l := strings.Repeat("a", 63)
	d := l + "." + l + "." + l + "." + fmt.Sprintf("d%06d", i) + strings.Repeat("c", 57-7) + ".com"
	if len(d) != 253 {
		panic(len(d))
	}
	return d
}

// TestExclusionListBodyAdmitsTheMaximum: an exclusion list of query.MaxEntries domains
// of the longest length and as many 19-digit persona ids is far over the server's
// default body limit (1 MB) and must still be accepted; a body over the route's own
// limit answers 413 payload_too_large, and the other routes keep the default.
func TestExclusionListBodyAdmitsTheMaximum(t *testing.T) {
	if testing.Short() {
		t.Skip("posts a body of about 70 MB")
	}
	store, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	accounts := account.New(store)
	s := httpapi.NewServer(httpapi.Deps{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Auth: accounts, MaxBody: 1 << 20})
	s.Add(queryhttp.QueryRoutes(query.New(store))...)
	h := s.Handler()
	ctx := context.Background()
	org, _, _ := accounts.EnsureOrg(ctx, "Acme", account.PlanStarter)
	u, _ := accounts.CreateUser(ctx, org.ID, "a@acme.test", account.RoleAdmin, "")
	key, _, _ := accounts.CreateKey(ctx, org.ID, u.ID, "")
	post := func(method, path string, body []byte) (int, map[string]any) {
		t.Helper()
		req := httptest.NewRequest(method, path, bytes.NewReader(body))
		req.Header.Set("x-service-key", key)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var out map[string]any
		json.Unmarshal(rec.Body.Bytes(), &out)
		return rec.Code, out
	}

	domains := make([]string, query.MaxEntries)
	personas := make([]int64, query.MaxEntries)
	for i := range domains {
		domains[i] = longDomain(i)
		personas[i] = 1_000_000_000_000_000_000 + int64(i)
	}
	name := strings.Repeat("n", 255)
	body, err := json.MarshalIndent(map[string]any{"query_name": name, "domains": domains, "persona_ids": personas}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if len(body) <= 1<<20 || len(body) > queryhttp.ExclusionListMaxBody {
		t.Fatalf("body of %d bytes: want over the 1 MB default and within the route's %d", len(body), queryhttp.ExclusionListMaxBody)
	}
	code, out := post("POST", "/v1/queries/exclusion-list", body)
	if code != http.StatusCreated || out["domain_count"] != float64(query.MaxEntries) || out["persona_count"] != float64(query.MaxEntries) || out["truncated"] != false {
		t.Fatalf("maximum list (%d bytes): %d %v", len(body), code, out["error"])
	}

	over := append(bytes.Repeat([]byte(" "), queryhttp.ExclusionListMaxBody+1-len(body)), body...)
	code, out = post("POST", "/v1/queries/exclusion-list", over)
	if e, _ := out["error"].(map[string]any); code != http.StatusRequestEntityTooLarge || e["code"] != "payload_too_large" {
		t.Fatalf("body one byte over the route's limit: %d %v, want 413 payload_too_large", code, out)
	}

	code, out = post("PATCH", "/v1/queries/some-id", append(bytes.Repeat([]byte(" "), 1<<20), `{"query_name":"x"}`...))
	if code != http.StatusRequestEntityTooLarge {
		t.Fatalf("PATCH over the 1 MB default: %d %v, want 413 (the larger limit is the exclusion list's only)", code, out)
	}
}
