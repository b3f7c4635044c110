package contactsearch

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/title"
)

func TestCompanySearchScores(t *testing.T) {
	cos := map[string]*companyInfo{}
	add := func(domain string, tech, keywords, desc string) {
		cos[domain] = &companyInfo{Domain: domain, signal: signalDoc{tech, keywords, "", desc}}
	}
	add("stripe-user.test", "stripe", "online shop", "we sell shoes")
	add("stripe-mention.test", "", "", "payments through stripe and paypal")
	add("payments.test", "", "payments platform", "")
	add("shop.test", "shopify", "online shop", "we sell hats")
	add("go.test", "", "golang", "") // "go" must not match "golang": short words are exact
	add("other.test", "hubspot", "consulting", "advice for firms")
	ix := newCompanyIndex(cos)
	tests := []struct {
		name    string
		signals []string
		want    []string // best first
	}{
		{"technology outranks a description mention", []string{"stripe"}, []string{"stripe-user.test", "stripe-mention.test"}},
		{"fillers are not searched", []string{"stripe in"}, []string{"stripe-user.test", "stripe-mention.test"}},
		{"prefix of four letters or more", []string{"payment"}, []string{"payments.test", "stripe-mention.test"}},
		{"short words are exact", []string{"go"}, nil},
		{"two signals: both needed unless one is strong", []string{"stripe", "shop"}, []string{"stripe-user.test"}},
		{"unknown word", []string{"kubernetes"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, h := range ix.search(tt.signals) {
				got = append(got, h.Domain)
				if h.Score < SignalThreshold || h.Score > 1+1e-9 {
					t.Errorf("%s scores %.3f", h.Domain, h.Score)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestPromptTechnologySignal: a prompt naming a technology returns contacts at the
// companies whose profiles have it, and only those. The truth reads the vendors and
// texts of the company store directly.
func TestPromptTechnologySignal(t *testing.T) {
	f := demo(t)
	ctx := context.Background()
	tests := []struct {
		prompt string
		vendor string // the vendor domain behind the technology
		word   string // the word in descriptions and keywords
		dept   string // the department the prompt asks for
	}{
		{"Engineers at companies using Stripe", "stripe.com", "stripe", "Technology"},
		{"Sales people at companies that use HubSpot", "hs-scripts.com", "hubspot", "Sales - Marketing"},
	}
	for _, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			has := map[string]bool{}
			for _, r := range f.truth {
				if _, seen := has[r.c.Domain]; seen {
					continue
				}
				rec, err := f.svc.companies.Get(ctx, r.c.Domain)
				if err != nil {
					t.Fatal(err)
				}
				has[r.c.Domain] = profileHas(rec, tt.vendor, tt.word)
			}
			var want, all []int64
			for _, r := range f.truth {
				if r.c.Department == tt.dept {
					all = append(all, r.c.PersonaID)
					if has[r.c.Domain] {
						want = append(want, r.c.PersonaID)
					}
				}
			}
			if len(want) == 0 || len(want) == len(all) {
				t.Fatalf("%d of %d %s contacts at companies with %s: the case tests nothing", len(want), len(all), tt.dept, tt.word)
			}
			req, err := Validate(uncapped(Params{IcpPrompt: tt.prompt}))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(req.Prompt.Department, []string{tt.dept}) {
				t.Fatalf("prompt read as %+v", req.Prompt)
			}
			resp, err := f.svc.Search(ctx, testOrg, req)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range resp.Results {
				if !has[e.Domain] {
					t.Errorf("%s is in the result but its profile has no %s", e.Domain, tt.word)
				}
			}
			got := ids(resp)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("%d contacts, brute force %d; missing %v, extra %v", len(got), len(want), minus(want, got), minus(got, want))
			}
		})
	}
}

// profileHas: the company embeds the vendor, or its description or keywords name the word.
func profileHas(rec company.Record, vendor, word string) bool {
	if slices.Contains(rec.Derived.Vendors, vendor) {
		return true
	}
	text := " " + title.Normalize(rec.Profile.Description) + " "
	for k := range rec.Profile.Keywords {
		text += title.Normalize(k) + " "
	}
	return strings.Contains(text, " "+word)
}
