package app_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/testkit"
)

// coldStarts is how many fresh processes each function is measured over (the median
// is reported).
const coldStarts = 5

// coldStartPayloads are invocations each function answers without a reachable AWS
// service (the emulated environment points every endpoint at a closed port): an HTTP
// family answers /healthz (404 in the families that do not serve it, from the router
// alone), the worker an empty batch, the steps function a malformed step (a permanent
// error before any call), the scheduler fails its first DynamoDB call.
var coldStartPayloads = map[string]string{
	"worker":    `{"Records":[]}`,
	"steps":     `{"step":"check"}`,
	"scheduler": `{"version":"0","id":"bench","detail-type":"Scheduled Event","source":"aws.events","detail":{}}`,
}

// BenchmarkLambdaColdStart builds every function under functions/ as a bootstrap for
// this machine and starts it coldStarts times under the runtime-API emulator with
// GODEBUG=inittrace=1. It reports, as medians over the starts: init-ms, the clock time
// of every package init (the sum of inittrace's "ms clock"); init-MB, the bytes those
// inits allocated; first-ms, from starting the process to the end of its first
// invocation (init, main's composition and one request).
//
//	go test -run '^$' -bench LambdaColdStart -benchtime 1x ./shared/app/
func BenchmarkLambdaColdStart(b *testing.B) {
	entries, err := os.ReadDir("../../functions")
	if err != nil {
		b.Fatal(err)
	}
	healthz, err := os.ReadFile("../../events/account-healthz.json")
	if err != nil {
		b.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "local" {
			continue
		}
		fn := e.Name()
		b.Run(fn, func(b *testing.B) {
			bin := testkit.BuildLambda(b, "./functions/"+fn)
			payload := []byte(coldStartPayloads[fn])
			if len(payload) == 0 {
				payload = healthz
			}
			var initMS, initBytes, firstMS []float64
			for range b.N {
				for range coldStarts {
					ms, bytes, first := coldStart(b, fn, bin, payload)
					initMS, initBytes, firstMS = append(initMS, ms), append(initBytes, bytes), append(firstMS, first)
				}
			}
			b.ReportMetric(median(initMS), "init-ms")
			b.ReportMetric(median(initBytes)/1e6, "init-MB")
			b.ReportMetric(median(firstMS), "first-ms")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// initLine is one line of GODEBUG=inittrace=1.
var initLine = regexp.MustCompile(`(?m)^init \S+ @[0-9.]+ ms, ([0-9.]+) ms clock, ([0-9]+) bytes`)

// coldStart runs one fresh process of the function and invokes it once.
func coldStart(b *testing.B, fn, bin string, payload []byte) (initMS, initBytes, firstMS float64) {
	b.Helper()
	lam := testkit.NewLambda(b)
	closed := "http://127.0.0.1:1" // nothing listens: AWS calls fail at once
	start := time.Now()
	lam.Add(testkit.LambdaFunction{Name: fn, Binary: bin, Timeout: time.Minute, Env: map[string]string{
		"GODEBUG": "inittrace=1", "FIRMO_BACKEND": "aws", "FIRMO_TABLE": "firmo", "FIRMO_LOG_FORMAT": "json",
		"FIRMO_DYNAMODB_ENDPOINT": closed, "FIRMO_SQS_ENDPOINT": closed, "FIRMO_SFN_ENDPOINT": closed,
	}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := lam.Invoke(ctx, fn, payload); err != nil && ctx.Err() != nil {
		b.Fatalf("%s: first invocation: %v", fn, err)
	}
	firstMS = float64(time.Since(start).Microseconds()) / 1000
	logs := lam.Logs(fn)
	lines := initLine.FindAllStringSubmatch(logs, -1)
	if len(lines) == 0 {
		b.Fatalf("%s: no inittrace lines in its output:\n%s", fn, logs)
	}
	for _, m := range lines {
		ms, _ := strconv.ParseFloat(m[1], 64)
		n, _ := strconv.ParseFloat(m[2], 64)
		initMS += ms
		initBytes += n
	}
	return initMS, initBytes, firstMS
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// TestColdStartPayloadsName checks the table above names real functions.
func TestColdStartPayloadsName(t *testing.T) {
	for fn := range coldStartPayloads {
		if _, err := os.Stat(filepath.Join("../../functions", fn, "main.go")); err != nil {
			t.Errorf("coldStartPayloads names %s: %v", fn, fmt.Errorf("no functions/%s/main.go", fn))
		}
	}
}
