package testkit

import (
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
)

// The Step Functions stand-in of README's Tests section and the Node.js it needs.
const (
	localStepFunctionsVersion = "3.0.0"
	node22Version             = "22.23.3"
)

// StepFunctionsOptions configures the Step Functions stand-in.
type StepFunctionsOptions struct {
	// Lambda is the Lambda Invoke endpoint Task states call (Lambda.Endpoint()).
	Lambda string
	// Wait, when set, replaces the duration of every Wait state, and Retry every
	// Retry interval, for tests that cannot wait as long as production does.
	Wait, Retry time.Duration
}

// StepFunctions starts infra/standins/sfn-shim.mjs (the Step Functions JSON API over
// aws-local-stepfunctions, running the real ASL) on a free loopback port for the life
// of the test and returns its endpoint URL. It needs Node 22: the node on PATH when it
// is that recent, otherwise node-linux-<arch>@22 installed from npm into .tools.
// Without node and npm it skips the test (fails it under FIRMO_REQUIRE_STANDINS=1).
func StepFunctions(t testing.TB, opts StepFunctionsOptions) (endpoint string) {
	t.Helper()
	node := node22(t)
	NodeTool(t, "aws-local-stepfunctions", localStepFunctionsVersion, "local-sfn")
	script := repoFile(t, "infra/standins/sfn-shim.mjs")
	tools := repoFile(t, ".tools")
	addr := startStandin(t, "sfn-shim", func(port int) *exec.Cmd {
		args := []string{script, "--port", strconv.Itoa(port), "--host", "127.0.0.1", "--tools", tools, "--lambda-endpoint", opts.Lambda}
		if opts.Wait > 0 {
			args = append(args, "--wait-ms", strconv.FormatInt(opts.Wait.Milliseconds(), 10))
		}
		if opts.Retry > 0 {
			args = append(args, "--retry-ms", strconv.FormatInt(opts.Retry.Milliseconds(), 10))
		}
		return exec.Command(node, args...)
	})
	return "http://" + addr
}

// SFNClient returns a Step Functions client for a stand-in endpoint with dummy credentials.
func SFNClient(t testing.TB, endpoint string) *sfn.Client {
	t.Helper()
	return sfn.New(sfn.Options{
		Region:       StandinRegion,
		Credentials:  credentials.NewStaticCredentialsProvider("firmo-test", "firmo-test", ""),
		BaseEndpoint: aws.String(endpoint),
	})
}

// node22 returns a Node.js 22+ binary: node on PATH if recent enough, else the npm
// package node-linux-<arch> installed into .tools.
func node22(t testing.TB) string {
	t.Helper()
	if out, err := exec.Command("node", "--version").Output(); err == nil {
		major, _ := strconv.Atoi(strings.SplitN(strings.TrimPrefix(strings.TrimSpace(string(out)), "v"), ".", 2)[0])
		if major >= 22 {
			return "node"
		}
	}
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	if arch == "" {
		standinMissing(t, "Step Functions stand-in needs Node.js 22+, and there is no node-linux package for %s", runtime.GOARCH)
	}
	return NodeTool(t, "node-linux-"+arch, node22Version, "node")
}
