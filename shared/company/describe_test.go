package company

import (
	"strings"
	"testing"
)

func TestDescribe(t *testing.T) {
	emp := "51-200"
	p := Profile{Domain: "acme.de", Name: "Acme GmbH", Status: Status{Status: StatusActive},
		Description:    strings.Repeat("é", 1600),
		IndustryGroups: map[string]float64{"software": 0.9, "it_services": 0.9, "retail": 0.1},
		Keywords:       map[string]float64{"cnc": 2, "welding": 3},
		Employees:      &emp,
		Address:        Address{City: "Stuttgart", Country: "DE"}}
	got := p.Describe()
	want := "Name: Acme GmbH\nDomain: acme.de\nStatus: active\nDescription: " + strings.Repeat("é", 1500) + "…\n" +
		"Industries: it_services, software, retail\nEmployees: 51-200\nLocation: Stuttgart, DE\nKeywords: welding, cnc"
	if got != want {
		t.Errorf("Describe =\n%s\nwant\n%s", got, want)
	}
	if d := (Profile{Domain: "x.com"}).Describe(); d != "Domain: x.com" {
		t.Errorf("a bare profile describes as %q", d)
	}
	if k := TopKeys(map[string]float64{"a": 1, "b": 2, "c": 2}, 2); strings.Join(k, ",") != "b,c" {
		t.Errorf("TopKeys = %v, want b,c (highest first, ties by key, at most n)", k)
	}
}
