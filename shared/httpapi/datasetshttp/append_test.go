package datasetshttp_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/billing"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/dataset"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/httpapi/datasetshttp"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/query"
	"github.com/firmoapi/firmo/shared/upload"
)

var now = time.Date(2026, 5, 14, 12, 0, 0, 0, time.UTC)

type rig struct {
	t         *testing.T
	srv       *httptest.Server
	accounts  *account.Service
	queries   *query.Service
	billing   *billing.Service
	companies *company.Service
}

// newRig serves POST /v1/append over a bolt store holding two companies.
func newRig(t *testing.T) *rig {
	t.Helper()
	store, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	store.DB().NoSync = true
	ctx := context.Background()
	clock := func() time.Time { return now }
	d := company.NewDeriver(company.DeriverDeps{Now: clock})
	companies := company.NewService(company.NewKVStore(store), d)
	for _, dom := range []string{"acme.com", "globex.de"} {
		var certs []company.Certificate
		for k := range 6 {
			from := now.AddDate(0, -4*k, -3)
			certs = append(certs, company.Certificate{SHA1Fingerprint: fmt.Sprintf("%s%d", dom, k), FQDN: dom, AlternativeFQDN: []string{dom, "app." + dom}, DateFrom: from, DateTo: from.AddDate(0, 0, 200)})
		}
		page := company.Page{URL: "https://" + dom + "/", StatusCode: 200, FetchedAt: now.AddDate(0, 0, -3),
			HTML: `<html><head><title>` + dom + `</title><script src="https://js.stripe.com/v3/"></script></head><body>Hello</body></html>`}
		if _, err := companies.Load(ctx, dom, company.Raw{Name: strings.ToUpper(dom)}, certs, []company.Page{page}, company.LoadOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	r := &rig{t: t, accounts: account.New(store), queries: query.New(store), billing: billing.New(store), companies: companies}
	s := httpapi.NewServer(httpapi.Deps{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Auth: r.accounts, MaxBody: 1 << 20})
	s.Add(datasetshttp.AppendRoutes(datasetshttp.AppendDeps{
		Datasets: dataset.New(dataset.Deps{Store: companies.Store(), Scorer: d, Now: clock}),
		Queries:  r.queries, Billing: r.billing, Uploads: upload.NewGate(0),
	})...)
	r.srv = httptest.NewServer(s.Handler())
	t.Cleanup(func() { r.srv.Close(); store.Close() })
	return r
}

func (r *rig) key(org string) (string, account.Org) {
	r.t.Helper()
	ctx := context.Background()
	o, _, err := r.accounts.EnsureOrg(ctx, org, account.PlanPro)
	if err != nil {
		r.t.Fatal(err)
	}
	if _, err := r.billing.Grant(ctx, o.ID, 100_000); err != nil {
		r.t.Fatal(err)
	}
	u, err := r.accounts.CreateUser(ctx, o.ID, fmt.Sprintf("u%d@%s.test", time.Now().UnixNano(), strings.ReplaceAll(org, " ", "")), account.RoleAdmin, "")
	if err != nil {
		r.t.Fatal(err)
	}
	k, _, err := r.accounts.CreateKey(ctx, o.ID, u.ID, "")
	if err != nil {
		r.t.Fatal(err)
	}
	return k, o
}

type reply struct {
	status int
	header http.Header
	body   []byte
}

// post sends POST /v1/append with query parameters and, when file is not nil, a
// multipart body holding it (and the form fields).
func (r *rig) post(key string, params url.Values, file []byte, form url.Values) reply {
	r.t.Helper()
	var body bytes.Buffer
	req, _ := http.NewRequest("POST", r.srv.URL+"/v1/append?"+params.Encode(), nil)
	if file != nil || form != nil {
		mw := multipart.NewWriter(&body)
		for k, vs := range form {
			for _, v := range vs {
				mw.WriteField(k, v)
			}
		}
		if file != nil {
			fw, _ := mw.CreateFormFile("file", "list.csv")
			fw.Write(file)
		}
		mw.Close()
		req, _ = http.NewRequest("POST", r.srv.URL+"/v1/append?"+params.Encode(), &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
	}
	req.Header.Set("x-service-key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, resp.Header, b}
}

func errorField(t *testing.T, rep reply) string {
	t.Helper()
	var e struct {
		Error struct{ Code, Field, Message string }
	}
	if err := json.Unmarshal(rep.body, &e); err != nil {
		t.Fatalf("error body %s: %v", rep.body, err)
	}
	return e.Error.Field
}

const list = "Company,Website\nAcme,https://www.acme.com/\nNobody,nobody-at-all.example\nGlobex,globex.de\n"

func TestAppendAnswersInInputOrder(t *testing.T) {
	r := newRig(t)
	key, o := r.key("Org A")
	q, err := r.queries.SaveSearch(context.Background(), o.ID, query.Actor{UserID: "u"}, "discover", map[string]string{}, []string{"globex.de", "extra-domain.com"})
	if err != nil {
		t.Fatal(err)
	}
	rep := r.post(key, url.Values{"dataset": {"vendors"}, "query_id": {q.ID}}, []byte(list), nil)
	if rep.status != 200 {
		t.Fatalf("status %d: %s", rep.status, rep.body)
	}
	var rows []map[string]any
	if err := json.Unmarshal(rep.body, &rows); err != nil {
		t.Fatal(err)
	}
	var doms []string
	for _, row := range rows {
		doms = append(doms, row["domain"].(string))
	}
	// The file's rows in order, then the saved query's domains not in the file.
	if want := []string{"acme.com", "nobody-at-all.example", "globex.de", "extra-domain.com"}; !slices.Equal(doms, want) {
		t.Fatalf("domains = %v, want %v", doms, want)
	}
	if rows[0]["input:Company"] != "Acme" || rows[3]["input:Company"] != nil {
		t.Errorf("input columns: %v / %v", rows[0]["input:Company"], rows[3]["input:Company"])
	}
	if v, _ := rows[0]["vendors"].([]any); !slices.Contains(v, any("stripe.com")) {
		t.Errorf("acme.com vendors (unprefixed: the only dataset) = %v", rows[0]["vendors"])
	}
	if rows[1]["vendors"] != nil {
		t.Errorf("unknown domain vendors = %v, want null", rows[1]["vendors"])
	}
	// Two rows with vendors, billed as append rows.
	if got, want := rep.header.Get("X-Credits-Charged"), strconv.FormatInt(billing.Price(account.PlanPro, billing.KindAppendRow, 2), 10); got != want {
		t.Errorf("X-Credits-Charged = %s, want %s", got, want)
	}

	// csv=true: the same cells as CSV.
	rep2 := r.post(key, url.Values{"dataset": {"bizdata", "vendors"}, "csv": {"true"}}, []byte(list), nil)
	if rep2.status != 200 || !strings.HasPrefix(rep2.header.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv: status %d, %s: %s", rep2.status, rep2.header.Get("Content-Type"), rep2.body)
	}
	recs, err := csv.NewReader(bytes.NewReader(rep2.body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || recs[0][0] != "domain" || !slices.Contains(recs[0], "name") || !slices.Contains(recs[0], "vendors:vendors") {
		t.Errorf("CSV header %v, %d records", recs[0], len(recs))
	}
}

func TestAppendBadInput(t *testing.T) {
	r := newRig(t)
	key, _ := r.key("Org A")
	other, _ := r.key("Org B")
	_, ob := r.key("Org B")
	q, err := r.queries.SaveSearch(context.Background(), ob.ID, query.Actor{UserID: "u"}, "discover", map[string]string{}, []string{"globex.de"})
	if err != nil {
		t.Fatal(err)
	}
	if rep := r.post(other, url.Values{"dataset": {"vendors"}, "query_id": {q.ID}}, nil, nil); rep.status != 200 {
		t.Fatalf("owner's own query: %d %s", rep.status, rep.body)
	}
	for _, tc := range []struct {
		name   string
		params url.Values
		file   []byte
		form   url.Values
		status int
		field  string
	}{
		{"no dataset", url.Values{}, []byte(list), nil, 422, "dataset"},
		{"unknown dataset", url.Values{"dataset": {"vendors", "technographics"}}, []byte(list), nil, 422, "dataset"},
		{"unknown dataset as form field", nil, []byte(list), url.Values{"dataset": {"nope"}}, 422, "dataset"},
		{"no file and no query id", url.Values{"dataset": {"vendors"}}, nil, nil, 422, "file"},
		{"no usable domain column", url.Values{"dataset": {"vendors"}}, []byte("Company,City\nAcme,Berlin\nGlobex,Paris\n"), nil, 422, "domain_column"},
		{"domain column not in the file", url.Values{"dataset": {"vendors"}, "domain_column": {"url"}}, []byte(list), nil, 422, "domain_column"},
		{"unknown parameter", url.Values{"dataset": {"vendors"}, "limit": {"3"}}, []byte(list), nil, 422, "limit"},
		{"csv not a boolean", url.Values{"dataset": {"vendors"}, "csv": {"maybe"}}, []byte(list), nil, 422, "csv"},
		{"another organisation's query", url.Values{"dataset": {"vendors"}, "query_id": {q.ID}}, nil, nil, 404, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := r.post(key, tc.params, tc.file, tc.form)
			if rep.status != tc.status {
				t.Fatalf("status %d, want %d: %s", rep.status, tc.status, rep.body)
			}
			if tc.field != "" {
				if f := errorField(t, rep); f != tc.field {
					t.Errorf("error names %q, want %q: %s", f, tc.field, rep.body)
				}
			}
			if got := rep.header.Get("X-Credits-Charged"); got != "0" {
				t.Errorf("a refused request charged %s credits", got)
			}
		})
	}
}
