package allapp_test

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestTemplateOperations checks what operating the stack needs: every function logs to
// a log group of its own with the LogRetentionDays retention, has an Errors and a
// Throttles alarm, and is traced; the API's 5xx, the task queue's oldest record and
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
