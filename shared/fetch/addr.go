package fetch

import (
	"net"
	"net/netip"
)

// Cloud metadata endpoints get their own reason: they are the usual SSRF prize.
var metadata = []netip.Addr{
	netip.MustParseAddr("169.254.169.254"), // AWS, GCP, Azure, OpenStack
	netip.MustParseAddr("fd00:ec2::254"),   // AWS IMDS over IPv6
	netip.MustParseAddr("100.100.100.200"), // Alibaba Cloud
}

type blockedRange struct {
	prefix netip.Prefix
	reason string
}

// blocked lists the ranges never fetched, beyond what netip's predicates cover.
var blocked = []blockedRange{
	{netip.MustParsePrefix("0.0.0.0/8"), "unspecified address"},
	{netip.MustParsePrefix("100.64.0.0/10"), "carrier-grade NAT address"},
	{netip.MustParsePrefix("192.0.0.0/24"), "reserved address"},
	{netip.MustParsePrefix("192.0.2.0/24"), "reserved address"},
	{netip.MustParsePrefix("198.18.0.0/15"), "reserved address"},
	{netip.MustParsePrefix("198.51.100.0/24"), "reserved address"},
	{netip.MustParsePrefix("203.0.113.0/24"), "reserved address"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved address"},
	{netip.MustParsePrefix("100::/64"), "reserved address"},
	{netip.MustParsePrefix("2001:db8::/32"), "reserved address"},
	{netip.MustParsePrefix("fec0::/10"), "private address"},
}

// Blocked says why an address is never fetched ("private address", "loopback
// address", "cloud metadata address", ...), or "" when it is a public unicast address.
// IPv4 addresses embedded in IPv6 (mapped, NAT64, 6to4) are judged as IPv4.
func Blocked(ip net.IP) string {
	a, ok := netip.AddrFromSlice(ip)
	if !ok {
		return "invalid address"
	}
	return blockedAddr(a.WithZone(""))
}

func blockedAddr(a netip.Addr) string {
	if a.Is4In6() {
		return blockedAddr(a.Unmap())
	}
	if v4, ok := embeddedV4(a); ok {
		return blockedAddr(v4)
	}
	for _, m := range metadata {
		if a == m {
			return "cloud metadata address"
		}
	}
	switch {
	case a.IsUnspecified():
		return "unspecified address"
	case a.IsLoopback():
		return "loopback address"
	case a.IsLinkLocalUnicast():
		return "link-local address"
	case a.IsMulticast():
		return "multicast address"
	case a.IsPrivate():
		return "private address"
	case a == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "broadcast address"
	}
	for _, b := range blocked {
		if b.prefix.Contains(a) {
			return b.reason
		}
	}
	return ""
}

var (
	nat64  = netip.MustParsePrefix("64:ff9b::/96")
	sixTo4 = netip.MustParsePrefix("2002::/16")
)

// embeddedV4 extracts the IPv4 address a NAT64 or 6to4 address routes to.
func embeddedV4(a netip.Addr) (netip.Addr, bool) {
	if !a.Is6() {
		return netip.Addr{}, false
	}
	b := a.As16()
	switch {
	case nat64.Contains(a):
		return netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}), true
	case sixTo4.Contains(a):
		return netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}), true
	}
	return netip.Addr{}, false
}
