package smtpverify

import (
	"bufio"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"strings"
	"time"
)

// maxReplyBytes bounds what one session reads from a server, so a hostile or broken
// server cannot make a verification hold unbounded memory.
const maxReplyBytes = 64 << 10

// reply is one SMTP reply.
type reply struct {
	code int
	text string // the reply text, lines joined with "; "
}

func (r reply) String() string { return fmt.Sprintf("%d %s", r.code, r.text) }

// conn is the client side of one SMTP session. Every command and reply is bounded by
// the command timeout and by the context's deadline.
type conn struct {
	nc      net.Conn
	host    string
	r       *textproto.Reader
	w       *bufio.Writer
	limit   *io.LimitedReader
	timeout time.Duration
	ctx     context.Context
	stop    func() bool // detaches the context watcher
	ext     map[string]string
	broken  bool // a read or write failed: the session cannot continue
}

func newConn(ctx context.Context, nc net.Conn, host string, timeout time.Duration) *conn {
	c := &conn{nc: nc, host: host, timeout: timeout, ctx: ctx}
	c.wrap(nc)
	// A cancelled context (job budget spent, shutdown) unblocks a pending read at once.
	c.stop = context.AfterFunc(ctx, func() { nc.SetDeadline(time.Now()) })
	return c
}

// wrap (re)builds the buffered reader and writer over nc, after STARTTLS too. Small
// buffers keep a session's memory low: SMTP replies are short lines.
func (c *conn) wrap(nc net.Conn) {
	c.nc = nc
	remaining := int64(maxReplyBytes)
	if c.limit != nil {
		remaining = c.limit.N
	}
	c.limit = &io.LimitedReader{R: nc, N: remaining}
	c.r = textproto.NewReader(bufio.NewReaderSize(c.limit, 512))
	c.w = bufio.NewWriterSize(nc, 512)
}

func (c *conn) deadline() time.Time {
	d := time.Now().Add(c.timeout)
	if cd, ok := c.ctx.Deadline(); ok && cd.Before(d) {
		d = cd
	}
	return d
}

// read reads one (possibly multi-line) reply. Lines are "ddd text" or "ddd-text" for
// all but the last line; a bare "ddd" is valid too (RFC 5321 section 4.2).
func (c *conn) read() (reply, error) {
	c.nc.SetReadDeadline(c.deadline())
	var lines []string
	code := 0
	for {
		line, err := c.r.ReadLine()
		if err != nil {
			c.broken = true
			if c.limit.N <= 0 {
				return reply{}, &protocolError{host: c.host, msg: fmt.Sprintf("the server sent more than %d bytes", maxReplyBytes)}
			}
			return reply{}, err
		}
		n, more, text, ok := parseReplyLine(line)
		if !ok {
			c.broken = true
			return reply{}, &protocolError{host: c.host, msg: fmt.Sprintf("%q is not an SMTP reply line", truncate(line, 80))}
		}
		if code != 0 && n != code {
			c.broken = true
			return reply{}, &protocolError{host: c.host, msg: fmt.Sprintf("a multi-line reply mixes codes %d and %d", code, n)}
		}
		code = n
		lines = append(lines, text)
		if !more {
			return reply{code: code, text: strings.Join(lines, "; ")}, nil
		}
	}
}

func parseReplyLine(line string) (code int, more bool, text string, ok bool) {
	if len(line) < 3 || line[0] < '2' || line[0] > '5' || line[1] < '0' || line[1] > '9' || line[2] < '0' || line[2] > '9' {
		return 0, false, "", false
	}
	code = int(line[0]-'0')*100 + int(line[1]-'0')*10 + int(line[2]-'0')
	if len(line) == 3 {
		return code, false, "", true
	}
	switch line[3] {
	case ' ':
		return code, false, line[4:], true
	case '-':
		return code, true, line[4:], true
	}
	return 0, false, "", false
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// cmd sends one command line and reads its reply.
func (c *conn) cmd(format string, args ...any) (reply, error) {
	c.nc.SetWriteDeadline(c.deadline())
	fmt.Fprintf(c.w, format, args...)
	c.w.WriteString("\r\n")
	if err := c.w.Flush(); err != nil {
		c.broken = true
		return reply{}, err
	}
	return c.read()
}

// hello sends EHLO, falling back to HELO when the server refuses EHLO, and records
// the extensions the server offers.
func (c *conn) hello(name string) (reply, error) {
	r, err := c.cmd("EHLO %s", name)
	if err != nil {
		return r, err
	}
	if r.code == 250 {
		c.ext = map[string]string{}
		lines := strings.Split(r.text, "; ")
		for _, line := range lines[1:] {
			k, v, _ := strings.Cut(line, " ")
			c.ext[strings.ToUpper(k)] = v
		}
		return r, nil
	}
	if r.code >= 500 && r.code <= 504 {
		c.ext = nil
		return c.cmd("HELO %s", name)
	}
	return r, nil
}

// startTLS upgrades the session. Certificates are not verified: the session only asks
// whether recipients exist and carries no message, and many mail hosts present
// self-signed or mismatched certificates (opportunistic TLS, RFC 7435).
func (c *conn) startTLS() (reply, error) {
	r, err := c.cmd("STARTTLS")
	if err != nil || r.code != 220 {
		return r, err
	}
	tc := tls.Client(c.nc, &tls.Config{ServerName: c.host, InsecureSkipVerify: true}) //nolint:gosec // see the comment above
	tc.SetDeadline(c.deadline())
	if err := tc.HandshakeContext(c.ctx); err != nil {
		c.broken = true
		return r, &tlsError{host: c.host, err: err}
	}
	c.wrap(tc)
	return r, nil
}

// close ends the session politely (QUIT, without waiting long for the answer) and
// closes the connection. A broken session is just closed.
func (c *conn) close() {
	if !c.broken && c.ctx.Err() == nil {
		c.timeout = min(c.timeout, 2*time.Second)
		c.cmd("QUIT")
	}
	c.stop()
	c.nc.Close()
}

// protocolError is a reply that is not valid SMTP.
type protocolError struct{ host, msg string }

func (e *protocolError) Error() string {
	return fmt.Sprintf("%s: SMTP protocol violation: %s", e.host, e.msg)
}

// tlsError is a failed STARTTLS handshake.
type tlsError struct {
	host string
	err  error
}

func (e *tlsError) Error() string {
	return fmt.Sprintf("%s: STARTTLS handshake failed: %v", e.host, e.err)
}
func (e *tlsError) Unwrap() error { return e.err }
