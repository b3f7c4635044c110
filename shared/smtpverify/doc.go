// Package smtpverify checks whether a mail host accepts addresses, without sending mail.
//
// A check resolves the domain's MX records through a configurable DNS server
// (FIRMO_DNS_RESOLVER), then holds one SMTP conversation with the most preferred MX
// host that answers, on a configurable port (FIRMO_SMTP_PORT, 25 by default):
//
//	greeting, EHLO (HELO when EHLO is refused), STARTTLS when offered then EHLO again,
//	MAIL FROM:<FIRMO_SMTP_FROM>, RCPT TO a random address (the catch-all probe),
//	RCPT TO each candidate in order until one is accepted, RSET, QUIT.
//
// No DATA is ever sent. STARTTLS certificates are not verified: the conversation
// carries no message and many mail hosts use self-signed certificates, so TLS here is
// opportunistic (RFC 7435); a host whose handshake fails is retried in plain text.
//
// Address rules: the verifier connects only to public addresses, by the rules of the
// guarded fetch client (fetch.Blocked): an MX host, or the domain itself as implicit
// MX, that resolves to a private, loopback, link-local, CGNAT, reserved or cloud
// metadata address is never dialed, since anyone who controls a domain's DNS could
// otherwise make Firmo probe internal hosts. The check is made on the very address
// dialed, for every MX host tried, so a DNS answer that changes after the lookup
// (DNS rebinding) cannot slip through. Settings.AllowHosts (FIRMO_FETCH_ALLOW_HOSTS,
// the fetch client's allow list) admits local test and demo mail servers.
//
// DNS rules: a null MX (a single "." exchanger, RFC 7505) means the domain accepts no
// mail; a domain without MX records is its own mail host when it has A or AAAA
// records (RFC 5321 section 5.1), and has no mail host otherwise.
//
// Politeness: a Verifier opens at most Settings.PerHost sessions at once to one MX host
// and starts them at least Settings.HostInterval apart; the limits are per process
// (per Lambda instance on AWS). The catch-all verdict of a domain is cached for
// Settings.CatchAllTTL, so one probe serves every person of that domain.
//
// # Statuses
//
// Each check ends in exactly one status; all but found are results, not failures:
//
//   - found: a candidate was accepted (250 or 251 to RCPT TO) by a domain that is not
//     catch-all (the random probe was rejected). The result names that address.
//   - not_found: the domain is not catch-all and every candidate was rejected as an
//     unknown mailbox (550, 551, 552, 553, or an enhanced code 5.1.x).
//   - catch_all: the domain accepts any recipient (the random probe, every probe in the
//     escalate round, was accepted), so SMTP cannot tell which candidate exists, and no
//     known or company pattern points to one.
//   - catch_all_pattern: as catch_all, but the caller's known_pattern or the company's
//     inferred pattern gives the best guess; set by package emailfind, which knows the
//     patterns. The guess is not proven, so the result holds no address.
//   - undeliverable: the domain cannot receive mail: it does not exist (NXDOMAIN), has a
//     null MX, has neither MX nor address records, every MX host refuses connections
//     (connection refused, unreachable), or the host greets with a 5xx refusal. Also
//     when every MX host points at addresses the address rules refuse: no session is
//     opened, and the detail names the MX host, its address and why (such a domain
//     cannot receive mail from the internet either).
//   - error: the conversation failed for another reason: a protocol violation (a reply
//     that is not SMTP, mixed multi-line codes, more than 64 KiB of replies), the
//     connection closed mid-session, an unexpected reply (our sender refused with 5xx,
//     a 5xx policy refusal such as 554 5.7.1 to RCPT TO), or a DNS failure other than
//     NXDOMAIN (SERVFAIL, REFUSED).
//   - timeout: the DNS server, the TCP connection or the mail host did not answer within
//     its timeout or the check's budget (the context deadline).
//   - greylisted: the host kept answering with a temporary failure (4xx other than 421
//     and 452, typically 450/451 greylisting) after retries with a doubling wait
//     (Settings.GreylistWait, then twice that, ...) for as long as the budget and
//     Settings.MaxAttempts allowed.
//   - rate_limited: the host throttles us: 421 at any step (service closing) or 452
//     (too many recipients, insufficient storage). Neither is ever read as an
//     acceptance, so they cannot make a domain look catch-all.
//
// Outcome.Attempts counts SMTP sessions, greylisting retries included (0 when DNS
// alone decided); Outcome.Provider names the mail provider detected from the MX host
// names (google, microsoft, zoho, proton, yahoo, fastmail, mimecast, proofpoint,
// barracuda, ovh, ionos, godaddy, ...; see DetectProvider).
package smtpverify
