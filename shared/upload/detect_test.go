package upload

import (
	"errors"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
)

func TestDetectColumn(t *testing.T) {
	tests := []struct {
		name   string
		header []string
		rows   [][]string
		kind   ColumnKind
		want   int
	}{
		{name: "domain header", header: []string{"name", "Domain"}, kind: Domain, want: 1},
		{name: "company_domain header", header: []string{"id", "Company_Domain"}, kind: Domain, want: 1},
		{name: "website header", header: []string{"Company Name", "Website"}, kind: Domain, want: 1},
		{name: "url header", header: []string{"company", "URL"}, kind: Domain, want: 1},
		{name: "domain beats website", header: []string{"website", "domain"}, kind: Domain, want: 1},
		{name: "header holding a domain word", header: []string{"name", "Primary Domain (main)"}, kind: Domain, want: 1},
		{name: "company website is a domain column", header: []string{"Company Website", "Notes"}, kind: Domain, want: 0},
		{name: "company name header", header: []string{"domain", "Company Name"}, kind: Name, want: 1},
		{name: "company beats name", header: []string{"name", "company"}, kind: Name, want: 1},
		{name: "organisation header", header: []string{"website", "Organisation"}, kind: Name, want: 1},
		{name: "organization name header", header: []string{"website", "organization-name"}, kind: Name, want: 1},
		{name: "name header", header: []string{"domain", "Name"}, kind: Name, want: 1},
		{name: "German Firma", header: []string{"Webseite", "Firma"}, kind: Name, want: 1},
		{name: "German Webseite", header: []string{"Firma", "Webseite"}, kind: Domain, want: 1},
		{name: "French société", header: []string{"Site web", "Société"}, kind: Name, want: 1},
		{name: "header holding a name word", header: []string{"id", "Company (legal)"}, kind: Name, want: 1},
		{name: "company website is not a name column", header: []string{"Company Website", "Legal Name"}, kind: Name, want: 1},
		{name: "domains by values", header: []string{"id", "col_b", "col_c"}, rows: [][]string{
			{"1", "Acme", "https://www.acme.com/about"}, {"2", "Example", "example.co.uk"}, {"3", "Blank", ""}, {"4", "Other", "not a domain"}, {"5", "Münch", "münchen.de"},
		}, kind: Domain, want: 2},
		{name: "e-mail addresses are not domains", header: []string{"contact", "site"}, rows: [][]string{
			{"a@acme.com", "acme.com"}, {"b@example.com", "example.com"},
		}, kind: Domain, want: 1},
		{name: "values beat nothing but e-mails", header: []string{"contact", "x"}, rows: [][]string{
			{"a@acme.com", "acme.com"}, {"b@example.com", "example.com"},
		}, kind: Domain, want: 1},
		{name: "single column of names", header: []string{"Kunde"}, rows: [][]string{{"Acme"}}, kind: Name, want: 0},
		{name: "single column of domains under any header", header: []string{"list"}, rows: [][]string{{"acme.com"}}, kind: Domain, want: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rows := tc.rows
			if rows == nil {
				rows = [][]string{make([]string, len(tc.header))}
			}
			got, err := DetectColumn(Table{Header: tc.header, Rows: rows}, tc.kind)
			if err != nil || got != tc.want {
				t.Fatalf("DetectColumn = %d, %v; want %d", got, err, tc.want)
			}
		})
	}
}

func TestDetectColumnFails(t *testing.T) {
	tests := []struct {
		name  string
		table Table
		kind  ColumnKind
		field string
	}{
		{name: "no domain header and no domain values", kind: Domain, field: "domain_column", table: Table{
			Header: []string{"id", "notes"}, Rows: [][]string{{"1", "call back"}, {"2", "acme.com"}, {"3", "n/a"}}}},
		{name: "only e-mail addresses", kind: Domain, field: "domain_column", table: Table{
			Header: []string{"id", "contact"}, Rows: [][]string{{"1", "a@acme.com"}, {"2", "b@example.com"}}}},
		{name: "no name header", kind: Name, field: "name_column", table: Table{
			Header: []string{"domain", "employees"}, Rows: [][]string{{"acme.com", "5"}}}},
		{name: "contact name is not a company name", kind: Name, field: "name_column", table: Table{
			Header: []string{"First Name", "Last Name"}, Rows: [][]string{{"Ada", "Lovelace"}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DetectColumn(tc.table, tc.kind)
			var ae *apperr.Error
			if !errors.As(err, &ae) {
				t.Fatalf("DetectColumn = %d, %v; want an apperr.Error", got, err)
			}
			if ae.Kind != apperr.ErrInvalid || ae.Field != tc.field || got != -1 {
				t.Errorf("DetectColumn = %d, %v %q; want -1, invalid %q", got, ae.Kind, ae.Field, tc.field)
			}
			if !strings.Contains(ae.Message, strings.Join(tc.table.Header, ", ")) {
				t.Errorf("message %q does not list the columns", ae.Message)
			}
		})
	}
}
