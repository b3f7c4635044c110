package people_test

import (
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/people"
	"github.com/firmoapi/firmo/shared/world"
)

// TestWorldPeople grades the extraction against the demo world's truth: every person
// its pages list (world.TeamSite), on 400 companies.
func TestWorldPeople(t *testing.T) {
	w := world.New(world.Options{Seed: 1, Companies: 400, AsOf: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)})
	var listed, found, right, titleOK, labelOK, roleAsPerson, leftFound int
	byLang := map[string][2]int{}
	for i := 0; i < w.Len(); i++ {
		c := w.Company(i)
		ts := w.TeamSite(i, c)
		truth := map[string]world.Listed{}
		for _, l := range ts.Listed {
			truth[l.Name] = l
		}
		roles := map[string]bool{}
		for _, a := range ts.RoleAddresses {
			roles[a] = true
		}
		got := map[string]people.Person{}
		for _, p := range append(append(c.Pages[:0:0], c.Pages...), ts.Pages...) {
			if p.StatusCode != 200 {
				continue
			}
			for _, per := range people.Extract(p.HTML, p.URL, people.Options{Country: c.Truth.Country}) {
				if have, ok := got[per.Name]; ok {
					got[per.Name] = people.Merge(have, per)
				} else {
					got[per.Name] = per
				}
			}
		}
		listed += len(truth)
		for name, l := range truth {
			if _, ok := got[name]; !ok {
				t.Logf("%s: missed %q (%q) on %v", c.Domain, name, l.Title, l.Pages)
			}
		}
		for name, p := range got {
			found++
			if roles[p.Email] {
				roleAsPerson++
				t.Errorf("%s: role address %s read as %s's", c.Domain, p.Email, name)
			}
			l, ok := truth[name]
			if !ok {
				t.Logf("%s: %q (%q) is not listed", c.Domain, name, p.Title)
				continue
			}
			right++
			if l.Left {
				leftFound++
			}
			if p.Title == l.Title {
				titleOK++
			} else {
				t.Logf("%s: %s title %q, want %q", c.Domain, name, p.Title, l.Title)
			}
			s := byLang[c.Truth.Language]
			s[1]++
			if p.Department == l.Department && p.Seniority == l.Seniority {
				labelOK++
				s[0]++
			} else {
				t.Logf("%s: %q is %s/%s, truth %s/%s", c.Domain, p.Title, p.Department, p.Seniority, l.Department, l.Seniority)
			}
			byLang[c.Truth.Language] = s
		}
	}
	precision := float64(right) / float64(max(found, 1))
	recall := float64(right) / float64(max(listed, 1))
	titles := float64(titleOK) / float64(max(right, 1))
	labels := float64(labelOK) / float64(max(right, 1))
	t.Logf("listed %d, extracted %d, right %d: precision %.4f, recall %.4f; titles verbatim %.4f; department and seniority %.4f; people who left among the right ones %d",
		listed, found, right, precision, recall, titles, labels, leftFound)
	for lang, s := range byLang {
		t.Logf("  %s: labels %d/%d", lang, s[0], s[1])
	}
	if precision < 0.97 || recall < 0.90 || titles < 0.99 || labels < 0.95 {
		t.Errorf("precision %.4f (want >= 0.97), recall %.4f (want >= 0.90), titles %.4f (want >= 0.99), department and seniority %.4f (want >= 0.95)",
			precision, recall, titles, labels)
	}
	if roleAsPerson > 0 {
		t.Errorf("%d role addresses read as people's", roleAsPerson)
	}
}
