package fetch

import "testing"

func TestAllowList(t *testing.T) {
	a := NewAllowList([]string{" LocalHost ", "127.0.0.1:8081", "[::1]:2525", "fd00::1", ""})
	tests := []struct {
		host, port string
		want       bool
	}{
		{"localhost", "80", true},
		{"LOCALHOST.", "9999", true},
		{"127.0.0.1", "8081", true},
		{"127.0.0.1", "8082", false},
		{"::1", "2525", true},
		{"[::1]", "2525", true},
		{"::1", "25", false},
		{"fd00::1", "25", true},
		{"example.com", "80", false},
	}
	for _, tt := range tests {
		if got := a.Allows(tt.host, tt.port); got != tt.want {
			t.Errorf("Allows(%q, %q) = %v, want %v", tt.host, tt.port, got, tt.want)
		}
	}
	if (AllowList{}).Allows("localhost", "80") {
		t.Error("the zero AllowList admits localhost")
	}
}
