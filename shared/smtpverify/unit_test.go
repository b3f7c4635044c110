package smtpverify

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/testkit"
)

func TestProviderOf(t *testing.T) {
	tests := []struct{ host, want string }{
		{"aspmx.l.google.com", "google"},
		{"ALT1.ASPMX.L.GOOGLE.COM.", "google"},
		{"acme-com.mail.protection.outlook.com", "microsoft"},
		{"mx.zoho.eu", "zoho"},
		{"mail.protonmail.ch", "proton"},
		{"mta5.am0.yahoodns.net", "yahoo"},
		{"in1-smtp.messagingengine.com", "fastmail"},
		{"eu-smtp-inbound-1.mimecast.com", "mimecast"},
		{"mx0a-00123.pphosted.com", "proofpoint"},
		{"d123.ess.barracudanetworks.com", "barracuda"},
		{"mx1.mail.ovh.net", "ovh"},
		{"mx00.ionos.de", "ionos"},
		{"mx01.kundenserver.de", "ionos"},
		{"smtp.secureserver.net", "godaddy"},
		{"mx1.emailsrvr.com", "rackspace"},
		{"mail.acme.com", ""},
		{"notgoogle.com", ""},
		{"google.com.evil.example", ""},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			if got := ProviderOf(tt.host); got != tt.want {
				t.Errorf("ProviderOf(%q) = %q, want %q", tt.host, got, tt.want)
			}
		})
	}
	mxs := []MX{{Host: "mail.acme.com", Pref: 5}, {Host: "aspmx.l.google.com", Pref: 10}}
	if got := DetectProvider(mxs); got != "google" {
		t.Errorf("DetectProvider = %q, want google (first host with a known provider)", got)
	}
	if got := DetectProvider([]MX{{Host: "aspmx.l.google.com", Implicit: true}}); got != "" {
		t.Errorf("implicit MX gave provider %q", got)
	}
}

func TestParseReplyLine(t *testing.T) {
	tests := []struct {
		line string
		code int
		more bool
		text string
		ok   bool
	}{
		{"250 2.1.5 Ok", 250, false, "2.1.5 Ok", true},
		{"250-PIPELINING", 250, true, "PIPELINING", true},
		{"220", 220, false, "", true},
		{"550 ", 550, false, "", true},
		{"HTTP/1.1 400 Bad Request", 0, false, "", false},
		{"25", 0, false, "", false},
		{"2500 x", 0, false, "", false},
		{"150 too low", 0, false, "", false},
		{"650 too high", 0, false, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			code, more, text, ok := parseReplyLine(tt.line)
			if code != tt.code || more != tt.more || text != tt.text || ok != tt.ok {
				t.Errorf("parseReplyLine(%q) = %d %v %q %v, want %d %v %q %v", tt.line, code, more, text, ok, tt.code, tt.more, tt.text, tt.ok)
			}
		})
	}
}

func TestRcptClass(t *testing.T) {
	tests := []struct {
		r    reply
		want class
	}{
		{reply{250, "2.1.5 Ok"}, accepted},
		{reply{251, "User not local; will forward"}, accepted},
		{reply{550, "5.1.1 User unknown"}, rejected},
		{reply{551, "User not local"}, rejected},
		{reply{553, "5.1.3 Bad recipient address syntax"}, rejected},
		{reply{552, "5.2.2 Mailbox full"}, rejected},
		{reply{554, "5.1.1 no such user"}, rejected},
		{reply{550, "5.7.1 Client host blocked"}, refused},
		{reply{554, "5.7.1 Relay access denied"}, refused},
		{reply{421, "4.7.0 closing"}, limited},
		{reply{452, "4.5.3 Too many recipients"}, limited},
		{reply{450, "4.7.1 Greylisted"}, tempfail},
		{reply{451, "4.3.0 Try again later"}, tempfail},
	}
	for _, tt := range tests {
		t.Run(tt.r.String(), func(t *testing.T) {
			if got := rcptClass(tt.r); got != tt.want {
				t.Errorf("rcptClass(%s) = %d, want %d", tt.r, got, tt.want)
			}
		})
	}
}

func TestResolverMX(t *testing.T) {
	dns := testkit.StartDNS(t, testkit.DNSZone{
		MX: map[string][]testkit.DNSMX{
			"two.example.com":   {{Pref: 20, Host: "b.example.net"}, {Pref: 10, Host: "A.Example.Net"}},
			"mixed.example.com": {{Pref: 10, Host: "a.example.net"}, {Pref: 0, Host: "."}},
		},
		A: map[string][]string{"bare.example.com": {"192.0.2.1"}},
	})
	r := NewResolver(dns.Addr, 300*time.Millisecond)
	ctx := context.Background()
	got, err := r.MX(ctx, "TWO.example.com")
	if err != nil {
		t.Fatal(err)
	}
	want := []MX{{Host: "a.example.net", Pref: 10}, {Host: "b.example.net", Pref: 20}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("MX = %+v, want %+v", got, want)
	}
	if _, err := r.MX(ctx, "mixed.example.com"); !errors.Is(err, ErrNullMX) {
		t.Errorf("null MX beside another MX: err = %v, want ErrNullMX", err)
	}
	got, err = r.MX(ctx, "bare.example.com")
	if err != nil || len(got) != 1 || !got[0].Implicit || got[0].Host != "bare.example.com" {
		t.Errorf("no MX with an A record: %+v, %v; want the implicit MX", got, err)
	}
	if _, err := r.MX(ctx, "absent.example.com"); !errors.Is(err, ErrNoDomain) {
		t.Errorf("absent: err = %v, want ErrNoDomain", err)
	}
}

func TestNewResolverDefault(t *testing.T) {
	if r := NewResolver("", 0); r.Server() == "" {
		t.Error("the default resolver has no server")
	}
}

func TestResolverSharesAndCachesAnswers(t *testing.T) {
	dns := testkit.StartDNS(t, testkit.DNSZone{
		MX: map[string][]testkit.DNSMX{"one.example.com": {{Pref: 10, Host: "mx.example.net"}}},
	})
	r := NewResolver(dns.Addr, time.Second)
	var wg sync.WaitGroup
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if mx, err := r.MX(context.Background(), "one.example.com"); err != nil || len(mx) != 1 {
				t.Errorf("MX = %v, %v", mx, err)
			}
		}()
	}
	wg.Wait()
	if n := dns.Queries(); n != 1 {
		t.Errorf("200 concurrent lookups made %d queries, want 1", n)
	}
	for i := 0; i < 2; i++ {
		if _, err := r.MX(context.Background(), "none.example.com"); !errors.Is(err, ErrNoDomain) {
			t.Fatalf("err = %v, want ErrNoDomain", err)
		}
	}
	if n := dns.Queries(); n != 2 {
		t.Errorf("queries = %d, want 2 (NXDOMAIN is cached too)", n)
	}
	// Expired answers are asked again.
	r.now = func() time.Time { return time.Now().Add(maxCacheTTL + time.Second) }
	if _, err := r.MX(context.Background(), "one.example.com"); err != nil {
		t.Fatal(err)
	}
	if n := dns.Queries(); n != 3 {
		t.Errorf("queries = %d, want 3 after expiry", n)
	}
}

func TestSettingsDefaults(t *testing.T) {
	got := Settings{}.withDefaults()
	if got.HostInterval != DefaultSettings.HostInterval || got.PerHost != DefaultSettings.PerHost || got.Port != 25 || got.CatchAllTTL != DefaultSettings.CatchAllTTL {
		t.Errorf("zero settings = %+v, want the defaults", got)
	}
	if got := (Settings{HostInterval: -1}).withDefaults(); got.HostInterval != 0 {
		t.Errorf("HostInterval -1 gives %s, want none", got.HostInterval)
	}
}
