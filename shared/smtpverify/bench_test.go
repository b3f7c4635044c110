package smtpverify

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/testkit"
)

// benchSessions is the concurrency goal of shared/smtpverify/BENCHMARKS.md: at least 500 SMTP
// sessions at once on 2 cores within 100 MB RSS.
const benchSessions = 500

// barrierSMTP is a lean in-process SMTP server for the concurrency benchmark: it holds
// every session at RCPT TO until `want` sessions are open at once, so the benchmark
// measures truly concurrent sessions, then answers 550 (the probe) or 250.
type barrierSMTP struct {
	want    int64
	active  atomic.Int64
	peak    atomic.Int64
	mu      sync.Mutex
	release chan struct{}
}

func newBarrierSMTP(want int) *barrierSMTP {
	return &barrierSMTP{want: int64(want), release: make(chan struct{})}
}

func (s *barrierSMTP) reset() {
	s.mu.Lock()
	s.release = make(chan struct{})
	s.mu.Unlock()
	s.peak.Store(0)
}

func (s *barrierSMTP) serve(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go s.session(c)
	}
}

func (s *barrierSMTP) session(c net.Conn) {
	defer c.Close()
	n := s.active.Add(1)
	defer s.active.Add(-1)
	for p := s.peak.Load(); n > p && !s.peak.CompareAndSwap(p, n); p = s.peak.Load() {
	}
	s.mu.Lock()
	release := s.release
	s.mu.Unlock()
	if n >= s.want {
		select {
		case <-release:
		default:
			close(release)
		}
	}
	r := bufio.NewReaderSize(c, 256)
	c.Write([]byte("220 bench ESMTP\r\n"))
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		cmd := strings.ToUpper(strings.TrimSpace(line))
		switch {
		case strings.HasPrefix(cmd, "EHLO"):
			c.Write([]byte("250-bench\r\n250 8BITMIME\r\n"))
		case strings.HasPrefix(cmd, "MAIL"), cmd == "RSET":
			c.Write([]byte("250 2.0.0 Ok\r\n"))
		case strings.HasPrefix(cmd, "RCPT"):
			select {
			case <-release:
			case <-time.After(30 * time.Second):
			}
			if strings.Contains(cmd, "<X") { // the random catch-all probe
				c.Write([]byte("550 5.1.1 unknown\r\n"))
			} else {
				c.Write([]byte("250 2.1.5 Ok\r\n"))
			}
		case cmd == "QUIT":
			c.Write([]byte("221 2.0.0 Bye\r\n"))
			return
		default:
			c.Write([]byte("502 5.5.2 unknown\r\n"))
		}
	}
}

// rssKB reads a field (VmRSS, VmHWM) of /proc/self/status in KiB.
func rssKB(b *testing.B, field string) int64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Skipf("no /proc/self/status: %v", err)
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return n
		}
	}
	b.Fatalf("%s not in /proc/self/status", field)
	return 0
}

// resetPeakRSS restarts the VmHWM high-water mark (Linux: echo 5 > clear_refs).
func resetPeakRSS() { os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// BenchmarkConcurrentSessions opens 500 (the goal) and 2,000 SMTP sessions at once (each a
// check: MX lookup, EHLO, MAIL FROM, probe and candidate RCPT, RSET, QUIT) against an
// in-process server that holds them all open, and reports the process's peak RSS
// (client and server sides together, so the figure is an upper bound for the client).
func BenchmarkConcurrentSessions(b *testing.B) {
	for _, n := range []int{benchSessions, 4 * benchSessions} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) { concurrentSessions(b, n) })
	}
}

func concurrentSessions(b *testing.B, sessions int) {
	runtime.GC()
	dns := testkit.StartDNS(b, testkit.DNSZone{
		MX: map[string][]testkit.DNSMX{"bench.example.com": {{Pref: 10, Host: "mx.bench.example.net"}}},
		A:  map[string][]string{"mx.bench.example.net": {"127.0.0.1"}},
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	srv := newBarrierSMTP(sessions)
	go srv.serve(l)
	v := New(Settings{
		Resolver: dns.Addr, Port: l.Addr().(*net.TCPAddr).Port, DisableTLS: true,
		PerHost: sessions, HostInterval: -1, CatchAllTTL: -1, CommandTimeout: time.Minute,
		AllowHosts: []string{"mx.bench.example.net"}, // the loopback bench server
	})
	baseline := rssKB(b, "VmRSS")
	var peakKB, peakSessions int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		srv.reset()
		resetPeakRSS()
		var wg sync.WaitGroup
		var bad atomic.Int64
		var mu sync.Mutex
		why := map[string]int{}
		for s := 0; s < sessions; s++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out := v.Check(context.Background(), "bench.example.com", []string{fmt.Sprintf("p%d", s)}, Options{})
				if out.Status != Found {
					bad.Add(1)
					mu.Lock()
					why[string(out.Status)+": "+out.Detail]++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if n := bad.Load(); n > 0 {
			b.Fatalf("%d of %d checks were not found: %v", n, sessions, why)
		}
		peakKB = max(peakKB, rssKB(b, "VmHWM"))
		peakSessions = max(peakSessions, srv.peak.Load())
	}
	b.StopTimer()
	b.ReportMetric(float64(peakSessions), "concurrent_sessions")
	b.ReportMetric(float64(peakKB)/1024, "peak_rss_MB")
	b.ReportMetric(float64(peakKB-baseline)/float64(sessions), "KB_per_session")
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms_per_round")
	if peakSessions < int64(sessions) {
		b.Errorf("only %d sessions were open at once, want %d", peakSessions, sessions)
	}
}

// BenchmarkAddressLatencyPostfix measures one address check against a local Postfix:
// MX lookup and a full session with one RCPT (the domain's catch-all verdict cached, as
// it is for every person after the first), in plain text and with STARTTLS.
func BenchmarkAddressLatencyPostfix(b *testing.B) {
	for _, tls := range []bool{false, true} {
		name := "plain"
		if tls {
			name = "starttls"
		}
		b.Run(name, func(b *testing.B) {
			pf := testkit.StartPostfix(b, testkit.PostfixConfig{Mailboxes: []string{"jane.doe@strict.example.com"}, TLS: tls})
			dns := testkit.StartDNS(b, testkit.DNSZone{
				MX: map[string][]testkit.DNSMX{"strict.example.com": {{Pref: 10, Host: "mx.example.net"}}},
				A:  map[string][]string{"mx.example.net": {"127.0.0.1"}},
			})
			v := New(Settings{Resolver: dns.Addr, Port: pf.Port, HostInterval: -1, AllowHosts: []string{"mx.example.net"}})
			ctx := context.Background()
			if out := v.Check(ctx, "strict.example.com", []string{"jane.doe"}, Options{}); out.Status != Found || out.TLS != tls {
				b.Fatalf("warm-up check: %+v", out)
			}
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				out := v.Check(ctx, "strict.example.com", []string{"jane.doe"}, Options{})
				lat = append(lat, time.Since(start))
				if out.Status != Found {
					b.Fatalf("check %d: %+v", i, out)
				}
			}
			b.StopTimer()
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50_ms")
			b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "p95_ms")
		})
	}
}
