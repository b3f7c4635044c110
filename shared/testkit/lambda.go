package testkit

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"
)

// The region and account the emulated services put in ARNs.
const (
	StandinRegion  = "us-east-1"
	StandinAccount = "123456789012"
)

// maxInvokePayload is Lambda's synchronous request and response payload limit.
const maxInvokePayload = 6 << 20

// ErrFunctionNotFound is returned by Lambda.Invoke for a function that was never added.
var ErrFunctionNotFound = errors.New("lambda function not found")

// FunctionError is a function's own failure as Lambda reports it: the error the
// runtime posted (errorType is the Go type name of the returned error, as
// aws-lambda-go sets it), or one the service made up (Runtime.ExitError when the
// process died mid-invocation, Sandbox.Timedout past the function timeout).
type FunctionError struct {
	Type    string `json:"errorType"`
	Message string `json:"errorMessage"`
	// Payload is the error document as Invoke returns it with X-Amz-Function-Error.
	Payload []byte `json:"-"`
}

func (e *FunctionError) Error() string { return e.Type + ": " + e.Message }

// LambdaFunction configures one function of the emulator.
type LambdaFunction struct {
	Name   string            // function name; also AWS_LAMBDA_FUNCTION_NAME
	Binary string            // the bootstrap executable (see BuildLambda)
	Env    map[string]string // the function's environment variables
	// Instances is the number of execution environments (processes), each serving
	// one invocation at a time; default 1.
	Instances int
	Timeout   time.Duration // per invocation; default 30s
	MemoryMB  int           // AWS_LAMBDA_FUNCTION_MEMORY_SIZE; default 128
}

// Lambda is a stand-in for the AWS Lambda service (README, Tests): it runs real
// `bootstrap` binaries built with aws-lambda-go as subprocesses, serves each process
// the Lambda Runtime API it polls (next, response, error, init/error), and answers the
// Lambda Invoke API (POST /2015-03-31/functions/{name}/invocations) so that Go tests
// and the Step Functions shim can call the functions. Every process handles one
// invocation at a time, like a Lambda execution environment; a process that dies is
// replaced, and its in-flight invocation fails with Runtime.ExitError.
type Lambda struct {
	t        testing.TB
	logDir   string
	srv      *http.Server
	endpoint string
	closed   chan struct{}
	wg       sync.WaitGroup // instance supervisors

	mu    sync.Mutex
	funcs map[string]*lambdaFunction
}

// NewLambda starts the emulator's Invoke endpoint on a free loopback port; every
// function process is killed when the test ends.
func NewLambda(t testing.TB) *Lambda {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("lambda emulator: listen: %v", err)
	}
	l := &Lambda{
		t:        t,
		logDir:   t.TempDir(),
		endpoint: "http://" + ln.Addr().String(),
		closed:   make(chan struct{}),
		funcs:    map[string]*lambdaFunction{},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /2015-03-31/functions/{name}/invocations", l.serveInvoke)
	l.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go l.srv.Serve(ln)
	t.Cleanup(l.close)
	return l
}

// Endpoint is the base URL of the Invoke API, as an SDK's Lambda endpoint.
func (l *Lambda) Endpoint() string { return l.endpoint }

// FunctionARN is the ARN under which a function can be invoked (and referenced from ASL).
func FunctionARN(name string) string {
	return "arn:aws:lambda:" + StandinRegion + ":" + StandinAccount + ":function:" + name
}

// Add registers a function and starts its execution environments at once (the
// emulator has no lazy cold start, so tests do not pay it inside their first call).
func (l *Lambda) Add(cfg LambdaFunction) {
	l.t.Helper()
	if cfg.Name == "" || cfg.Binary == "" {
		l.t.Fatalf("lambda emulator: a function needs a Name and a Binary: %+v", cfg)
	}
	if cfg.Instances <= 0 {
		cfg.Instances = 1
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.MemoryMB <= 0 {
		cfg.MemoryMB = 128
	}
	logFile, err := os.OpenFile(filepath.Join(l.logDir, cfg.Name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		l.t.Fatalf("lambda emulator: %v", err)
	}
	fn := &lambdaFunction{cfg: cfg, queue: make(chan *invocation), log: logFile}
	l.mu.Lock()
	if _, dup := l.funcs[cfg.Name]; dup {
		l.mu.Unlock()
		logFile.Close()
		l.t.Fatalf("lambda emulator: function %q added twice", cfg.Name)
	}
	l.funcs[cfg.Name] = fn
	l.mu.Unlock()
	for i := 0; i < cfg.Instances; i++ {
		inst := &lambdaInstance{l: l, fn: fn, id: i}
		fn.instances = append(fn.instances, inst)
		l.wg.Add(1)
		go inst.supervise()
	}
}

// Invoke calls a function synchronously (RequestResponse) and returns its response
// payload. A function failure is a *FunctionError; an unknown name wraps
// ErrFunctionNotFound. name may be a function name or ARN. Cancelling ctx abandons
// the wait, not the invocation (as with a client-side timeout against Lambda).
func (l *Lambda) Invoke(ctx context.Context, name string, payload []byte) ([]byte, error) {
	fn, err := l.function(name)
	if err != nil {
		return nil, err
	}
	inv := &invocation{id: uuid.NewString(), payload: payload, done: make(chan struct{})}
	select {
	case fn.queue <- inv:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-l.closed:
		return nil, errors.New("lambda emulator closed")
	}
	select {
	case <-inv.done:
		return inv.out, inv.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-l.closed:
		return nil, errors.New("lambda emulator closed")
	}
}

// Invocations counts the invocations a function's processes have received so far,
// retries and redeliveries included.
func (l *Lambda) Invocations(name string) int {
	fn, err := l.function(name)
	if err != nil {
		return 0
	}
	return int(fn.invocations.Load())
}

// Busy counts the function's execution environments in the middle of an invocation.
func (l *Lambda) Busy(name string) int {
	n := 0
	for _, p := range l.processes(name) {
		if p.busy() {
			n++
		}
	}
	return n
}

// KillBusy kills (SIGKILL) every execution environment of the function that is in the
// middle of an invocation, as a crash or an out-of-memory kill would, and returns how
// many it killed. Their invocations fail with Runtime.ExitError; fresh processes
// replace them.
func (l *Lambda) KillBusy(name string) int {
	n := 0
	for _, p := range l.processes(name) {
		if p.busy() && p.kill() {
			n++
		}
	}
	return n
}

// Logs returns what the function's processes wrote to stdout and stderr so far.
func (l *Lambda) Logs(name string) string {
	raw, _ := os.ReadFile(filepath.Join(l.logDir, name+".log"))
	return string(raw)
}

func (l *Lambda) function(nameOrARN string) (*lambdaFunction, error) {
	name := functionName(nameOrARN)
	l.mu.Lock()
	defer l.mu.Unlock()
	fn, ok := l.funcs[name]
	if !ok {
		return nil, fmt.Errorf("invoke %s: %w", nameOrARN, ErrFunctionNotFound)
	}
	return fn, nil
}

func (l *Lambda) processes(name string) []*lambdaProcess {
	fn, err := l.function(name)
	if err != nil {
		return nil
	}
	var out []*lambdaProcess
	for _, inst := range fn.instances {
		if p := inst.process(); p != nil {
			out = append(out, p)
		}
	}
	return out
}

// functionName accepts the forms Lambda does: name, name:qualifier,
// account:function:name and the full function ARN.
func functionName(s string) string {
	parts := strings.Split(s, ":")
	switch {
	case strings.HasPrefix(s, "arn:") && len(parts) >= 7:
		return parts[6]
	case len(parts) >= 3 && parts[1] == "function":
		return parts[2]
	default:
		return parts[0]
	}
}

func (l *Lambda) close() {
	close(l.closed)
	l.mu.Lock()
	funcs := make([]*lambdaFunction, 0, len(l.funcs))
	for _, fn := range l.funcs {
		funcs = append(funcs, fn)
	}
	l.mu.Unlock()
	for _, fn := range funcs {
		for _, inst := range fn.instances {
			if p := inst.process(); p != nil {
				p.kill()
			}
		}
	}
	l.wg.Wait()
	l.srv.Close()
	sort.Slice(funcs, func(i, j int) bool { return funcs[i].cfg.Name < funcs[j].cfg.Name })
	for _, fn := range funcs {
		fn.log.Close()
		if l.t.Failed() {
			l.t.Logf("lambda %s log (tail):\n%s", fn.cfg.Name, tail(l.Logs(fn.cfg.Name), 4000))
		}
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

// serveInvoke is the Lambda Invoke API: the response payload with 200, or the
// function's error document with X-Amz-Function-Error as Lambda answers it.
func (l *Lambda) serveInvoke(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	payload, err := io.ReadAll(io.LimitReader(r.Body, maxInvokePayload+1))
	if err != nil {
		lambdaAPIError(w, http.StatusBadRequest, "InvalidRequestContentException", err.Error())
		return
	}
	if len(payload) > maxInvokePayload {
		lambdaAPIError(w, http.StatusRequestEntityTooLarge, "RequestTooLargeException", "Request must be smaller than 6291456 bytes for the InvokeFunction operation")
		return
	}
	if len(payload) == 0 {
		payload = []byte("{}")
	}
	if _, err := l.function(name); err != nil {
		lambdaAPIError(w, http.StatusNotFound, "ResourceNotFoundException", "Function not found: "+FunctionARN(functionName(name)))
		return
	}
	switch typ := r.Header.Get("X-Amz-Invocation-Type"); typ {
	case "", "RequestResponse":
	case "Event":
		// Asynchronous: accepted now, run in the background, result dropped.
		go l.Invoke(context.Background(), name, payload)
		w.WriteHeader(http.StatusAccepted)
		return
	case "DryRun":
		w.WriteHeader(http.StatusNoContent)
		return
	default:
		lambdaAPIError(w, http.StatusBadRequest, "InvalidParameterValueException", "unknown X-Amz-Invocation-Type "+typ)
		return
	}
	out, err := l.Invoke(r.Context(), name, payload)
	w.Header().Set("X-Amz-Executed-Version", "$LATEST")
	var fe *FunctionError
	switch {
	case errors.As(err, &fe):
		w.Header().Set("X-Amz-Function-Error", "Unhandled")
		w.Header().Set("Content-Type", "application/json")
		w.Write(fe.Payload)
	case err != nil:
		lambdaAPIError(w, http.StatusServiceUnavailable, "ServiceException", err.Error())
	default:
		w.Header().Set("Content-Type", "application/json")
		w.Write(out)
	}
}

func lambdaAPIError(w http.ResponseWriter, status int, code, msg string) {
	w.Header().Set("X-Amzn-ErrorType", code)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"Type": "User", "message": msg})
}

type lambdaFunction struct {
	cfg         LambdaFunction
	queue       chan *invocation // unbuffered: handed straight to a process waiting in /next
	log         *os.File
	instances   []*lambdaInstance
	invocations atomic.Int64
}

// invocation is one call, finished exactly once with a payload or an error.
type invocation struct {
	id      string
	payload []byte
	done    chan struct{}
	once    sync.Once
	out     []byte
	err     error
}

func (inv *invocation) finish(out []byte, err error) {
	inv.once.Do(func() {
		inv.out, inv.err = out, err
		close(inv.done)
	})
}

func serviceError(typ, msg string) *FunctionError {
	fe := &FunctionError{Type: typ, Message: msg}
	fe.Payload, _ = json.Marshal(fe)
	return fe
}

// lambdaInstance is one execution environment slot: it keeps a process running,
// replacing it whenever it exits, until the emulator closes.
type lambdaInstance struct {
	l  *Lambda
	fn *lambdaFunction
	id int

	mu  sync.Mutex
	cur *lambdaProcess
}

func (inst *lambdaInstance) process() *lambdaProcess {
	inst.mu.Lock()
	defer inst.mu.Unlock()
	return inst.cur
}

func (inst *lambdaInstance) supervise() {
	defer inst.l.wg.Done()
	backoff := 100 * time.Millisecond
	for gen := 0; ; gen++ {
		select {
		case <-inst.l.closed:
			return
		default:
		}
		p, err := inst.start(gen)
		if err != nil {
			fmt.Fprintf(inst.fn.log, "[emulator] start %s instance %d: %v\n", inst.fn.cfg.Name, inst.id, err)
		} else {
			inst.mu.Lock()
			inst.cur = p
			inst.mu.Unlock()
			select {
			case <-inst.l.closed: // close may have looked for processes before this one
				p.kill()
			default:
			}
			p.wait()
			if p.wasReady() {
				backoff = 100 * time.Millisecond
				continue
			}
		}
		// The process never asked for work: an init failure. Back off, as Lambda does.
		select {
		case <-inst.l.closed:
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 2*time.Second)
	}
}

// start runs the bootstrap binary against a Runtime API listener of its own, so that
// requests from a dead process can never be mistaken for its successor's.
func (inst *lambdaInstance) start(gen int) (*lambdaProcess, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	cfg := inst.fn.cfg
	p := &lambdaProcess{inst: inst, exited: make(chan struct{})}
	cmd := exec.Command(cfg.Binary)
	cmd.Dir = filepath.Dir(cfg.Binary)
	cmd.Env = lambdaEnv(cfg, ln.Addr().String(), fmt.Sprintf("%d-%d", inst.id, gen))
	cmd.Stdout, cmd.Stderr = inst.fn.log, inst.fn.log
	cmd.SysProcAttr = childProcAttr()
	p.cmd = cmd
	p.srv = &http.Server{Handler: p.runtimeAPI(), ReadHeaderTimeout: 10 * time.Second}
	if err := cmd.Start(); err != nil {
		ln.Close()
		return nil, err
	}
	// Serve only once the process is known: its first connection waits in the backlog.
	go p.srv.Serve(ln)
	go p.reap()
	return p, nil
}

// lambdaEnv is the environment Lambda gives a provided.al2023 function: a clean one,
// so nothing of the test process leaks in, with dummy credentials so SDK clients
// inside the function never look for real ones.
func lambdaEnv(cfg LambdaFunction, runtimeAPI, stream string) []string {
	env := map[string]string{
		"PATH":                            "/usr/local/bin:/usr/bin:/bin",
		"LANG":                            "en_US.UTF-8",
		"TZ":                              ":UTC",
		"HOME":                            os.TempDir(),
		"TMPDIR":                          os.TempDir(),
		"AWS_LAMBDA_RUNTIME_API":          runtimeAPI,
		"_HANDLER":                        "bootstrap",
		"AWS_EXECUTION_ENV":               "AWS_Lambda_provided.al2023",
		"AWS_LAMBDA_FUNCTION_NAME":        cfg.Name,
		"AWS_LAMBDA_FUNCTION_VERSION":     "$LATEST",
		"AWS_LAMBDA_FUNCTION_MEMORY_SIZE": strconv.Itoa(cfg.MemoryMB),
		"AWS_LAMBDA_LOG_GROUP_NAME":       "/aws/lambda/" + cfg.Name,
		"AWS_LAMBDA_LOG_STREAM_NAME":      stream,
		"AWS_LAMBDA_INITIALIZATION_TYPE":  "on-demand",
		"LAMBDA_TASK_ROOT":                filepath.Dir(cfg.Binary),
		"AWS_REGION":                      StandinRegion,
		"AWS_DEFAULT_REGION":              StandinRegion,
		"AWS_ACCESS_KEY_ID":               "firmo-test",
		"AWS_SECRET_ACCESS_KEY":           "firmo-test",
		"AWS_SESSION_TOKEN":               "firmo-test",
	}
	for k, v := range cfg.Env {
		env[k] = v
	}
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// lambdaProcess is one running bootstrap process and its Runtime API server.
type lambdaProcess struct {
	inst   *lambdaInstance
	cmd    *exec.Cmd
	srv    *http.Server
	exited chan struct{}

	mu      sync.Mutex
	current *invocation
	timer   *time.Timer
	ready   bool // asked for an invocation at least once
	dead    bool
	initErr *FunctionError
}

func (p *lambdaProcess) wait() { <-p.exited }

func (p *lambdaProcess) wasReady() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ready
}

func (p *lambdaProcess) busy() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.current != nil && !p.dead
}

// kill sends SIGKILL to the process group; it reports whether the process was alive.
func (p *lambdaProcess) kill() bool {
	select {
	case <-p.exited:
		return false
	default:
	}
	return syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL) == nil
}

// reap waits for the process to exit, then fails what it was doing.
func (p *lambdaProcess) reap() {
	waitErr := p.cmd.Wait()
	p.mu.Lock()
	p.dead = true
	cur, ready, initErr := p.current, p.ready, p.initErr
	p.current = nil
	if p.timer != nil {
		p.timer.Stop()
	}
	p.mu.Unlock()
	p.srv.Close()
	status := "exited"
	if waitErr != nil {
		status = waitErr.Error()
	}
	fmt.Fprintf(p.inst.fn.log, "[emulator] %s instance %d process %s\n", p.inst.fn.cfg.Name, p.inst.id, status)
	if cur != nil {
		cur.finish(nil, serviceError("Runtime.ExitError", fmt.Sprintf("RequestId: %s Error: Runtime exited with error: %s", cur.id, status)))
	}
	if !ready {
		// Fail a caller waiting for this environment rather than let it hang on a
		// binary that cannot start; later callers meet the next attempt.
		if initErr == nil {
			initErr = serviceError("Runtime.ExitError", "Runtime exited during init: "+status)
		}
		select {
		case inv := <-p.inst.fn.queue:
			inv.finish(nil, initErr)
		default:
		}
	}
	close(p.exited)
}

// runtimeAPI serves the Lambda Runtime API (2018-06-01) to this process only.
func (p *lambdaProcess) runtimeAPI() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /2018-06-01/runtime/invocation/next", p.next)
	mux.HandleFunc("POST /2018-06-01/runtime/invocation/{id}/response", p.response)
	mux.HandleFunc("POST /2018-06-01/runtime/invocation/{id}/error", p.invocationError)
	mux.HandleFunc("POST /2018-06-01/runtime/init/error", p.initError)
	return mux
}

func (p *lambdaProcess) next(w http.ResponseWriter, r *http.Request) {
	fn := p.inst.fn
	p.mu.Lock()
	p.ready = true
	if p.current != nil {
		// Asking for more work without answering the previous invocation.
		stale := p.current
		p.current = nil
		p.mu.Unlock()
		stale.finish(nil, serviceError("Runtime.NoResponse", "the runtime asked for the next invocation without answering "+stale.id))
	} else {
		p.mu.Unlock()
	}
	var inv *invocation
	select {
	case inv = <-fn.queue:
	case <-r.Context().Done():
		return
	case <-p.exited:
		return
	}
	p.mu.Lock()
	if p.dead {
		p.mu.Unlock()
		inv.finish(nil, serviceError("Runtime.ExitError", "RequestId: "+inv.id+" Error: Runtime exited"))
		return
	}
	p.current = inv
	p.timer = time.AfterFunc(fn.cfg.Timeout, func() { p.timeout(inv) })
	p.mu.Unlock()
	fn.invocations.Add(1)

	deadline := time.Now().Add(fn.cfg.Timeout)
	h := w.Header()
	h.Set("Lambda-Runtime-Aws-Request-Id", inv.id)
	h.Set("Lambda-Runtime-Deadline-Ms", strconv.FormatInt(deadline.UnixMilli(), 10))
	h.Set("Lambda-Runtime-Invoked-Function-Arn", FunctionARN(fn.cfg.Name))
	h.Set("Lambda-Runtime-Trace-Id", "Root=1-"+strconv.FormatInt(time.Now().Unix(), 16)+"-"+strings.ReplaceAll(inv.id, "-", "")[:24]+";Sampled=0")
	h.Set("Content-Type", "application/json")
	w.Write(inv.payload)
}

// timeout ends an invocation that outlived the function timeout and, as Lambda does,
// discards the execution environment.
func (p *lambdaProcess) timeout(inv *invocation) {
	p.mu.Lock()
	if p.current != inv {
		p.mu.Unlock()
		return
	}
	p.current = nil
	p.mu.Unlock()
	inv.finish(nil, serviceError("Sandbox.Timedout", fmt.Sprintf("RequestId: %s Error: Task timed out after %.2f seconds", inv.id, p.inst.fn.cfg.Timeout.Seconds())))
	p.kill()
}

// take detaches the in-flight invocation named id.
func (p *lambdaProcess) take(id string) *invocation {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.current == nil || p.current.id != id {
		return nil
	}
	inv := p.current
	p.current = nil
	if p.timer != nil {
		p.timer.Stop()
	}
	return inv
}

func (p *lambdaProcess) response(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxInvokePayload+1))
	inv := p.take(r.PathValue("id"))
	if inv == nil {
		runtimeAPIError(w, http.StatusBadRequest, "InvalidRequestID", "unknown or finished request id "+r.PathValue("id"))
		return
	}
	accepted(w)
	switch {
	case err != nil:
		inv.finish(nil, serviceError("Runtime.InvalidResponse", err.Error()))
	case r.Trailer.Get("Lambda-Runtime-Function-Error-Type") != "":
		// aws-lambda-go reports a failure while streaming the response in trailers.
		doc, _ := base64.StdEncoding.DecodeString(r.Trailer.Get("Lambda-Runtime-Function-Error-Body"))
		inv.finish(nil, functionErrorFrom(doc, r.Trailer.Get("Lambda-Runtime-Function-Error-Type")))
	case len(body) > maxInvokePayload:
		inv.finish(nil, serviceError("Function.ResponseSizeTooLarge", "Response payload size exceeded maximum allowed payload size (6291556 bytes)."))
	default:
		inv.finish(body, nil)
	}
}

func (p *lambdaProcess) invocationError(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxInvokePayload))
	inv := p.take(r.PathValue("id"))
	if inv == nil {
		runtimeAPIError(w, http.StatusBadRequest, "InvalidRequestID", "unknown or finished request id "+r.PathValue("id"))
		return
	}
	accepted(w)
	inv.finish(nil, functionErrorFrom(body, r.Header.Get("Lambda-Runtime-Function-Error-Type")))
}

func (p *lambdaProcess) initError(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, maxInvokePayload))
	fe := functionErrorFrom(body, r.Header.Get("Lambda-Runtime-Function-Error-Type"))
	if fe.Type == "" || fe.Type == "Unknown" {
		fe = serviceError("Runtime.InitError", fe.Message)
	}
	p.mu.Lock()
	p.initErr = fe
	p.mu.Unlock()
	accepted(w)
}

// functionErrorFrom reads the error document a runtime posts; the document goes back
// to the caller unchanged, as Lambda passes it through.
func functionErrorFrom(doc []byte, headerType string) *FunctionError {
	fe := &FunctionError{}
	if json.Unmarshal(doc, fe) != nil || !json.Valid(doc) {
		return serviceError(firstNonEmpty(headerType, "Unknown"), string(bytes.TrimSpace(doc)))
	}
	if fe.Type == "" {
		fe.Type = firstNonEmpty(headerType, "Unknown")
	}
	fe.Payload = doc
	return fe
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

func accepted(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusAccepted)
	io.WriteString(w, `{"status":"OK"}`)
}

func runtimeAPIError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"errorType": typ, "errorMessage": msg})
}
