package icpfit

import (
	"strings"
	"testing"
)

// TestRejectDoubt: a reject line is ruled out only on confident evidence; otherwise
// the verdict is No and the reasoning names the line with the scores.
func TestRejectDoubt(t *testing.T) {
	m := shipped(t)
	icp := func(reject string) Criteria {
		return Criteria{Mandatory: []string{"based in Germany"}, Reject: []string{reject}, Nice: []string{"uses HubSpot"}}
	}
	with := func(f func(c *Company)) Company {
		c := acme()
		f(&c)
		return c
	}
	for _, tc := range []struct {
		name, reject string
		co           Company
		doubt        string // "" when the line is ruled out
	}{
		{"B2B at four cues rules consumers out", "B2C", acme(), ""},
		{"B2B from the industry prior alone", "B2C", with(func(c *Company) { c.ModelScores = map[string]float64{"B2B": 0.39} }),
			"the business model that rules it out scores 0.39, under 0.80"},
		{"B2B at two cues in software", "B2C", with(func(c *Company) { c.ModelScores = map[string]float64{"B2B": 0.63} }),
			"the business model that rules it out scores 0.63, under 0.80"},
		{"B2B at two cues in IT services", "B2C", with(func(c *Company) {
			c.ModelScores = map[string]float64{"B2B": 0.63}
			c.Industries, c.IndustryScores = []string{"IT_SERVICES"}, map[string]float64{"IT_SERVICES": 0.9}
		}), ""},
		{"B2C scored beside B2B", "B2C", with(func(c *Company) { c.ModelScores = map[string]float64{"B2B": 0.95, "B2C": 0.45} }),
			"B2C scored 0.45 by the classifier, at least 0.40"},
		{"rejected industry scored", "real estate", with(func(c *Company) {
			c.Industries = []string{"SAAS", "REAL_ESTATE"}
			c.IndustryScores = map[string]float64{"SAAS": 0.8, "REAL_ESTATE": 0.15}
		}), "REAL_ESTATE scored 0.15 by the classifier, at least 0.10"},
		{"rejected industry absent", "real estate", acme(), ""},
		{"a parked page", "real estate", with(func(c *Company) {
			c.HomepageText = "acme.de This domain is parked and may be for sale. Contact the owner for offers."
		}), "classified from 15 words of homepage text, under 30"},
		{"size far outside", "more than 1,000 employees", acme(), ""},
		{"size overlapping", "fewer than 100 employees", acme(), "strength 0.49, at least 0.40"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := icp(tc.reject)
			v := m.Score(c, tc.co)
			var r CriterionResult
			for _, x := range v.Criteria {
				if x.Section == SectionReject {
					r = x
				}
			}
			if !strings.Contains(r.Doubt, tc.doubt) || (tc.doubt == "") != (r.Doubt == "") {
				t.Fatalf("doubt %q, want %q (evidence %s)", r.Doubt, tc.doubt, r.Evidence)
			}
			if tc.doubt == "" {
				if !v.Fit {
					t.Errorf("ruled out, yet %s %.2f: %s", v.FitText(), v.Score, v.Reasoning)
				}
				return
			}
			want := `Reject if "` + tc.reject + `" is uncertain on the evidence (` + r.Evidence + ": " + r.Doubt + ")"
			if v.Fit || v.Score > 0.49 || !strings.Contains(v.Reasoning, want) {
				t.Errorf("%s %.2f, reasoning %q; want No naming %q", v.FitText(), v.Score, v.Reasoning, want)
			}
			if len(Blockers(c, tc.co)) != 1 {
				t.Errorf("Blockers %v, want the line in doubt", Blockers(c, tc.co))
			}
		})
	}
}
