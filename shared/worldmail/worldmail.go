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
	dns      *dnsmx.Server
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
	var err error
	if s.dns, err = dnsmx.Serve("127.0.0.1:0", worldZone{s}); err != nil {
		return nil, fmt.Errorf("world DNS server: %w", err)
	}

	s.smtpLn, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.dns.Close()
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
func (s *Server) Resolver() string { return s.dns.Addr() }

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

// Owns reports whether the world being served holds domain or a parent of it (a
// subdomain's mail is the world's too); false before Set. The verifier of the local
// composition sends exactly these domains here and every other one to the real DNS.
func (s *Server) Owns(domain string) bool {
	st := s.cur.Load()
	if st == nil {
		return false
	}
	name := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(domain), "."))
	for name != "" {
		if _, ok := st.zone[name]; ok {
			return true
		}
		if _, ok := st.w.Lookup(name); ok {
			return true
		}
		dot := strings.IndexByte(name, '.')
		if dot < 0 {
			break
		}
		name = name[dot+1:]
	}
	return false
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
	return errors.Join(err, s.dns.Close())
}

// worldZone is the world being served as a DNS zone: the MX answers of its domains,
// 127.0.0.1 for its MX host names, nothing (REFUSED) for any other name or before Set.
type worldZone struct{ s *Server }

var loopback = []net.IP{net.IPv4(127, 0, 0, 1)}

func (z worldZone) Answer(name string) (dnsmx.Answer, bool) {
	st := z.s.cur.Load()
	if st == nil {
		return dnsmx.Answer{}, false
	}
	if st.hosts[name] {
		return dnsmx.Answer{A: loopback}, true
	}
	a, ok := st.zone[name]
	return a, ok
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
