package company_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha1"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/company"
)

var now = time.Date(2025, 6, 15, 12, 0, 0, 0, time.UTC)

func newService(t testing.TB) *company.Service {
	t.Helper()
	d := company.NewDeriver(company.DeriverDeps{Now: func() time.Time { return now }})
	return company.NewService(company.NewKVStore(newBolt(t)), d)
}

const companiesCSV = `domain,name,alternate_names,street,city,state,zip,country,phone,description,employees,revenue_range,industry
https://www.Acme.de/about,Acme GmbH,Acme;ACME Software,Hauptstr. 1,München,BY,80331,DE,089 1234567,Software aus München,37,$3M,SOFTWARE
shop.beta.co.uk,Beta Ltd,,1 High St,London,,EC1A 1BB,GB,020 7946 0958,,1200,,
not a domain,Broken,,,,,,,,,,,
gamma.fr,Gamma SAS,,,Paris,,,Frankreich,,,,,
delta.es,Delta SL,,,Madrid,,,ES,,,lots,,
"epsilon.it,"Epsilon
`

func TestIngestCompaniesCSV(t *testing.T) {
	s := newService(t)
	ctx := context.Background()
	rep, err := s.IngestCompanies(ctx, strings.NewReader(companiesCSV), company.FormatAuto, company.IngestOptions{Name: "companies.csv"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != 6 || rep.Accepted != 2 || rep.Changed != 2 || rep.Skipped != 4 || rep.Refreshed != 2 {
		t.Fatalf("report = %+v", rep)
	}
	wantErrs := []struct {
		line  int
		field string
	}{{4, "domain"}, {5, "country"}, {6, "employees"}, {7, ""}}
	for i, w := range wantErrs {
		if i >= len(rep.Errors) {
			t.Fatalf("missing error %d; got %v", i, rep.Errors)
		}
		e := rep.Errors[i]
		if e.Line != w.line || e.Field != w.field || e.Message == "" {
			t.Errorf("error %d = %+v, want line %d field %q", i, e, w.line, w.field)
		}
	}
	p, err := s.Profile(ctx, "acme.de")
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "Acme GmbH" || p.Address.State != "Bayern" || deref(p.Employees) != "11-50" || p.RevenueRange != "1-10M" ||
		!reflect.DeepEqual(p.Phones, []string{"+49891234567"}) || p.Description != "Software aus München" || p.IndustryGroups["SOFTWARE"] != 1 {
		t.Errorf("acme profile = %+v", p)
	}
	if p, err := s.Profile(ctx, "www.beta.co.uk"); err != nil || p.Name != "Beta Ltd" || deref(p.Employees) != "1001-5000" || p.Address.State != "England" {
		t.Errorf("beta (ingested as a subdomain) = %+v, %v", p, err)
	}

	// The same file again changes nothing: no row changed, nothing derived again.
	before, _ := s.Store().Get(ctx, "acme.de")
	again, err := s.IngestCompanies(ctx, strings.NewReader(companiesCSV), company.FormatCSV, company.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Changed != 0 || again.Refreshed != 0 || again.Accepted != 2 || again.Skipped != 4 {
		t.Fatalf("second ingest = %+v, want no change", again)
	}
	after, _ := s.Store().Get(ctx, "acme.de")
	if after.Version != before.Version {
		t.Fatalf("second ingest rewrote the record (version %d -> %d)", before.Version, after.Version)
	}
}

func TestIngestCompaniesJSONL(t *testing.T) {
	s := newService(t)
	ctx := context.Background()
	in := `{"domain":"acme.com","name":"Acme Inc","employees":12,"alternate_names":["Acme"],"country":"US","state":"California","city":"San Francisco"}

{"domain":"acme.com","name":"Acme Incorporated","employees":"12","country":"US"}
{"domain":"bad.com","nmae":"typo"}
{"domain":"worse.com","employees":[1]}
not json
{"domain":"phone.de","country":"DE","phone":"12"}
`
	rep, err := s.IngestCompanies(ctx, strings.NewReader(in), company.FormatAuto, company.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != 6 || rep.Accepted != 2 || rep.Changed != 1 || rep.Skipped != 4 {
		t.Fatalf("report = %+v", rep)
	}
	got := []string{}
	for _, e := range rep.Errors {
		got = append(got, e.String())
	}
	want := []string{"line 4: nmae:", "line 5: employees:", "line 6: not a JSON object", "line 7: phone:"}
	for i := range want {
		if i >= len(got) || !strings.HasPrefix(got[i], want[i]) {
			t.Fatalf("errors = %q, want prefixes %q", got, want)
		}
	}
	p, err := s.Profile(ctx, "acme.com")
	if err != nil || p.Name != "Acme Incorporated" {
		t.Fatalf("the later row for a domain must win: %+v, %v", p, err)
	}
}

func TestIngestCompaniesBadHeader(t *testing.T) {
	s := newService(t)
	_, err := s.IngestCompanies(context.Background(), strings.NewReader("domain,nmae\nacme.com,Acme\n"), company.FormatCSV, company.IngestOptions{})
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Field != "nmae" {
		t.Fatalf("err = %v, want a validation error naming nmae", err)
	}
}

// realCert makes a real X.509 certificate signed by a throwaway CA.
func realCert(t *testing.T, cn string, sans []string, from time.Time, days int) []byte {
	t.Helper()
	caPub, caKey, _ := ed25519.GenerateKey(rand.Reader)
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "Test CA"}, NotBefore: from.AddDate(-1, 0, 0), NotAfter: from.AddDate(5, 0, 0), IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, caPub, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, _ := x509.ParseCertificate(caDER)
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	leaf := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: cn, Organization: []string{"Acme GmbH"}, Locality: []string{"Berlin"}, Province: []string{"Berlin"}, Country: []string{"DE"}},
		DNSNames:     sans, NotBefore: from, NotAfter: from.AddDate(0, 0, days),
	}
	der, err := x509.CreateCertificate(rand.Reader, leaf, caCert, pub, caKey)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

func TestIngestCertificatesPEM(t *testing.T) {
	s := newService(t)
	ctx := context.Background()
	der1 := realCert(t, "www.acme.de", []string{"www.acme.de", "acme.de", "*.shop.acme.de", "acme-partner.com"}, now.AddDate(0, -1, 0), 90)
	der2 := realCert(t, "Acme Mail Gateway", []string{"mail.acme.de"}, now.AddDate(-1, 0, 0), 365)
	var buf bytes.Buffer
	buf.WriteString("# bundle exported from the CT log\n")
	pem.Encode(&buf, &pem.Block{Type: "CERTIFICATE", Bytes: der1})
	buf.WriteString("-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n")
	pem.Encode(&buf, &pem.Block{Type: "PRIVATE KEY", Bytes: []byte{1, 2, 3}})
	pem.Encode(&buf, &pem.Block{Type: "CERTIFICATE", Bytes: der2})
	bundle := buf.Bytes()

	rep, err := s.IngestCertificates(ctx, bytes.NewReader(bundle), company.FormatAuto, company.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != 4 || rep.Accepted != 2 || rep.Skipped != 2 || rep.Changed != 2 || rep.Refreshed != 2 {
		t.Fatalf("report = %+v (errors %v)", rep, rep.Errors)
	}
	pemLines := strings.Count(strings.Split(string(bundle), "-----BEGIN CERTIFICATE-----\nbm90")[0], "\n") + 1
	if e := rep.Errors[0]; e.Line != pemLines || !strings.Contains(e.Message, "X.509") {
		t.Errorf("bad certificate error = %+v, want line %d", e, pemLines)
	}
	if e := rep.Errors[1]; !strings.Contains(e.Message, "PRIVATE KEY block is not a certificate") {
		t.Errorf("private key error = %+v", e)
	}

	_, certs, err := s.History(ctx, "shop.acme.de", 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(certs) != 2 {
		t.Fatalf("acme.de has %d certificates, want 2", len(certs))
	}
	sum := sha1.Sum(der1)
	c := certs[0] // newest first
	if c.SHA1Fingerprint != hex.EncodeToString(sum[:]) || c.FQDN != "www.acme.de" || c.Organization != "Acme GmbH" || c.City != "Berlin" || c.Country != "DE" ||
		!c.DateFrom.Equal(now.AddDate(0, -1, 0)) || !c.DateTo.Equal(now.AddDate(0, -1, 90)) {
		t.Errorf("certificate = %+v", c)
	}
	if certs[1].FQDN != "mail.acme.de" {
		t.Errorf("a common name that is no host name must give way to the first SAN: %q", certs[1].FQDN)
	}
	// The SAN of another registrable domain files the certificate there too.
	if _, partner, err := s.History(ctx, "acme-partner.com", 1000); err != nil || len(partner) != 1 {
		t.Fatalf("acme-partner.com: %d certificates, %v", len(partner), err)
	}
	p, _ := s.Profile(ctx, "acme.de")
	if p.Status.Status != company.StatusActive || deref(p.StartDate) != company.Date(now.AddDate(-1, 0, 0)) || p.Score == 0 {
		t.Errorf("profile after certificates = %+v", p)
	}

	again, err := s.IngestCertificates(ctx, bytes.NewReader(bundle), company.FormatPEM, company.IngestOptions{})
	if err != nil || again.Changed != 0 || again.Refreshed != 0 {
		t.Fatalf("second ingest = %+v, %v; want no change", again, err)
	}
}

func TestIngestCertificatesJSONL(t *testing.T) {
	s := newService(t)
	ctx := context.Background()
	in := `{"sha1_fingerprint":"AB:CD:` + strings.Repeat("0", 36) + `","fqdn":"api.beta.io","alternative_fqdn":["beta.io"],"date_from":"2024-01-01T00:00:00Z","date_to":"2024-04-01"}
{"sha1_fingerprint":"xyz","fqdn":"beta.io","date_from":"2024-01-01","date_to":"2024-04-01"}
{"sha1_fingerprint":"` + strings.Repeat("1", 40) + `","fqdn":"beta.io","date_from":"2024-05-01","date_to":"2024-04-01"}
{"sha1_fingerprint":"` + strings.Repeat("2", 40) + `","fqdn":"10.0.0.1","date_from":"2024-01-01","date_to":"2024-04-01"}
`
	rep, err := s.IngestCertificates(ctx, strings.NewReader(in), company.FormatAuto, company.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fields := []string{}
	for _, e := range rep.Errors {
		fields = append(fields, e.Field)
	}
	if rep.Accepted != 1 || !reflect.DeepEqual(fields, []string{"sha1_fingerprint", "date_to", "fqdn"}) {
		t.Fatalf("report = %+v", rep)
	}
	dom, certs, err := s.History(ctx, "beta.io", 100)
	if err != nil || dom != "beta.io" || len(certs) != 1 || certs[0].SHA1Fingerprint != "abcd"+strings.Repeat("0", 36) {
		t.Fatalf("history = %s %+v %v", dom, certs, err)
	}
}

func TestIngestPages(t *testing.T) {
	s := newService(t)
	ctx := context.Background()
	in := `{"url":"https://www.acme.de/","html":"<html><head><title>Acme GmbH | Home</title></head><body>Hallo</body></html>","fetched_at":"2025-06-01T10:00:00Z"}
{"url":"https://acme.de/team","html":"<html><body>Team</body></html>"}
{"url":"https://old-acme.de/","html":"","status_code":301,"final_url":"https://www.acme.de/"}
{"url":"ftp://acme.de/","html":""}
{"url":"https://acme.de/x"}
{"url":"https://acme.de/y","html":"x","status_code":999}
`
	rep, err := s.IngestPages(ctx, strings.NewReader(in), company.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Accepted != 3 || rep.Changed != 3 || rep.Skipped != 3 || rep.Refreshed != 2 {
		t.Fatalf("report = %+v", rep)
	}
	for i, f := range []string{"url", "html", "status_code"} {
		if rep.Errors[i].Field != f || rep.Errors[i].Line != 4+i {
			t.Errorf("error %d = %+v, want field %s", i, rep.Errors[i], f)
		}
	}
	html, u, err := s.Homepage(ctx, "acme.de")
	if err != nil || u != "https://www.acme.de/" || !strings.Contains(string(html), "Hallo") {
		t.Fatalf("Homepage = %q, %q, %v", html, u, err)
	}
	p, _ := s.Profile(ctx, "acme.de")
	if p.Name != "Acme GmbH" {
		t.Errorf("name from the homepage title = %q", p.Name)
	}
	old, _ := s.Profile(ctx, "old-acme.de")
	if deref(old.RedirectDomain) != "acme.de" {
		t.Errorf("redirect_domain = %v", old.RedirectDomain)
	}
	if _, _, err := s.Homepage(ctx, "old-acme.de"); !errors.Is(err, apperr.ErrNotFound) {
		t.Errorf("a redirect is no readable homepage: %v", err)
	}
	again, err := s.IngestPages(ctx, strings.NewReader(in), company.IngestOptions{})
	if err != nil || again.Changed != 0 || again.Refreshed != 0 {
		t.Fatalf("second ingest = %+v, %v; want no change", again, err)
	}
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
