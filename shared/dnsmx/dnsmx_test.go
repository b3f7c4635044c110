package dnsmx

import (
	"context"
	"errors"
	"net"
	"reflect"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/company"
)

func serve(t *testing.T, m map[string]Answer) *Server {
	t.Helper()
	z := &MapZone{}
	z.Set(m)
	s, err := Serve("127.0.0.1:0", z)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestLookupThroughARealDNSConversation(t *testing.T) {
	world := serve(t, map[string]Answer{
		"acme.de":   {MX: []company.MX{{Host: "alt1.aspmx.l.google.com", Preference: 5}, {Host: "aspmx.l.google.com", Preference: 1}}},
		"nomail.fr": {MX: []company.MX{{Host: "", Preference: 0}}},
		"empty.nl":  {},
		"gone.it":   {NXDomain: true},
		"broken.es": {ServFail: true},
	})
	other := serve(t, map[string]Answer{"elsewhere.com": {MX: []company.MX{{Host: "mx.elsewhere.com", Preference: 10}}}})
	r := New([]string{world.Addr(), other.Addr()}, time.Second)
	ctx := context.Background()

	tests := []struct {
		domain   string
		want     []company.MX
		provider string
		wantErr  bool
	}{
		{"acme.de", []company.MX{{Host: "alt1.aspmx.l.google.com", Preference: 5}, {Host: "aspmx.l.google.com", Preference: 1}}, "google.com", false},
		{"nomail.fr", []company.MX{{Host: "", Preference: 0}}, company.NoMX, false},
		{"empty.nl", []company.MX{}, company.NoMX, false},
		{"gone.it", []company.MX{}, company.NoMX, false},
		{"broken.es", nil, "", true},
		{"elsewhere.com", []company.MX{{Host: "mx.elsewhere.com", Preference: 10}}, "elsewhere.com", false}, // refused by the first server
		{"unknown.org", nil, "", true}, // refused by all
	}
	for _, tt := range tests {
		t.Run(tt.domain, func(t *testing.T) {
			got, err := r.LookupMX(ctx, tt.domain)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("records = %+v, want %+v", got, tt.want)
			}
			if p, _ := company.MXProvider(got); p != tt.provider {
				t.Fatalf("provider = %q, want %q", p, tt.provider)
			}
		})
	}
}

func TestRestsAfterRepeatedTimeouts(t *testing.T) {
	// A UDP socket that never answers.
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	r := New([]string{pc.LocalAddr().String()}, 50*time.Millisecond)
	ctx := context.Background()
	for i := 0; i < failuresToRest; i++ {
		if _, err := r.LookupMX(ctx, "acme.de"); err == nil || errors.Is(err, ErrResting) {
			t.Fatalf("lookup %d: err = %v, want a timeout", i, err)
		}
	}
	start := time.Now()
	if _, err := r.LookupMX(ctx, "acme.de"); !errors.Is(err, ErrResting) {
		t.Fatalf("after %d failures: err = %v, want ErrResting", failuresToRest, err)
	}
	if time.Since(start) > 20*time.Millisecond {
		t.Fatal("a resting resolver must fail fast")
	}
}
