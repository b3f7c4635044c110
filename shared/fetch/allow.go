package fetch

import (
	"net"
	"strings"
)

// AllowList is the one exception to the address rules of Blocked: hosts ("localhost",
// "127.0.0.1") or host:port pairs ("127.0.0.1:8081", "[::1]:2525") admitted whatever
// their addresses (FIRMO_FETCH_ALLOW_HOSTS). It exists for local test and demo servers
// only. The guarded fetch client and the SMTP verifier (shared/smtpverify) both use it,
// so one setting admits a test server to either. The zero value admits nothing.
type AllowList struct {
	entries map[string]bool   // lower-case host or host:port, IPv6 with and without brackets
	ports   map[string]string // host -> the port of its host:port entry
}

// NewAllowList makes an allow list from entries as FIRMO_FETCH_ALLOW_HOSTS holds them;
// blank entries are ignored and case does not matter.
func NewAllowList(hosts []string) AllowList {
	a := AllowList{entries: map[string]bool{}, ports: map[string]string{}}
	for _, h := range hosts {
		if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
			a.entries[strings.Trim(h, "[]")] = true
			a.entries[h] = true
			if host, port, err := net.SplitHostPort(h); err == nil {
				a.ports[strings.Trim(host, "[]")] = port
			}
		}
	}
	return a
}

// PortOf is the port of a host's host:port entry, if the list has one.
func (a AllowList) PortOf(host string) (string, bool) {
	p, ok := a.ports[strings.ToLower(strings.Trim(strings.TrimSuffix(host, "."), "[]"))]
	return p, ok
}

// Allows reports whether host (a name or an IP address, IPv6 with or without brackets)
// is admitted on port: the host alone or the host:port pair is on the list.
func (a AllowList) Allows(host, port string) bool {
	if len(a.entries) == 0 {
		return false
	}
	host = strings.ToLower(strings.Trim(strings.TrimSuffix(host, "."), "[]"))
	return a.entries[host] || a.entries[net.JoinHostPort(host, port)]
}
