package icpfit

import (
	"slices"
	"testing"
)

func TestParseCriteria(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		want    Criteria
		missing []string
	}{
		{"list under each heading", "We sell to mid-sized software firms.\nMandatory:\n- B2B SaaS\n- 50-500 employees\nReject if:\n- consultancy\nNice-to-have:\n- uses HubSpot\n",
			Criteria{Mandatory: []string{"B2B SaaS", "50-500 employees"}, Reject: []string{"consultancy"}, Nice: []string{"uses HubSpot"}}, nil},
		{"inline criteria", "Mandatory: SaaS\nReject if: agencies\nNice-to-have: EU",
			Criteria{Mandatory: []string{"SaaS"}, Reject: []string{"agencies"}, Nice: []string{"EU"}}, nil},
		{"odd case, spacing and markdown", "## MANDATORY :\n  * based in   Germany \n**reject  IF:**\n1. fewer than 10 employees\n\n__Nice to have__:\n2) uses Stripe\r\n",
			Criteria{Mandatory: []string{"based in Germany"}, Reject: []string{"fewer than 10 employees"}, Nice: []string{"uses Stripe"}}, nil},
		{"nice-to-have spelled nice have", "Mandatory:\n- B2B\nReject if:\nNice-have:\n- Stripe",
			Criteria{Mandatory: []string{"B2B"}, Nice: []string{"Stripe"}}, nil},
		{"one heading missing", "Mandatory:\n- B2B\nNice-to-have:\n- Stripe",
			Criteria{Mandatory: []string{"B2B"}, Nice: []string{"Stripe"}}, []string{"Reject if:"}},
		{"no headings", "B2B software companies in Germany", Criteria{}, []string{"Mandatory:", "Reject if:", "Nice-to-have:"}},
		{"heading words mid-line are text; a heading after a list marker counts", "Our mandatory list follows\nMandatory:\n- reject if: is not here\n",
			Criteria{Reject: []string{"is not here"}}, []string{"Nice-to-have:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, missing := ParseCriteria(tt.text)
			if !slices.Equal(got.Mandatory, tt.want.Mandatory) || !slices.Equal(got.Reject, tt.want.Reject) || !slices.Equal(got.Nice, tt.want.Nice) {
				t.Errorf("criteria = %+v, want %+v", got, tt.want)
			}
			if !slices.Equal(missing, tt.missing) {
				t.Errorf("missing = %q, want %q", missing, tt.missing)
			}
		})
	}
}

func TestCriteriaTextRoundTrip(t *testing.T) {
	c := Criteria{Mandatory: []string{"B2B SaaS", "in Germany"}, Reject: []string{"agency"}, Nice: nil}
	got, missing := ParseCriteria(c.Text())
	if len(missing) != 0 || !slices.Equal(got.Mandatory, c.Mandatory) || !slices.Equal(got.Reject, c.Reject) || len(got.Nice) != 0 {
		t.Fatalf("round trip = %+v (missing %q), want %+v", got, missing, c)
	}
}
