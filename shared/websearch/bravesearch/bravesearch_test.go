package bravesearch

import (
	"context"
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
	var got *http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"type":"search","query":{"original":"acme ceo"},"web":{"type":"search","results":[
		 {"title":"Acme - About","url":"https://acme.com/about","description":"<strong>Acme</strong> is led by Ada.","language":"en"},
		 {"title":"Acme news","url":"https://news.example/acme","description":"More."}]}}`)
	}))
	defer srv.Close()
	s := New("brave-key", srv.URL+"/res/v1", llm.GuardedHTTPClient([]string{"127.0.0.1"}, 5*time.Second))
	res, err := s.Search(context.Background(), "acme ceo", 5)
	if err != nil {
		t.Fatal(err)
	}
	want := []websearch.Result{{URL: "https://acme.com/about", Title: "Acme - About", Snippet: "Acme is led by Ada."}, {URL: "https://news.example/acme", Title: "Acme news", Snippet: "More."}}
	if len(res) != 2 || res[0] != want[0] || res[1] != want[1] {
		t.Fatalf("got %+v", res)
	}
	if got.Method != http.MethodGet || got.URL.Path != "/res/v1/web/search" || got.URL.Query().Get("q") != "acme ceo" || got.URL.Query().Get("count") != "5" {
		t.Fatalf("request %s %s", got.Method, got.URL)
	}
	if got.Header.Get("X-Subscription-Token") != "brave-key" {
		t.Fatal("key header missing")
	}
}

// TestErrors runs the error contract with the provider's real error bodies.
func TestErrors(t *testing.T) {
	websearchtest.HTTPErrors(t, func(base string) websearch.Searcher {
		return New("k", base, llm.GuardedHTTPClient([]string{"127.0.0.1"}, 5*time.Second))
	}, []websearchtest.ErrorCase{
		{Status: 401, Body: `{"type":"ErrorResponse","error":{"code":"SUBSCRIPTION_TOKEN_INVALID","detail":"The provided subscription token is invalid.","status":401}}`, Want: websearch.ErrAuth},
		{Status: 402, Body: `{"type":"ErrorResponse","error":{"code":"QUOTA_LIMITED","detail":"Your monthly quota is exhausted.","status":402}}`, Want: websearch.ErrOutOfCredits},
		{Status: 429, Body: `{"type":"ErrorResponse","error":{"code":"RATE_LIMITED","detail":"Request rate limit exceeded.","status":429}}`, Want: websearch.ErrUnavailable},
		{Status: 503, Body: `oops`, Want: websearch.ErrUnavailable},
	})
}
