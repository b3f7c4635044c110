package testkit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"sort"
	"sync"
	"testing"
	"time"
)

// echoReply is what testdata/echo answers to a plain payload.
type echoReply struct {
	Echo      json.RawMessage `json:"echo"`
	Function  string          `json:"function"`
	RequestID string          `json:"request_id"`
	PID       int             `json:"pid"`
	Started   int64           `json:"started"`
	Finished  int64           `json:"finished"`
}

func invokeEcho(t *testing.T, l *Lambda, name, payload string) (echoReply, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	out, err := l.Invoke(ctx, name, []byte(payload))
	if err != nil {
		return echoReply{}, err
	}
	var r echoReply
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("decode %s: %v", out, err)
	}
	return r, nil
}

func wantFunctionError(t *testing.T, err error, wantType string) {
	t.Helper()
	var fe *FunctionError
	if !errors.As(err, &fe) {
		t.Fatalf("got error %v, want a *FunctionError %s", err, wantType)
	}
	if fe.Type != wantType {
		t.Fatalf("got errorType %q (%s), want %q", fe.Type, fe.Message, wantType)
	}
}

func TestLambdaEmulator(t *testing.T) {
	bin := BuildLambda(t, "./shared/testkit/testdata/echo")
	l := NewLambda(t)
	l.Add(LambdaFunction{Name: "echo", Binary: bin})
	l.Add(LambdaFunction{Name: "slow", Binary: bin, Timeout: 500 * time.Millisecond})
	l.Add(LambdaFunction{Name: "pair", Binary: bin, Instances: 2})

	t.Run("invoke through the runtime API", func(t *testing.T) {
		for _, name := range []string{"echo", FunctionARN("echo"), "echo:$LATEST"} {
			got, err := invokeEcho(t, l, name, `{"hello":"world"}`)
			if err != nil {
				t.Fatalf("invoke %s: %v", name, err)
			}
			if string(got.Echo) != `{"hello":"world"}` || got.Function != "echo" || got.RequestID == "" {
				t.Fatalf("invoke %s: got %+v", name, got)
			}
		}
	})

	t.Run("named errors become errorType", func(t *testing.T) {
		for _, tc := range []struct{ payload, want string }{
			{`{"fail":"transient"}`, "TransientError"},
			{`{"fail":"permanent"}`, "PermanentError"},
		} {
			_, err := invokeEcho(t, l, "echo", tc.payload)
			wantFunctionError(t, err, tc.want)
		}
	})

	t.Run("unknown function", func(t *testing.T) {
		_, err := l.Invoke(context.Background(), "nope", []byte(`{}`))
		if !errors.Is(err, ErrFunctionNotFound) {
			t.Fatalf("got %v, want ErrFunctionNotFound", err)
		}
	})

	t.Run("a process that exits is replaced", func(t *testing.T) {
		before, err := invokeEcho(t, l, "echo", `{}`)
		if err != nil {
			t.Fatal(err)
		}
		_, err = invokeEcho(t, l, "echo", `{"exit":true}`)
		wantFunctionError(t, err, "Runtime.ExitError")
		after, err := invokeEcho(t, l, "echo", `{}`)
		if err != nil {
			t.Fatalf("invoke after exit: %v", err)
		}
		if after.PID == before.PID {
			t.Fatalf("the same process (pid %d) answered after it exited", after.PID)
		}
	})

	t.Run("timeout discards the environment", func(t *testing.T) {
		_, err := invokeEcho(t, l, "slow", `{"sleep_ms":5000}`)
		wantFunctionError(t, err, "Sandbox.Timedout")
		if _, err := invokeEcho(t, l, "slow", `{}`); err != nil {
			t.Fatalf("invoke after timeout: %v", err)
		}
	})

	t.Run("kill mid-invocation", func(t *testing.T) {
		errc := make(chan error, 1)
		go func() { _, err := invokeEcho(t, l, "echo", `{"sleep_ms":10000}`); errc <- err }()
		waitFor(t, 10*time.Second, func() bool { return l.Busy("echo") == 1 })
		if n := l.KillBusy("echo"); n != 1 {
			t.Fatalf("KillBusy killed %d environments, want 1", n)
		}
		wantFunctionError(t, <-errc, "Runtime.ExitError")
		if _, err := invokeEcho(t, l, "echo", `{}`); err != nil {
			t.Fatalf("invoke after kill: %v", err)
		}
	})

	t.Run("one invocation at a time per process", func(t *testing.T) {
		var mu sync.Mutex
		var replies []echoReply
		var wg sync.WaitGroup
		for i := 0; i < 6; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := invokeEcho(t, l, "pair", `{"sleep_ms":150}`)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				replies = append(replies, r)
				mu.Unlock()
			}()
		}
		wg.Wait()
		byPID := map[int][]echoReply{}
		for _, r := range replies {
			byPID[r.PID] = append(byPID[r.PID], r)
		}
		if len(byPID) != 2 {
			t.Fatalf("got %d processes serving 6 concurrent calls, want the 2 instances", len(byPID))
		}
		for pid, rs := range byPID {
			sort.Slice(rs, func(i, j int) bool { return rs[i].Started < rs[j].Started })
			for i := 1; i < len(rs); i++ {
				if rs[i].Started < rs[i-1].Finished {
					t.Fatalf("process %d ran two invocations at once: %+v and %+v", pid, rs[i-1], rs[i])
				}
			}
		}
	})

	t.Run("HTTP Invoke API", func(t *testing.T) {
		for _, tc := range []struct {
			name, fn, payload string
			wantStatus        int
			wantFuncErr       string
			wantBody          string
		}{
			{"ok", "echo", `{"n":1}`, 200, "", `"echo":{"n":1}`},
			{"by ARN", url.PathEscape(FunctionARN("echo")), `{"n":2}`, 200, "", `"echo":{"n":2}`},
			{"function error", "echo", `{"fail":"transient"}`, 200, "Unhandled", `"errorType":"TransientError"`},
			{"unknown function", "nope", `{}`, 404, "", `Function not found`},
		} {
			t.Run(tc.name, func(t *testing.T) {
				resp, err := http.Post(l.Endpoint()+"/2015-03-31/functions/"+tc.fn+"/invocations", "application/json", bytes.NewBufferString(tc.payload))
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != tc.wantStatus || resp.Header.Get("X-Amz-Function-Error") != tc.wantFuncErr || !bytes.Contains(body, []byte(tc.wantBody)) {
					t.Fatalf("got %d X-Amz-Function-Error=%q %s, want %d %q containing %s",
						resp.StatusCode, resp.Header.Get("X-Amz-Function-Error"), body, tc.wantStatus, tc.wantFuncErr, tc.wantBody)
				}
			})
		}
	})

	if got := l.Invocations("pair"); got != 6 {
		t.Errorf("Invocations(pair) = %d, want 6", got)
	}
}

// waitFor polls cond until it holds or the timeout fails the test.
func waitFor(t testing.TB, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("condition not met within %s", timeout)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// BenchmarkLambdaInvoke measures one synchronous invocation's round trip through the
// emulator and aws-lambda-go's runtime client: the fixed cost every Lambda step and SQS
// batch pays in the AWS composition's tests.
func BenchmarkLambdaInvoke(b *testing.B) {
	l := NewLambda(b)
	l.Add(LambdaFunction{Name: "echo", Binary: BuildLambda(b, "./shared/testkit/testdata/echo")})
	ctx := context.Background()
	payload := []byte(`{"n":1}`)
	if _, err := l.Invoke(ctx, "echo", payload); err != nil { // process warm
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := l.Invoke(ctx, "echo", payload); err != nil {
			b.Fatal(err)
		}
	}
}
