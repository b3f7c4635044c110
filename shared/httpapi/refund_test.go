package httpapi_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
)

// The review's finding: a response refused with 422 response_too_large had already
// been charged. The route charges its records with the real billing service, then
// answers more than the platform carries: the 422 says 0 credits, the balance is as
// before, the records are still net-new (the same request that fits is charged them),
// and the ledger nets to zero.
func TestResponseTooLargeChargesNothing(t *testing.T) {
	store, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ctx := context.Background()
	accounts, bill := account.New(store), billing.New(store)
	org, _, err := accounts.EnsureOrg(ctx, "Org", account.PlanFree)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := bill.Balance(ctx, org.ID)
	s := httpapi.NewServer(httpapi.Deps{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxBody: 1 << 20, Refunds: bill})
	s.Add(httpapi.Route{Method: "GET", Path: "/records", Family: httpapi.FamilyAccount, Auth: httpapi.AuthNone, SizeParams: []string{"n"},
		Handle: func(w http.ResponseWriter, r *http.Request) error {
			n, _ := strconv.Atoi(r.URL.Query().Get("n"))
			var recs []string
			for i := range n {
				recs = append(recs, fmt.Sprintf("c%d.com", i))
			}
			// An authenticated route has its route in the context; this one, without
			// auth, puts it there itself.
			c, err := bill.ChargeAll(billing.WithRoute(r.Context(), "GET /records"), org, []billing.Items{{Kind: billing.KindCompany, Records: recs[:min(n, 10)]}, {Kind: billing.KindContact, Records: recs}}, httpapi.RequestID(r.Context()))
			if err != nil {
				return err
			}
			httpapi.SetCreditsCharged(w, c.Credits)
			w.Header().Set("Content-Type", "application/json")
			_, err = io.WriteString(w, `["`+strings.Repeat("x", n*100)+`"]`)
			return err
		}})
	h := s.LimitedHandler(httpapi.ResponseLimit{Max: 5_000, Size: func(_ int, _ http.Header, body []byte) int { return len(body) }})
	get := func(n int) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/records?n="+strconv.Itoa(n), nil))
		return rec
	}
	big := get(60) // 6,000 bytes: over the limit
	if big.Code != 422 || big.Header().Get(httpapi.HeaderCreditsCharged) != "0" {
		t.Fatalf("too large: status %d, X-Credits-Charged %q; want 422 and 0", big.Code, big.Header().Get(httpapi.HeaderCreditsCharged))
	}
	if after, _ := bill.Balance(ctx, org.ID); after != before {
		t.Fatalf("balance %d after a refused answer, want %d", after, before)
	}
	small := get(40) // the first 40 of the same records: they are still net-new
	// One request rounds once: 40 contacts and 10 companies.
	want := (40*billing.Rate(org.Plan, billing.KindContact) + 10*billing.Rate(org.Plan, billing.KindCompany) + 999) / 1000
	if small.Code != 200 || small.Header().Get(httpapi.HeaderCreditsCharged) != strconv.FormatInt(want, 10) {
		t.Fatalf("fitting answer: status %d, X-Credits-Charged %q; want 200 and %d", small.Code, small.Header().Get(httpapi.HeaderCreditsCharged), want)
	}
	if after, _ := bill.Balance(ctx, org.ID); before-after != want {
		t.Errorf("charged %d in all, want %d", before-after, want)
	}
	es, err := bill.Entries(ctx, org.ID, time.Now().AddDate(0, 0, -1), time.Now().AddDate(0, 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	var credits int64
	for _, e := range es {
		credits += e.Credits
	}
	if credits != want {
		t.Errorf("the ledger nets to %d credits, want %d (entries %+v)", credits, want, es)
	}
}
