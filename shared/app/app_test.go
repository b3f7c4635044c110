package app_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"

	"github.com/firmoapi/firmo/shared/app/accountapp"
	"github.com/firmoapi/firmo/shared/app/localbackend"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/httpapi"
)

// TestFamilyKnowsOtherFamiliesMethods: a function composed of one family also serves
// API Gateway's catch-all route, so it must answer 405 for a wrong method on another
// family's path and 404 for that family's right method (served elsewhere).
func TestFamilyKnowsOtherFamiliesMethods(t *testing.T) {
	cfg, err := config.Load(func(k string) string { return map[string]string{"FIRMO_DATA_DIR": t.TempDir()}[k] })
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	core, err := localbackend.Build(context.Background(), cfg, log, accountapp.Composer())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { core.Close() })
	if got := core.Server.Families(); len(got) != 1 || got[0] != httpapi.FamilyAccount {
		t.Fatalf("families composed = %v, want [account]", got)
	}
	h := core.Handler()
	for _, c := range []struct {
		method, path string
		want         int
	}{
		{"GET", "/healthz", 200},
		{"PUT", "/v1/score", 405},                // the company family's path, wrong method
		{"GET", "/v1/score", 404},                // the company family's, served by its own function
		{"DELETE", "/v1/contacts/discover", 405}, // likewise for contacts
		{"GET", "/v1/nowhere", 404},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, nil))
		if rec.Code != c.want {
			t.Errorf("%s %s = %d, want %d", c.method, c.path, rec.Code, c.want)
		}
	}
}
