package smtpverify

import (
	"bufio"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeSMTP is a small scripted SMTP server for cases a real MTA cannot be made to
// produce on demand: silence, garbage, refusals at the greeting, and counting
// concurrent sessions. Replies are whole lines without CRLF.
type fakeSMTP struct {
	Greeting string                   // "" = never speak
	RCPT     func(addr string) string // reply to RCPT TO:<addr>; default 250
	Delay    time.Duration            // before every reply
	OnStart  func(active int64)       // called when a session starts, with the active count
	Raw      func(c net.Conn)         // when set, handles the connection instead
	active   atomic.Int64
	sessions atomic.Int64
	mu       sync.Mutex
	starts   []time.Time
}

// listenFake serves f on ip:port for the life of the test.
func listenFake(t testing.TB, ip string, port int, f *fakeSMTP) {
	t.Helper()
	l, err := net.Listen("tcp", net.JoinHostPort(ip, strconv.Itoa(port)))
	if err != nil {
		t.Fatalf("fake SMTP on %s:%d: %v", ip, port, err)
	}
	var conns sync.WaitGroup
	done := make(chan struct{})
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func() {
				defer conns.Done()
				defer c.Close()
				go func() { <-done; c.Close() }()
				f.serve(c)
			}()
		}
	}()
	t.Cleanup(func() { l.Close(); close(done); conns.Wait() })
}

func (f *fakeSMTP) serve(c net.Conn) {
	f.sessions.Add(1)
	n := f.active.Add(1)
	ended := false // QUIT ends the session before its reply, as the client sees it
	defer func() {
		if !ended {
			f.active.Add(-1)
		}
	}()
	f.mu.Lock()
	f.starts = append(f.starts, time.Now())
	f.mu.Unlock()
	if f.OnStart != nil {
		f.OnStart(n)
	}
	if f.Raw != nil {
		f.Raw(c)
		return
	}
	if f.Greeting == "" {
		buf := make([]byte, 512)
		for { // read and never answer
			if _, err := c.Read(buf); err != nil {
				return
			}
		}
	}
	r := bufio.NewReader(c)
	say := func(line string) bool {
		if f.Delay > 0 {
			time.Sleep(f.Delay)
		}
		_, err := c.Write([]byte(line + "\r\n"))
		return err == nil
	}
	if !say(f.Greeting) || !strings.HasPrefix(f.Greeting, "220") {
		return
	}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		cmd := strings.ToUpper(strings.TrimSpace(line))
		var reply string
		switch {
		case strings.HasPrefix(cmd, "EHLO"):
			reply = "250-fake.test\r\n250 PIPELINING"
		case strings.HasPrefix(cmd, "HELO"):
			reply = "250 fake.test"
		case strings.HasPrefix(cmd, "MAIL FROM:"):
			reply = "250 2.1.0 Ok"
		case strings.HasPrefix(cmd, "RCPT TO:"):
			reply = "250 2.1.5 Ok"
			if f.RCPT != nil {
				addr := strings.TrimSpace(line)[len("RCPT TO:"):]
				reply = f.RCPT(strings.Trim(addr, "<>"))
			}
		case cmd == "RSET":
			reply = "250 2.0.0 Ok"
		case cmd == "QUIT":
			ended = true
			f.active.Add(-1)
			say("221 2.0.0 Bye")
			return
		default:
			reply = "502 5.5.2 Error: command not recognized"
		}
		if !say(reply) {
			return
		}
	}
}

func (f *fakeSMTP) sessionStarts() []time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Time(nil), f.starts...)
}
