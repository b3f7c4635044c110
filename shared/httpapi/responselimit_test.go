package httpapi_test

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/httpapi"
)

func TestResponseLimit(t *testing.T) {
	const max = 20_000
	compressible := bigJSON(50_000) // gzips far under max
	noise := make([]byte, 30_000)
	rand.Read(noise)
	incompressible := `"` + hex.EncodeToString(noise) + `"` // 60 kB that gzip cannot bring under max
	srv := testServer(
		sized(writeRoute("/records", "application/json", http.StatusOK, compressible), "max_records", "max_companies"),
		sized(writeRoute("/noise", "application/json", http.StatusOK, incompressible), "max_records"),
		writeRoute("/other", "application/json", http.StatusOK, compressible),
		writeRoute("/png", "image/png", http.StatusOK, string(noise)),
		writeRoute("/fits", "application/json", http.StatusCreated, bigJSON(15_000)),
	)
	// The platform counts the body as it carries it (here: as sent).
	limited := srv.LimitedHandler(httpapi.ResponseLimit{Max: max, Size: func(_ int, _ http.Header, body []byte) int { return len(body) }})

	for _, tc := range []struct {
		name, path, accept string
		wantStatus         int
		wantField          string   // of the error; "" with wantStatus 422: none
		wantHints          []string // in the error message
		notHint            string
	}{
		{"too large without gzip", "/records", "", 422, "max_records", []string{"Accept-Encoding: gzip", "lower max_records or max_companies"}, ""},
		{"fits once gzipped", "/records", "gzip", 200, "", nil, ""},
		{"too large even gzipped", "/noise", "gzip", 422, "max_records", []string{"lower max_records"}, "Accept-Encoding"},
		{"route without size parameters", "/other", "", 422, "", []string{"Accept-Encoding: gzip", "ask for less"}, ""},
		{"gzip would not help a compressed type", "/png", "", 422, "", []string{"ask for less"}, "Accept-Encoding"},
		{"under the limit", "/fits", "", 201, "", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", tc.path, nil)
			if tc.accept != "" {
				req.Header.Set("Accept-Encoding", tc.accept)
			}
			rec := httptest.NewRecorder()
			limited.ServeHTTP(rec, req)
			if rec.Code != tc.wantStatus {
				t.Fatalf("status = %d, want %d; %.200s", rec.Code, tc.wantStatus, rec.Body.String())
			}
			if rec.Body.Len() > max {
				t.Errorf("answered %d bytes over the %d limit", rec.Body.Len(), max)
			}
			wantCredits := "7" // the handler's
			if tc.wantStatus == 422 {
				wantCredits = "0" // an answer refused is charged nothing
			}
			if got := rec.Header().Get(httpapi.HeaderCreditsCharged); got != wantCredits {
				t.Errorf("X-Credits-Charged = %q, want %s", got, wantCredits)
			}
			if tc.wantStatus != 422 {
				return
			}
			var e httpapi.ErrorBody
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
				t.Fatalf("not the JSON error shape: %v; %s", err, rec.Body.String())
			}
			if e.Error.Code != httpapi.CodeResponseTooLarge || e.Error.Field != tc.wantField || e.Error.RequestID == "" || e.Error.RequestID != rec.Header().Get("x-request-id") {
				t.Errorf("error = %+v, want code %s, field %q and the request id", e.Error, httpapi.CodeResponseTooLarge, tc.wantField)
			}
			for _, h := range tc.wantHints {
				if !strings.Contains(e.Error.Message, h) {
					t.Errorf("message %q does not say %q", e.Error.Message, h)
				}
			}
			if tc.notHint != "" && strings.Contains(e.Error.Message, tc.notHint) {
				t.Errorf("message %q suggests %q, which would not help", e.Error.Message, tc.notHint)
			}
			if ce := rec.Header().Get("Content-Encoding"); ce != "" || rec.Header().Get("Content-Type") != "application/json" {
				t.Errorf("Content-Encoding %q, Content-Type %q: the dropped body's headers leaked", ce, rec.Header().Get("Content-Type"))
			}
		})
	}

	t.Run("the local handler has no limit", func(t *testing.T) {
		rec := httptest.NewRecorder()
		srv.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/noise", nil))
		if rec.Code != http.StatusOK || rec.Body.String() != incompressible {
			t.Errorf("status %d, %d bytes: want the whole %d-byte body", rec.Code, rec.Body.Len(), len(incompressible))
		}
	})
}

func sized(rt httpapi.Route, params ...string) httpapi.Route {
	rt.SizeParams = params
	return rt
}
