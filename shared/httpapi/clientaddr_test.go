package httpapi

import (
	"net/http/httptest"
	"testing"
)

func TestClientAddr(t *testing.T) {
	tests := []struct {
		name, remote, forwarded, want string
	}{
		{"IPv4 peer with port", "203.0.113.5:51234", "", "203.0.113.5"},
		{"IPv6 peer with port", "[2001:db8::1]:443", "", "2001:db8::1"},
		{"Lambda sourceIp has no port", "203.0.113.6", "", "203.0.113.6"},
		{"X-Forwarded-For is ignored", "203.0.113.5:1", "198.51.100.1", "203.0.113.5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("POST", "/v1/auth/login", nil)
			r.RemoteAddr = tt.remote
			if tt.forwarded != "" {
				r.Header.Set("X-Forwarded-For", tt.forwarded)
			}
			if got := ClientAddr(r); got != tt.want {
				t.Errorf("ClientAddr() = %q, want %q", got, tt.want)
			}
		})
	}
}
