package domain

import (
	"errors"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/apperr"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"bare", "example.com", "example.com"},
		{"upper case URL with port path query", "HTTPS://WWW.Example.COM:8080/path?q", "example.com"},
		{"surrounding space", "  example.com \t\n", "example.com"},
		{"www", "www.example.com", "example.com"},
		{"subdomain", "shop.example.com", "example.com"},
		{"deep subdomain", "a.b.c.example.com", "example.com"},
		{"two-level suffix", "shop.example.co.uk", "example.co.uk"},
		{"two-level suffix australia", "a.b.example.com.au", "example.com.au"},
		{"registrable under two-level suffix", "example.co.uk", "example.co.uk"},
		{"scheme http", "http://example.org", "example.org"},
		{"other scheme", "ftp://files.example.org/pub", "example.org"},
		{"protocol relative", "//cdn.example.net/x.js", "example.net"},
		{"fragment", "example.com#top", "example.com"},
		{"query only", "example.com?a=b", "example.com"},
		{"trailing slash", "example.com/", "example.com"},
		{"backslash path", "example.com\\path", "example.com"},
		{"userinfo", "https://user:secret@www.example.com/", "example.com"},
		{"email address", "jane.doe@Example.com", "example.com"},
		{"port without scheme", "example.com:443", "example.com"},
		{"trailing dot", "example.com.", "example.com"},
		{"trailing dot with www", "www.example.com./", "example.com"},
		{"IDN", "münchen.de", "xn--mnchen-3ya.de"},
		{"IDN upper case", "MÜNCHEN.DE", "xn--mnchen-3ya.de"},
		{"IDN subdomain", "www.bücher.example.de", "example.de"},
		{"IDN in URL", "https://www.münchen.de/rathaus", "xn--mnchen-3ya.de"},
		{"punycode stays", "xn--mnchen-3ya.de", "xn--mnchen-3ya.de"},
		{"IDN TLD", "пример.рф", "xn--e1afmkfd.xn--p1ai"},
		{"ideographic full stop", "example。com", "example.com"},
		{"digits and hyphen", "3m-co.com", "3m-co.com"},
		{"private suffix keeps user site", "app.foo.github.io", "foo.github.io"},
		{"private suffix itself is a company domain", "github.io", "github.io"},
		{"private suffix blogspot", "blogspot.com", "blogspot.com"},
		{"private suffix under a company domain", "s3.amazonaws.com", "amazonaws.com"},
		{"host under private suffix", "bucket.s3.amazonaws.com", "bucket.s3.amazonaws.com"},
		{"new gTLD", "acme.technology", "acme.technology"},
		{"www as registrable label", "www.com", "www.com"},
		{"www as registrable label under two-level suffix", "www.co.uk", "www.co.uk"},
		{"wildcard suffix", "shop.example.ck", "shop.example.ck"},
		{"wildcard exception", "www.ck", "www.ck"},
		{"63-octet label", strings.Repeat("a", 63) + ".com", strings.Repeat("a", 63) + ".com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Normalize(tt.input)
			if err != nil {
				t.Fatalf("Normalize(%q) error: %v", tt.input, err)
			}
			if got != tt.want {
				t.Errorf("Normalize(%q) = %q, want %q", tt.input, got, tt.want)
			}
		})
	}
}

// invalidInputs are not domains; the reason fragment must appear in the message so users
// learn what to fix.
var invalidInputs = []struct {
	name, input, reason string
}{
	{"empty", "", "empty"},
	{"blank", "   ", "empty"},
	{"scheme only", "https://", "no host name"},
	{"space inside", "exa mple.com", "white space"},
	{"tab inside", "example.\tcom", "white space"},
	{"IPv4", "192.168.1.1", "IP address"},
	{"IPv4 URL", "http://10.0.0.1:8080/", "IP address"},
	{"IPv6", "[::1]", "IP address"},
	{"IPv6 URL", "http://[2001:db8::1]:80/", "IP address"},
	{"bare IPv6", "2001:db8::1", "IP address"},
	{"bare public suffix", "co.uk", "public suffix"},
	{"bare TLD", "com", "top-level domain"},
	{"wildcard public suffix", "anything.ck", "public suffix"},
	{"no dot", "localhost", "top-level domain"},
	{"unknown TLD", "example.notarealtld", "not a known top-level domain"},
	{"numeric TLD", "example.123", "not a known top-level domain"},
	{"empty label", "example..com", "empty label"},
	{"leading dot", ".example.com", "empty label"},
	{"underscore", "my_site.com", "not allowed"},
	{"leading hyphen", "-example.com", "not allowed"},
	{"trailing hyphen", "example-.com", "not allowed"},
	{"bad punycode", "xn--zz.com", "not allowed"},
	{"symbol", "exa$mple.com", "not allowed"},
	{"port not numeric", "example.com:http", "port"},
	{"label too long", strings.Repeat("a", 64) + ".com", "63"},
	{"name too long", strings.Repeat(strings.Repeat("a", 60)+".", 5) + "com", "253"},
}

func TestNormalizeInvalid(t *testing.T) {
	for _, tt := range invalidInputs {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Normalize(tt.input)
			if err == nil {
				t.Fatalf("Normalize(%q) = %q, want error", tt.input, got)
			}
			if !errors.Is(err, apperr.ErrInvalid) {
				t.Errorf("Normalize(%q) error %v does not wrap apperr.ErrInvalid", tt.input, err)
			}
			if !strings.Contains(err.Error(), tt.reason) {
				t.Errorf("Normalize(%q) error %q, want it to mention %q", tt.input, err, tt.reason)
			}
		})
	}
}

func TestNormalizeField(t *testing.T) {
	_, err := NormalizeField("domains.3", "not a domain")
	var e *apperr.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not an *apperr.Error", err)
	}
	if got, want := e.Field, "domains.3"; got != want {
		t.Errorf("Field = %q, want %q", got, want)
	}
	if !strings.Contains(e.Message, `"not a domain"`) {
		t.Errorf("Message %q does not quote the value", e.Message)
	}
	if got, want := apperr.Status(err), 422; got != want {
		t.Errorf("status = %d, want %d", got, want)
	}

	got, err := NormalizeField("domain", "WWW.EXAMPLE.COM")
	if err != nil || got != "example.com" {
		t.Errorf(`NormalizeField("domain", "WWW.EXAMPLE.COM") = %q, %v; want "example.com", nil`, got, err)
	}
}

func TestNormalizeFieldTruncatesEcho(t *testing.T) {
	input := strings.Repeat("x", 5000)
	_, err := NormalizeField("domain", input)
	var e *apperr.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v is not an *apperr.Error", err)
	}
	if len(e.Message) > 300 {
		t.Errorf("message is %d bytes long; a huge input must not be echoed whole", len(e.Message))
	}
}

func TestHost(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"bare", "example.com", "example.com"},
		{"www dropped", "https://www.example.com/a", "example.com"},
		{"subdomain kept", "HTTPS://Shop.Example.co.uk:8443/cart", "shop.example.co.uk"},
		{"www dropped before subdomain", "www.shop.example.com", "shop.example.com"},
		{"inner www kept", "shop.www.example.com", "shop.www.example.com"},
		{"www registrable kept", "www.com", "www.com"},
		{"www under public suffix kept", "www.co.uk", "www.co.uk"},
		{"www before private suffix dropped", "www.github.io", "github.io"},
		{"IDN", "Blog.München.de", "blog.xn--mnchen-3ya.de"},
		{"trailing dot", "api.example.com.", "api.example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Host(tt.input)
			if err != nil {
				t.Fatalf("Host(%q) error: %v", tt.input, err)
			}
			if got != tt.want {
				t.Errorf("Host(%q) = %q, want %q", tt.input, got, tt.want)
			}
		})
	}
}

func TestHostInvalid(t *testing.T) {
	for _, tt := range invalidInputs {
		t.Run(tt.name, func(t *testing.T) {
			if got, err := Host(tt.input); !errors.Is(err, apperr.ErrInvalid) {
				t.Errorf("Host(%q) = %q, %v; want an error wrapping apperr.ErrInvalid", tt.input, got, err)
			}
		})
	}
}

// Normalizing a normalized domain must change nothing: stored keys are re-normalized
// on every lookup.
func TestNormalizeIdempotent(t *testing.T) {
	inputs := []string{"HTTPS://WWW.Example.COM:8080/path?q", "münchen.de", "a.b.example.com.au", "github.io", "foo.github.io", "пример.рф"}
	for _, in := range inputs {
		t.Run(in, func(t *testing.T) {
			once, err := Normalize(in)
			if err != nil {
				t.Fatal(err)
			}
			twice, err := Normalize(once)
			if err != nil {
				t.Fatal(err)
			}
			if twice != once {
				t.Errorf("Normalize(Normalize(%q)) = %q, want %q", in, twice, once)
			}
		})
	}
}
