package people

import (
	"strings"
	"testing"
)

func names(ps []Person) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name+" | "+p.Title)
	}
	return out
}

func find(t *testing.T, ps []Person, name string) Person {
	t.Helper()
	for _, p := range ps {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("%s not found among %q", name, names(ps))
	return Person{}
}

func TestExtractLayouts(t *testing.T) {
	const url = "https://acme.de/team"
	tests := []struct {
		name string
		html string
		want map[string]string // name -> title
	}{
		{"json-ld organization employees", `<html><head><script type="application/ld+json">
{"@context":"https://schema.org","@type":"Organization","name":"Acme","employee":[
 {"@type":"Person","name":"Anna Müller","jobTitle":"Geschäftsführerin","email":"mailto:anna.mueller@acme.de","sameAs":["https://www.linkedin.com/in/anna-mueller-1"]},
 {"@type":"Person","givenName":"Jan","familyName":"de Vries","jobTitle":"CTO","telephone":"+49 30 1234567"}]}
</script></head><body><p>Hello</p></body></html>`,
			map[string]string{"Anna Müller": "Geschäftsführerin", "Jan de Vries": "CTO"}},
		{"microdata", `<div itemscope itemtype="https://schema.org/Person"><span itemprop="name">Claire Dubois</span>
<span itemprop="jobTitle">Directrice financière</span><a itemprop="email" href="mailto:claire.dubois@acme.fr">claire.dubois@acme.fr</a>
<div itemprop="worksFor" itemscope itemtype="https://schema.org/Organization"><span itemprop="name">Acme SAS</span></div></div>`,
			map[string]string{"Claire Dubois": "Directrice financière"}},
		{"hcard", `<div class="vcard"><span class="fn">María García</span><span class="title">Directora comercial</span>
<a class="email" href="mailto:info@acme.es">info@acme.es</a></div>
<div class="h-card"><p class="p-name">Luca Rossi</p><p class="p-job-title">Direttore tecnico</p></div>`,
			map[string]string{"María García": "Directora comercial", "Luca Rossi": "Direttore tecnico"}},
		{"cards", `<main><h1>Our team</h1><p>Meet the people behind Acme.</p><div class="grid">
<div class="card"><h3>Emma Wilson</h3><p>Chief Executive Officer</p></div>
<div class="card"><h3>Head of Sales</h3><p>James Taylor</p></div>
<div class="card"><h3>Sales Team</h3><p><a href="mailto:sales@acme.com">sales@acme.com</a></p></div>
<div class="card"><h3>Press Office</h3><p>press@acme.com</p></div>
</div></main>`,
			map[string]string{"Emma Wilson": "Chief Executive Officer", "James Taylor": "Head of Sales"}},
		{"table and dl", `<table><tr><th>Name</th><th>Role</th></tr><tr><td>Pieter Bakker</td><td>Financieel directeur</td></tr>
<tr><td>Sanne Visser</td><td>Marketingmanager</td></tr></table>
<dl><dt>João Silva</dt><dd>Diretor comercial</dd><dt>Ana Costa</dt><dd>Engenheiro de software</dd></dl>`,
			map[string]string{"Pieter Bakker": "Financieel directeur", "Sanne Visser": "Marketingmanager", "João Silva": "Diretor comercial", "Ana Costa": "Engenheiro de software"}},
		{"lines", `<section class="leadership"><p>Thomas Koch – Vertriebsleiter</p><p>Julia Schulz, Leiterin Finanzen</p></section>`,
			map[string]string{"Thomas Koch": "Vertriebsleiter", "Julia Schulz": "Leiterin Finanzen"}},
		{"no people", `<main><h1>Unser Team</h1><p>Lernen Sie uns kennen.</p><ul class="nav"><li>Startseite</li><li>Über uns</li></ul>
<p>Kontakt: <a href="mailto:info@acme.de">info@acme.de</a></p><p>Müller Bau GmbH</p><p>Hauptstraße 12</p></main>`, map[string]string{}},
		{"bare names are not people", `<ul class="clients"><li>Anna Müller</li><li>Thomas Koch</li></ul>`, map[string]string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Extract(tc.html, url, Options{Country: "DE"})
			if len(got) != len(tc.want) {
				t.Fatalf("got %q, want %d people %v", names(got), len(tc.want), tc.want)
			}
			for _, p := range got {
				if want, ok := tc.want[p.Name]; !ok || p.Title != want {
					t.Errorf("got %q with title %q; want %v", p.Name, p.Title, tc.want)
				}
				if p.SourceURL != url {
					t.Errorf("%s: source_url %q", p.Name, p.SourceURL)
				}
				if p.Title != "" && (p.Department == "" || p.Seniority == "") {
					t.Errorf("%s: title %q not classified", p.Name, p.Title)
				}
			}
		})
	}
}

func TestExtractFields(t *testing.T) {
	page := `<ul class="team">
<li class="member"><h3>Anna Müller</h3><p class="role">Geschäftsführerin</p><a href="mailto:anna.mueller@acme.de">anna.mueller@acme.de</a>
<a href="tel:+4915112345678">0151 12345678</a><a href="https://www.linkedin.com/in/anna-mueller">LinkedIn</a></li>
<li class="member"><h3>Thomas Koch</h3><p class="role">Vertriebsleiter</p><a href="mailto:vertrieb@acme.de">vertrieb@acme.de</a><p>Tel.: 030 1234567</p></li>
</ul>`
	got := Extract(page, "https://acme.de/team", Options{Country: "DE"})
	anna := find(t, got, "Anna Müller")
	if anna.Email != "anna.mueller@acme.de" || anna.LinkedInURL != "https://www.linkedin.com/in/anna-mueller" {
		t.Errorf("anna: %+v", anna)
	}
	if len(anna.Phones) != 1 || anna.Phones[0].Phone != "+4915112345678" || anna.Phones[0].Type != "mobile" {
		t.Errorf("anna phones %+v, want one mobile +4915112345678", anna.Phones)
	}
	if anna.Department != "Executive" || anna.Seniority != "executive" {
		t.Errorf("anna classified %s/%s", anna.Department, anna.Seniority)
	}
	thomas := find(t, got, "Thomas Koch")
	if thomas.Email != "" {
		t.Errorf("a role address was given to a person: %q", thomas.Email)
	}
	if len(thomas.Phones) != 1 || thomas.Phones[0].Type != "landline" {
		t.Errorf("thomas phones %+v, want one landline", thomas.Phones)
	}
}

func TestRoleAddresses(t *testing.T) {
	for _, a := range []string{"info@acme.de", "Sales@acme.com", "kontakt@x.de", "press@x.com", "jobs2@x.com", "no-reply@x.com"} {
		if !IsRoleAddress(a) {
			t.Errorf("%s is a role address", a)
		}
	}
	for _, a := range []string{"anna.mueller@acme.de", "jsmith@acme.com", "thomas@x.de"} {
		if IsRoleAddress(a) {
			t.Errorf("%s is a person's address", a)
		}
	}
}

func TestIsName(t *testing.T) {
	yes := []string{"Anna Müller", "Jan de Vries", "Pieter van den Berg", "Mary-Jane O'Neil", "J. R. Smith", "Élodie Fournier"}
	no := []string{"Our Team", "Sales Team", "Anna", "ANNA MÜLLER", "Müller Bau 12", "Press Office", "Head of Sales", "anna müller", strings.Repeat("Abc ", 6)}
	for _, s := range yes {
		if !IsName(s) {
			t.Errorf("IsName(%q) = false", s)
		}
	}
	for _, s := range no {
		if IsName(s) {
			t.Errorf("IsName(%q) = true", s)
		}
	}
}
