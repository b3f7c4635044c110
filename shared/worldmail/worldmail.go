// Package worldmail serves the demo world's mail on loopback, for the local composition
// (`firmo serve`): a DNS server (github.com/miekg/dns) answering the world's MX records
// and, for every MX host name of the world, an A record pointing at 127.0.0.1; and a
// mail server speaking real SMTP (github.com/emersion/go-smtp) that answers recipients
// from the world's truth (world.Mail): exactly the world's mailboxes on strict domains
// (550 5.1.1 for anyone else, and for people who left), any recipient on catch-all
// domains, and on greylisting domains 451 4.7.1 to the first attempt of each (client,
// sender, recipient) triplet until GreylistDelay has passed. Domains the world gives no
// mail host (NXDOMAIN, null MX, no MX records, a broken zone) get those DNS answers, so
// the verifier never reaches a mail server for them.
//
// The verifier reaches these servers only because the local composition points its
// resolver at Resolver, its SMTP port at Port, and admits the world's MX host names on
// that port through the verifier's allow list (AllowHosts); without that entry the
// loopback address is refused like any other private address. Nothing is ever
// delivered: DATA is refused.
package worldmail

import (
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-smtp"
	"github.com/miekg/dns"

	"github.com/firmoapi/firmo/shared/dnsmx"
	"github.com/firmoapi/firmo/shared/world"
)

// Options configure a Server. Zero fields take the defaults.
type Options struct {
	// GreylistDelay is how long a greylisting domain defers a new triplet (default 1 s).
	GreylistDelay time.Duration
}

// DefaultGreylistDelay is the default Options.GreylistDelay.
const DefaultGreylistDelay = time.Second

// Server is the world's DNS and mail servers on loopback.
type Server struct {
	delay    time.Duration
	udp, tcp *dns.Server
	dnsAddr  string
	smtp     *smtp.Server
	smtpLn   net.Listener
	smtpDone chan struct{}
	now      func() time.Time

	cur atomic.Pointer[state]

	glMu     sync.Mutex
	greylist map[string]time.Time // triplet -> first attempt

	rcpts atomic.Int64
}

// state is the world being served.
type state struct {
	w     *world.World
	zone  map[string]dnsmx.Answer
	hosts map[string]bool // MX host names (lower case)
	list  []string        // the same, sorted

	mu   sync.Mutex
	mail map[string]*world.Mail // generated on first use per domain
}

// maxCachedMail bounds the per-domain mail truth kept in memory.
const maxCachedMail = 20_000

// Start opens both servers on free loopback ports. They answer nothing until Set.
func Start(opt Options) (*Server, error) {
	if opt.GreylistDelay <= 0 {
		opt.GreylistDelay = DefaultGreylistDelay
	}
	s := &Server{delay: opt.GreylistDelay, now: time.Now, greylist: map[string]time.Time{}, smtpDone: make(chan struct{})}
	pc, ln, err := listenBoth()
	if err != nil {
		return nil, err
	}
	h := dns.HandlerFunc(func(w dns.ResponseWriter, q *dns.Msg) { w.WriteMsg(s.reply(q)) })
	s.udp, s.tcp = &dns.Server{PacketConn: pc, Handler: h}, &dns.Server{Listener: ln, Handler: h}
	s.dnsAddr = pc.LocalAddr().String()
	var wg sync.WaitGroup
	wg.Add(2)
	s.udp.NotifyStartedFunc, s.tcp.NotifyStartedFunc = wg.Done, wg.Done
	go s.udp.ActivateAndServe()
	go s.tcp.ActivateAndServe()
	wg.Wait()

	s.smtpLn, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.closeDNS()
		return nil, fmt.Errorf("world mail server: %w", err)
	}
	s.smtp = smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		host, _, _ := net.SplitHostPort(c.Conn().RemoteAddr().String())
		return &session{s: s, client: host}, nil
	}))
	s.smtp.Domain = "mx.world.invalid"
	s.smtp.ReadTimeout, s.smtp.WriteTimeout = time.Minute, time.Minute
	s.smtp.MaxRecipients = 100
	s.smtp.ErrorLog = log.New(io.Discard, "", 0)
	go func() {
		defer close(s.smtpDone)
		s.smtp.Serve(s.smtpLn)
	}()
	return s, nil
}

// listenBoth opens UDP and TCP on one free loopback port.
func listenBoth() (net.PacketConn, net.Listener, error) {
	for attempt := 0; ; attempt++ {
		pc, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			return nil, nil, fmt.Errorf("world DNS server: %w", err)
		}
		ln, err := net.Listen("tcp", pc.LocalAddr().String())
		if err == nil {
			return pc, ln, nil
		}
		pc.Close()
		if attempt == 20 {
			return nil, nil, fmt.Errorf("world DNS server: %w", err)
		}
	}
}

// Set serves w (replacing any world served before). It computes the world's MX
// answers and host names; each domain's mailboxes are generated on its first RCPT.
func (s *Server) Set(w *world.World) {
	st := &state{w: w, zone: w.Zone(), hosts: map[string]bool{}, mail: map[string]*world.Mail{}}
	st.list = w.MailHosts()
	for _, h := range st.list {
		st.hosts[h] = true
	}
	s.cur.Store(st)
}

// Resolver is the DNS server's "host:port" (UDP and TCP).
func (s *Server) Resolver() string { return s.dnsAddr }

// Port is the SMTP port on 127.0.0.1.
func (s *Server) Port() int { return s.smtpLn.Addr().(*net.TCPAddr).Port }

// GreylistDelay is how long a greylisting domain defers a new triplet.
func (s *Server) GreylistDelay() time.Duration { return s.delay }

// AllowHosts lists the allow-list entries that admit the world's MX hosts on the SMTP
// port ("host:port"), nil before Set: only these names, on this port only.
func (s *Server) AllowHosts() []string {
	st := s.cur.Load()
	if st == nil {
		return nil
	}
	port := strconv.Itoa(s.Port())
	out := make([]string, len(st.list))
	for i, h := range st.list {
		out[i] = net.JoinHostPort(h, port)
	}
	return out
}

// Recipients counts the RCPT commands answered, for tests.
func (s *Server) Recipients() int64 { return s.rcpts.Load() }

// Close stops both servers.
func (s *Server) Close() error {
	err := s.smtp.Close()
	<-s.smtpDone
	if errors.Is(err, smtp.ErrServerClosed) {
		err = nil
	}
	return errors.Join(err, s.closeDNS())
}

func (s *Server) closeDNS() error {
	return errors.Join(s.udp.Shutdown(), s.tcp.Shutdown())
}

// reply answers one DNS question: MX records of the world's domains, 127.0.0.1 for its
// MX host names, REFUSED for any other name.
func (s *Server) reply(q *dns.Msg) *dns.Msg {
	m := new(dns.Msg)
	m.SetReply(q)
	if len(q.Question) != 1 {
		m.Rcode = dns.RcodeFormatError
		return m
	}
	st := s.cur.Load()
	qq := q.Question[0]
	name := strings.ToLower(strings.TrimSuffix(qq.Name, "."))
	hdr := func(t uint16) dns.RR_Header {
		return dns.RR_Header{Name: qq.Name, Rrtype: t, Class: dns.ClassINET, Ttl: 300}
	}
	if st == nil {
		m.Rcode = dns.RcodeRefused
		return m
	}
	if st.hosts[name] {
		m.Authoritative = true
		if qq.Qtype == dns.TypeA {
			m.Answer = append(m.Answer, &dns.A{Hdr: hdr(dns.TypeA), A: net.IPv4(127, 0, 0, 1)})
		}
		return m
	}
	a, ok := st.zone[name]
	switch {
	case !ok:
		m.Rcode = dns.RcodeRefused
		return m
	case a.ServFail:
		m.Rcode = dns.RcodeServerFailure
		return m
	case a.NXDomain:
		m.Rcode = dns.RcodeNameError
		m.Authoritative = true
		return m
	}
	m.Authoritative = true
	if qq.Qtype != dns.TypeMX {
		return m // the world's domains have no address records here: no implicit MX
	}
	for _, mx := range a.MX {
		host := "."
		if mx.Host != "" {
			host = dns.Fqdn(mx.Host)
		}
		m.Answer = append(m.Answer, &dns.MX{Hdr: hdr(dns.TypeMX), Preference: mx.Preference, Mx: host})
	}
	return m
}

// mailOf returns the mail truth of a world domain.
func (st *state) mailOf(domain string) (*world.Mail, bool) {
	st.mu.Lock()
	m, ok := st.mail[domain]
	st.mu.Unlock()
	if ok {
		return m, true
	}
	i, ok := st.w.Lookup(domain)
	if !ok {
		return nil, false
	}
	mail := st.w.Mail(i)
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.mail) >= maxCachedMail {
		clear(st.mail)
	}
	st.mail[domain] = &mail
	return &mail, true
}

// greylisted reports whether the triplet must still be deferred, recording its first
// attempt.
func (s *Server) greylisted(client, from, rcpt string) bool {
	key := client + "\x00" + from + "\x00" + rcpt
	now := s.now()
	s.glMu.Lock()
	defer s.glMu.Unlock()
	first, ok := s.greylist[key]
	if !ok {
		if len(s.greylist) >= 100_000 {
			for k, t := range s.greylist {
				if now.Sub(t) > time.Hour {
					delete(s.greylist, k)
				}
			}
		}
		s.greylist[key] = now
		return true
	}
	return now.Sub(first) < s.delay
}

// session is one SMTP conversation.
type session struct {
	s      *Server
	client string
	from   string
}

var (
	errUnknown  = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "user unknown"}
	errRelay    = &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "relay access denied"}
	errGreylist = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 7, 1}, Message: "greylisted, try again later"}
	errNoData   = &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "this server delivers no mail"}
	errNoWorld  = &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "the world is not loaded yet"}
)

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	ss.from = strings.ToLower(from)
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.s.rcpts.Add(1)
	st := ss.s.cur.Load()
	if st == nil {
		return errNoWorld
	}
	to = strings.ToLower(to)
	at := strings.LastIndexByte(to, '@')
	if at <= 0 {
		return errUnknown
	}
	local, domain := to[:at], to[at+1:]
	m, ok := st.mailOf(domain)
	if !ok {
		return errRelay
	}
	switch m.Kind {
	case world.MailNone:
		return errRelay
	case world.MailGreylist:
		if ss.s.greylisted(ss.client, ss.from, to) {
			return errGreylist
		}
	}
	if !m.Accepts(local) {
		return errUnknown
	}
	return nil
}

func (ss *session) Data(r io.Reader) error {
	io.Copy(io.Discard, r)
	return errNoData
}

func (ss *session) Reset()        { ss.from = "" }
func (ss *session) Logout() error { return nil }
