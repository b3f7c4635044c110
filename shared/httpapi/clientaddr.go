package httpapi

import (
	"net"
	"net/http"
)

// ClientAddr is the IP address of the caller, for limits per address (sign-in). It is
// the peer of the connection, r.RemoteAddr, and never a header: X-Forwarded-For is
// written by the client as much as by proxies, so anyone could name any address there.
// Behind API Gateway (Lambda) the request is built by aws-lambda-go-api-proxy, which
// sets RemoteAddr to the event's requestContext.http.sourceIp, the address API Gateway
// itself saw. A proxy in front of API Gateway or of firmo serve (a CDN, a load
// balancer) makes every caller its own address; see README "Accounts and keys".
func ClientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr // sourceIp has no port
	}
	return host
}
