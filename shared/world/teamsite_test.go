package world

import (
	"reflect"
	"strings"
	"testing"
)

func TestTeamSite(t *testing.T) {
	w := New(Options{Seed: 7, Companies: 200, AsOf: asOf})
	var pages, leaders, contacts, archives, left, roles int
	for i := 0; i < w.Len(); i++ {
		c := w.Company(i)
		ts := w.TeamSite(i, c)
		if again := w.TeamSite(i, c); i%10 == 0 && !reflect.DeepEqual(ts, again) {
			t.Fatalf("%s: TeamSite is not deterministic", c.Domain)
		}
		pages += len(ts.Pages)
		for _, p := range ts.Pages {
			switch {
			case strings.Contains(p.URL, "/leadership") || strings.Contains(p.URL, "geschaeftsleitung") || strings.Contains(p.URL, "/direc") || strings.Contains(p.URL, "/lideranca") || strings.Contains(p.URL, "/direzione") || strings.Contains(p.URL, "/directie"):
				leaders++
			case strings.Contains(p.URL, "/arch"):
				archives++
			default:
				contacts++
			}
			if !strings.HasPrefix(p.URL, "https://") || p.StatusCode != 200 || p.HTML == "" {
				t.Errorf("%s: page %+v", c.Domain, p.URL)
			}
		}
		for _, l := range ts.Listed {
			if l.Department == "" || l.Seniority == "" {
				t.Errorf("%s: title %q has no truth labels (titleTruth is incomplete)", c.Domain, l.Title)
			}
			if len(l.Pages) == 0 {
				t.Errorf("%s: %s is listed on no page", c.Domain, l.Name)
			}
			for _, u := range l.Pages {
				if !pageHasName(c, ts, u, l.Name) {
					t.Errorf("%s: %s is not on %s", c.Domain, l.Name, u)
				}
			}
			if l.Left {
				left++
				for _, m := range c.Truth.Team {
					if m.Name == l.Name {
						t.Errorf("%s: %s left but is in the team", c.Domain, l.Name)
					}
				}
			}
		}
		roles += len(ts.RoleAddresses)
	}
	if leaders == 0 || contacts == 0 || archives == 0 || left == 0 || roles == 0 {
		t.Errorf("pages %d: leadership %d, contact %d, archive %d; left %d, role addresses %d; want some of each", pages, leaders, contacts, archives, left, roles)
	}
}

func pageHasName(c Company, ts TeamSite, pageURL, name string) bool {
	for _, p := range append(append(c.Pages[:0:0], c.Pages...), ts.Pages...) {
		if p.URL == pageURL {
			return strings.Contains(p.HTML, esc(name)) || strings.Contains(p.HTML, name)
		}
	}
	return false
}

func TestTitleTruthCoversTheLexicons(t *testing.T) {
	for _, lang := range Languages {
		for _, ti := range lexicons()[lang].list("title") {
			if d, s := titleTruthOf(ti); d == "" || s == "" {
				t.Errorf("%s: %q has no labels", lang, ti)
			}
		}
	}
}
