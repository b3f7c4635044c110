package account_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
)

// BenchmarkSixteenWrongLogins runs 16 concurrent wrong sign-ins (unknown emails from
// different addresses, so no limit refuses them: every one runs argon2id) per iteration
// and reports the process's resident memory before the first and at its peak (VmRSS,
// VmHWM).
// VmHWM never falls, so run one sub-benchmark per process (README "Accounts and keys"):
//
//	go test -run '^$' -bench 'SixteenWrongLogins/slots=2$' -benchtime 3x ./shared/account
//	go test -run '^$' -bench 'SixteenWrongLogins/slots=16$' -benchtime 3x ./shared/account
//
// slots=2 is the default (DefaultHashSlots); slots=16 lets all 16 hash at once, as
// sign-ins did before the slots.
func BenchmarkSixteenWrongLogins(b *testing.B) {
	before := procStatusMB(b, "VmRSS")
	for _, slots := range []int{account.DefaultHashSlots, 16} {
		b.Run(fmt.Sprintf("slots=%d", slots), func(b *testing.B) {
			store, err := boltkv.Open(filepath.Join(b.TempDir(), "kv.db"))
			if err != nil {
				b.Fatal(err)
			}
			defer store.Close()
			svc := account.New(store, account.WithHashSlots(slots, time.Minute))
			b.ResetTimer()
			for i := range b.N {
				var wg sync.WaitGroup
				for j := range 16 {
					wg.Go(func() {
						n := i*16 + j
						in := account.LoginAttempt{Email: fmt.Sprintf("guess%d@acme.test", n), Password: "wrong password", ClientAddr: fmt.Sprintf("10.0.%d.%d", n/250, n%250)}
						if _, _, err := svc.Login(context.Background(), in, time.Hour); err == nil {
							b.Error("a wrong sign-in succeeded")
						}
					})
				}
				wg.Wait()
			}
			b.StopTimer()
			b.ReportMetric(before, "rss-before-MB")
			b.ReportMetric(procStatusMB(b, "VmHWM"), "rss-peak-MB")
		})
	}
}

// procStatusMB reads a kB field of /proc/self/status in MB.
func procStatusMB(b *testing.B, field string) float64 {
	b.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		b.Skipf("no /proc/self/status: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
			if err != nil {
				b.Fatal(err)
			}
			return kb / 1024
		}
	}
	b.Fatalf("%s not in /proc/self/status", field)
	return 0
}
