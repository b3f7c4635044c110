package serpersearch

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/llm"
	"github.com/firmoapi/firmo/shared/websearch"
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

func TestErrors(t *testing.T) {
	cases := []struct {
		status int
		body   string
		want   error
	}{
		{400, `{"message":"Not enough credits","statusCode":400}`, websearch.ErrOutOfCredits},
		{403, `{"message":"Unauthorized.","statusCode":403}`, websearch.ErrAuth},
		{500, `{"message":"Internal error","statusCode":500}`, websearch.ErrUnavailable},
	}
	for _, c := range cases {
		t.Run(c.body, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(c.status)
				_, _ = io.WriteString(w, c.body)
			}))
			defer srv.Close()
			_, err := New("k", srv.URL, llm.GuardedHTTPClient([]string{"127.0.0.1"}, 5*time.Second)).Search(context.Background(), "q", 3)
			if !errors.Is(err, c.want) {
				t.Fatalf("err = %v, want %v", err, c.want)
			}
		})
	}
}
