package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/firmoapi/firmo/shared/httpapi/companyhttp"
	"github.com/firmoapi/firmo/shared/industry"
)

func getIndustries(t *testing.T, url, key string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, raw
}

func TestIndustries(t *testing.T) {
	srv := serve(t, companyhttp.IndustryRoutes())
	status, raw := getIndustries(t, srv.URL+"/v1/industries", "FREE-key")
	if status != 200 {
		t.Fatalf("status %d: %s", status, raw)
	}
	var got companyhttp.IndustriesView
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	tax := industry.Taxonomy()
	if len(got.Industries) != len(tax) {
		t.Fatalf("%d industries, want %d", len(got.Industries), len(tax))
	}
	subs := 0
	for i, in := range got.Industries {
		if in.Value != tax[i].Value || in.Label != tax[i].Label || len(in.SubIndustries) != len(tax[i].Subs) {
			t.Errorf("industry %d = %s %q with %d subs, want %s %q with %d", i, in.Value, in.Label, len(in.SubIndustries), tax[i].Value, tax[i].Label, len(tax[i].Subs))
			continue
		}
		for j, s := range in.SubIndustries {
			if s != (companyhttp.SubIndustry{Value: tax[i].Subs[j].Value, Label: tax[i].Subs[j].Label}) || !industry.ValidSub(s.Value) {
				t.Errorf("sub %s/%d = %+v", in.Value, j, s)
			}
			subs++
		}
	}
	if subs != len(industry.Subs()) {
		t.Errorf("%d sub-industries listed, want %d", subs, len(industry.Subs()))
	}
	// Field names as documented in shared/openapi/paths/industry.json.
	var shape struct {
		Industries []map[string]json.RawMessage `json:"industries"`
	}
	json.Unmarshal(raw, &shape)
	for _, k := range []string{"value", "label", "sub_industries"} {
		if _, ok := shape.Industries[0][k]; !ok || len(shape.Industries[0]) != 3 {
			t.Errorf("industry object %v lacks %q or has other fields", shape.Industries[0], k)
		}
	}

	for _, c := range []struct {
		name, query, key string
		want             int
	}{
		{"unknown parameter", "?industry=SAAS", "FREE-key", 422},
		{"no key", "", "", 401},
	} {
		t.Run(c.name, func(t *testing.T) {
			if status, raw := getIndustries(t, srv.URL+"/v1/industries"+c.query, c.key); status != c.want {
				t.Errorf("status %d, want %d: %s", status, c.want, raw)
			}
		})
	}
}
