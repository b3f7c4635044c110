package allapp_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestTemplateOperations checks what operating the stack needs: every function logs to
// a log group of its own with the LogRetentionDays retention, has an Errors, a Throttles
// and a Duration alarm, is traced, deploys gradually through the alias live with its
// Errors alarm for rollback, and sets GOMEMLIMIT from its memory; the API logs every
// request and throttles its stage; the state machine logs its executions; the table's
// throttled reads and writes raise alarms; the API's 5xx, the task queue's oldest record and
// every other alarm notify the AlarmTopic; reserved concurrency is never reserved by
// default (a fresh account cannot spare any); the table, the queues and the key survive
// the stack.
func TestTemplateOperations(t *testing.T) {
	tpl := loadTemplate(t)
	retention := mapGet(mapGet(tpl.root, "Parameters"), "LogRetentionDays")
	if retention == nil || scalar(mapGet(retention, "Default")) != "30" {
		t.Error("template.yaml needs a parameter LogRetentionDays defaulting to 30")
	}
	alarms := tpl.alarms(t)
	for _, fn := range tpl.functions() {
		group := refName(mapGet(mapGet(fn.props, "LoggingConfig"), "LogGroup"))
		p := mapGet(mapGet(tpl.resources, group), "Properties")
		switch {
		case tpl.resourceType(group) != "AWS::Logs::LogGroup":
			t.Errorf("%s: LoggingConfig.LogGroup = %q, want !Ref of its AWS::Logs::LogGroup", fn.id, group)
		case refName(mapGet(p, "RetentionInDays")) != "LogRetentionDays":
			t.Errorf("%s: log group %s keeps logs for %q, want !Ref LogRetentionDays", fn.id, group, nodeText(mapGet(p, "RetentionInDays")))
		case !strings.HasPrefix(mapGet(p, "LogGroupName").Value, "/aws/lambda/") || !strings.Contains(mapGet(p, "LogGroupName").Value, fn.id):
			t.Errorf("%s: log group name %q, want /aws/lambda/...%s", fn.id, mapGet(p, "LogGroupName").Value, fn.id)
		}
		for _, metric := range []string{"Errors", "Throttles"} {
			if !alarms.has("AWS/Lambda", metric, "FunctionName", fn.id) {
				t.Errorf("%s: no alarm on its %s (AWS/Lambda, FunctionName !Ref %s)", fn.id, metric, fn.id)
			}
		}
		if got := scalar(tpl.effective(fn, "Tracing")); got != "Active" {
			t.Errorf("%s: Tracing = %q, want Active", fn.id, got)
		}
		if n := tpl.effective(fn, "ReservedConcurrentExecutions"); n != nil {
			tpl.checkOptionalReservation(t, fn.id, n)
		}
		// Work about to be cut off by the timeout, and gradual deployments rolled back by
		// the function's own Errors alarm.
		if !alarms.has("AWS/Lambda", "Duration", "FunctionName", fn.id) {
			t.Errorf("%s: no alarm on its Duration (AWS/Lambda, FunctionName !Ref %s)", fn.id, fn.id)
		}
		if got := scalar(tpl.effective(fn, "AutoPublishAlias")); got != "live" {
			t.Errorf("%s: AutoPublishAlias = %q, want live (gradual deployments shift an alias)", fn.id, got)
		}
		dp := nodeText(mapGet(tpl.effective(fn, "DeploymentPreference"), "Alarms"))
		if !strings.Contains(dp, fn.id+"ErrorsAlarm") {
			t.Errorf("%s: DeploymentPreference.Alarms %q, want its Errors alarm (a failing canary rolls back)", fn.id, strings.TrimSpace(dp))
		}
		if !strings.Contains(nodeText(mapGet(tpl.globals, "DeploymentPreference")), "Canary") {
			t.Errorf("Globals: DeploymentPreference.Type should shift prod traffic gradually (a Canary or Linear type)")
		}
		// GOMEMLIMIT: 90 % of the function's memory, in MiB.
		mem, _ := strconv.Atoi(scalar(tpl.effective(fn, "MemorySize")))
		if got, want := scalar(tpl.envVar(fn, "GOMEMLIMIT")), fmt.Sprintf("%dMiB", mem*9/10); mem == 0 || got != want {
			t.Errorf("%s: GOMEMLIMIT = %q, want %s (90 %% of MemorySize %d)", fn.id, got, want, mem)
		}
	}
	api := mapGet(mapGet(tpl.resources, "HttpApi"), "Properties")
	if logs := mapGet(api, "AccessLogSettings"); tpl.resourceType(getAttName(mapGet(logs, "DestinationArn"))) != "AWS::Logs::LogGroup" || scalar(mapGet(logs, "Format")) == "" {
		t.Error("HttpApi: AccessLogSettings must send a Format to a log group of the template")
	}
	if rs := mapGet(api, "DefaultRouteSettings"); refName(mapGet(rs, "ThrottlingRateLimit")) == "" || refName(mapGet(rs, "ThrottlingBurstLimit")) == "" {
		t.Error("HttpApi: DefaultRouteSettings needs ThrottlingRateLimit and ThrottlingBurstLimit from parameters (stage throttling)")
	}
	for _, metric := range []string{"ReadThrottleEvents", "WriteThrottleEvents"} {
		if !alarms.has("AWS/DynamoDB", metric, "TableName", "ItemsTable") {
			t.Errorf("no alarm on the table's %s (AWS/DynamoDB, TableName !Ref ItemsTable)", metric)
		}
	}
	if !alarms.has("AWS/ApiGateway", "5xx", "ApiId", "HttpApi") {
		t.Error("no alarm on the HTTP API's 5xx (AWS/ApiGateway, ApiId !Ref HttpApi)")
	}
	for _, queue := range eventSourceMappings(t, tpl)["WorkerFunction"] {
		if !alarms.has("AWS/SQS", "ApproximateAgeOfOldestMessage", "QueueName", queue) {
			t.Errorf("no alarm on %s's ApproximateAgeOfOldestMessage", queue)
		}
	}
	for id, res := range pairs(tpl.resources) {
		p := mapGet(res, "Properties")
		switch scalar(mapGet(res, "Type")) {
		case "AWS::Serverless::StateMachine":
			if scalar(mapGet(mapGet(p, "Tracing"), "Enabled")) != "true" {
				t.Errorf("%s: Tracing.Enabled is not true", id)
			}
			logging := mapGet(p, "Logging")
			dest := nodeText(mapGet(logging, "Destinations"))
			if scalar(mapGet(logging, "Level")) == "" || scalar(mapGet(logging, "Level")) == "OFF" || !strings.Contains(dest, "LogGroupArn") {
				t.Errorf("%s: Logging must send execution logs (Level ERROR or ALL) to a log group", id)
			}
		case "AWS::DynamoDB::Table", "AWS::SQS::Queue", "AWS::KMS::Key":
			for _, policy := range []string{"DeletionPolicy", "UpdateReplacePolicy"} {
				if got := scalar(mapGet(res, policy)); got != "Retain" {
					t.Errorf("%s: %s = %q, want Retain (its data must outlive the stack)", id, policy, got)
				}
			}
		}
		if scalar(mapGet(res, "Type")) == "AWS::DynamoDB::Table" && !strings.Contains(nodeText(mapGet(p, "DeletionProtectionEnabled")), "IsProd") {
			t.Errorf("%s: DeletionProtectionEnabled should follow the stage (!If [IsProd, true, false])", id)
		}
	}
}

// checkOptionalReservation requires ReservedConcurrentExecutions to be
// !If [Condition, !Ref Parameter, !Ref AWS::NoValue] with the parameter empty by default:
// an account must keep 10 unreserved executions, so on a new account (limit 10) any
// reservation fails the deployment.
func (tpl *template) checkOptionalReservation(t *testing.T, id string, n *yaml.Node) {
	t.Helper()
	if n.Tag != "!If" || len(n.Content) != 3 || refName(n.Content[2]) != "AWS::NoValue" {
		t.Errorf("%s: ReservedConcurrentExecutions = %s; want !If [Condition, !Ref Parameter, !Ref AWS::NoValue] (none reserved by default)", id, strings.TrimSpace(nodeText(n)))
		return
	}
	param := mapGet(mapGet(tpl.root, "Parameters"), refName(n.Content[1]))
	if d := mapGet(param, "Default"); param == nil || d == nil || d.Value != "" {
		t.Errorf("%s: ReservedConcurrentExecutions comes from %q, which must be a parameter whose default is empty (none)", id, refName(n.Content[1]))
	}
	cond := mapGet(mapGet(tpl.root, "Conditions"), scalar(n.Content[0]))
	if !strings.Contains(nodeText(cond), refName(n.Content[1])) {
		t.Errorf("%s: condition %s does not test parameter %s", id, scalar(n.Content[0]), refName(n.Content[1]))
	}
}

// alarm is one CloudWatch alarm of the template, reduced to what the tests look at.
type alarm struct{ namespace, metric, dimension, target string }

type alarmSet map[alarm]bool

// alarms lists the template's alarms; each must notify AlarmTopic.
func (tpl *template) alarms(t *testing.T) alarmSet {
	t.Helper()
	out := alarmSet{}
	for id, res := range pairs(tpl.resources) {
		if scalar(mapGet(res, "Type")) != "AWS::CloudWatch::Alarm" {
			continue
		}
		p := mapGet(res, "Properties")
		notifies := false
		if actions := mapGet(p, "AlarmActions"); actions != nil {
			for _, a := range actions.Content {
				notifies = notifies || (refName(a) == "AlarmTopic" && tpl.resourceType("AlarmTopic") == "AWS::SNS::Topic")
			}
		}
		if !notifies {
			t.Errorf("%s: AlarmActions do not include !Ref AlarmTopic (the SNS topic operators subscribe to)", id)
		}
		dims := mapGet(p, "Dimensions")
		if dims == nil || len(dims.Content) != 1 {
			t.Errorf("%s: want exactly one dimension", id)
			continue
		}
		v := mapGet(dims.Content[0], "Value")
		target := refName(v)
		if target == "" {
			target = getAttName(v)
		}
		out[alarm{scalar(mapGet(p, "Namespace")), scalar(mapGet(p, "MetricName")), scalar(mapGet(dims.Content[0], "Name")), target}] = true
	}
	return out
}

func (s alarmSet) has(namespace, metric, dimension, target string) bool {
	return s[alarm{namespace, metric, dimension, target}]
}

// TestTemplateKeepsSecretsOutOfTheEnvironment: no environment variable of any function
// holds a secret (a client secret, an API key, a password or a token): secrets are
// given as Secrets Manager ARNs and read at init, and no parameter takes a secret's value.
func TestTemplateKeepsSecretsOutOfTheEnvironment(t *testing.T) {
	tpl := loadTemplate(t)
	secretish := func(name string) bool {
		n := strings.ToUpper(name)
		if strings.HasSuffix(n, "_ARN") || strings.HasSuffix(n, "_KEY_ID") {
			return false
		}
		for _, w := range []string{"SECRET", "PASSWORD", "TOKEN", "API_KEY"} {
			if strings.Contains(n, w) {
				return true
			}
		}
		return false
	}
	for _, fn := range tpl.functions() {
		vars := pairs(mapGet(mapGet(tpl.globals, "Environment"), "Variables"))
		for k, v := range pairs(mapGet(mapGet(fn.props, "Environment"), "Variables")) {
			vars[k] = v
		}
		for k := range vars {
			if secretish(k) {
				t.Errorf("%s: environment variable %s holds a secret; pass a Secrets Manager ARN (%s_ARN) read at init", fn.id, k, k)
			}
		}
	}
	for name, p := range pairs(mapGet(tpl.root, "Parameters")) {
		if scalar(mapGet(p, "NoEcho")) == "true" {
			t.Errorf("parameter %s takes a secret's value (NoEcho); take its Secrets Manager ARN instead", name)
		}
	}
}
