package serpersearch

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/websearch"
	"github.com/firmoapi/firmo/shared/websearch/websearchtest"
)

func TestSearch(t *testing.T) {
	var body map[string]any
	var hdr http.Header
	var path string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path, hdr = r.URL.Path, r.Header.Clone()
		_ = json.NewDecoder(r.Body).Decode(&body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"searchParameters":{"q":"acme ceo","type":"search","engine":"google"},
		 "organic":[{"title":"Acme - About","link":"https://acme.com/about","snippet":"Acme is led by Ada.","position":1}],"credits":1}`)
	}))
	defer srv.Close()
	res, err := New("serper-key", srv.URL, llm.GuardedHTTPClient([]string{"127.0.0.1"}, 5*time.Second)).Search(context.Background(), "acme ceo", 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0] != (websearch.Result{URL: "https://acme.com/about", Title: "Acme - About", Snippet: "Acme is led by Ada."}) {
		t.Fatalf("got %+v", res)
	}
	if path != "/search" || body["q"] != "acme ceo" || body["num"] != float64(3) || hdr.Get("X-API-KEY") != "serper-key" || hdr.Get("Content-Type") != "application/json" {
		t.Fatalf("request %s %v %v", path, body, hdr)
	}
}

// TestErrors runs the error contract with the provider's real error bodies.
func TestErrors(t *testing.T) {
	websearchtest.HTTPErrors(t, func(base string) websearch.Searcher {
		return New("k", base, llm.GuardedHTTPClient([]string{"127.0.0.1"}, 5*time.Second))
	}, []websearchtest.ErrorCase{
		{Status: 400, Body: `{"message":"Not enough credits","statusCode":400}`, Want: websearch.ErrOutOfCredits},
		{Status: 403, Body: `{"message":"Unauthorized.","statusCode":403}`, Want: websearch.ErrAuth},
		{Status: 500, Body: `{"message":"Internal error","statusCode":500}`, Want: websearch.ErrUnavailable},
	})
}
