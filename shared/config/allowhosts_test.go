package config

import (
	"strings"
	"testing"
)

func TestFetchAllowHosts(t *testing.T) {
	tests := []struct {
		raw     string
		want    string // joined with |
		wantErr bool
	}{
		{"", "", false},
		{"127.0.0.1:8081, LocalHost ,[::1]:9000,::1", "127.0.0.1:8081|localhost|[::1]:9000|::1", false},
		{"127.0.0.1:99999", "", true},
		{"http://127.0.0.1:8081", "", true},
		{"example.com/path", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			c, err := Load(func(k string) string {
				if k == "FIRMO_FETCH_ALLOW_HOSTS" {
					return tt.raw
				}
				return ""
			})
			if tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), "FIRMO_FETCH_ALLOW_HOSTS") {
					t.Fatalf("err = %v, want one naming FIRMO_FETCH_ALLOW_HOSTS", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(c.FetchAllowHosts, "|"); got != tt.want {
				t.Fatalf("FetchAllowHosts = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFetchDNSResolver(t *testing.T) {
	for raw, want := range map[string]string{"": "", "127.0.0.1:5353": "127.0.0.1:5353", "10.0.0.2": "10.0.0.2:53", "bad host:x": "error"} {
		c, err := Load(func(k string) string {
			if k == "FIRMO_FETCH_DNS_RESOLVER" {
				return raw
			}
			return ""
		})
		switch {
		case want == "error":
			if err == nil || !strings.Contains(err.Error(), "FIRMO_FETCH_DNS_RESOLVER") {
				t.Errorf("%q: err = %v, want one naming FIRMO_FETCH_DNS_RESOLVER", raw, err)
			}
		case err != nil || c.FetchDNS != want:
			t.Errorf("%q: FetchDNS = %q, %v; want %q", raw, c.FetchDNS, err, want)
		}
	}
}
