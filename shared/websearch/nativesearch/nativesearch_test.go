package nativesearch

import (
	"context"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
)

type source map[string][]company.Page

func (s source) List(ctx context.Context, cursor string, limit int) ([]company.Record, string, error) {
	var out []company.Record
	for _, d := range []string{"acme.com", "globex.com", "initech.io"} {
		out = append(out, company.Record{Domain: d, Raw: company.Raw{Name: map[string]string{"acme.com": "Acme Corp", "globex.com": "Globex", "initech.io": "Initech"}[d]}})
	}
	return out, "", nil
}

func (s source) Pages(ctx context.Context, d string) ([]company.Page, error) {
	if p, ok := s[d]; ok {
		return p, nil
	}
	return nil, apperr.ErrNotFound
}

func TestSearch(t *testing.T) {
	src := source{
		"acme.com": {
			{URL: "https://acme.com/", Title: "Acme Corp - rockets", Text: "Acme builds rockets and anvils for coyotes."},
			{URL: "https://acme.com/team", Title: "Our team", Text: "Ada Lovelace, Chief Executive Officer. Bob, CTO."},
		},
		"globex.com": {{URL: "https://globex.com/", Title: "Globex", Text: "Globex sells payroll software to hospitals. Our CEO is Hank."}},
	}
	x := New(src, Options{})
	cases := []struct {
		name, query string
		wantFirst   string
		wantN       int
	}{
		{"term", "payroll software", "https://globex.com/", 1},
		{"domain scopes", "acme.com chief executive officer", "https://acme.com/team", 2},
		{"company name", "Acme rockets", "https://acme.com/", 2},
		{"nothing", "zebra quantum", "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := x.Search(context.Background(), c.query, 5)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != c.wantN {
				t.Fatalf("got %d results %+v, want %d", len(got), got, c.wantN)
			}
			if c.wantN > 0 && got[0].URL != c.wantFirst {
				t.Fatalf("first = %s, want %s", got[0].URL, c.wantFirst)
			}
			for _, r := range got {
				if r.Snippet == "" || r.Title == "" {
					t.Fatalf("empty title or snippet: %+v", r)
				}
			}
		})
	}
	if got, _ := x.Search(context.Background(), "acme.com ceo", 1); len(got) != 1 || got[0].URL[:16] != "https://acme.com" {
		t.Fatalf("n=1 with domain: %+v", got)
	}
}
