package allapp_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/statemachines"
)

// The SAM template and the router must agree: each endpoint family is served on AWS by
// the function whose logical id is functionOf(family), and that function lists every
// route of the family as an HttpApi event, no more, no less.

// functionOf names the template function of an endpoint family by convention: the
// family with its first letter capitalised, then "Function" (account -> AccountFunction,
// contacts -> ContactsFunction). SAM builds it with `make build-<that id>`.
func functionOf(family string) string {
	if family == "" {
		return "Function"
	}
	return strings.ToUpper(family[:1]) + family[1:] + "Function"
}

// endpoint is one route as the template declares it on a function.
type endpoint struct{ function, method, path string }

func (e endpoint) String() string { return e.function + ": " + e.method + " " + e.path }

func TestTemplateRoutesMatchRouter(t *testing.T) {
	tpl := loadTemplate(t)
	want := map[endpoint]bool{}
	for _, r := range routerApp(t).Server.Routes() {
		want[endpoint{functionOf(string(r.Family)), r.Method, r.Path}] = true
	}
	// API Gateway's catch-all ($default: an HttpApi event without Method and Path) goes
	// to the account function, whose router answers unknown paths (404) and wrong
	// methods (405) in the JSON error shape.
	want[endpoint{"AccountFunction", "", ""}] = true
	got := map[endpoint]bool{}
	for _, fn := range tpl.functions() {
		for name, ev := range pairs(mapGet(fn.props, "Events")) {
			if scalar(mapGet(ev, "Type")) != "HttpApi" {
				continue
			}
			p := mapGet(ev, "Properties")
			if api := tpl.resourceType(refName(mapGet(p, "ApiId"))); api != "AWS::Serverless::HttpApi" {
				t.Errorf("%s event %s: ApiId must be !Ref of the template's AWS::Serverless::HttpApi (else SAM makes a second API)", fn.id, name)
			}
			e := endpoint{fn.id, strings.ToUpper(scalar(mapGet(p, "Method"))), scalar(mapGet(p, "Path"))}
			if got[e] {
				t.Errorf("%s is declared twice", e)
			}
			got[e] = true
		}
	}
	for _, e := range sortedEndpoints(want) {
		if !got[e] {
			t.Errorf("the router serves %s %s, but template.yaml has no HttpApi event for it on %s", e.method, e.path, e.function)
		}
	}
	for _, e := range sortedEndpoints(got) {
		if !want[e] {
			t.Errorf("template.yaml routes %s, which the router does not serve on that function's family", e)
		}
	}
}

func TestTemplateFunctionsBuildForLambda(t *testing.T) {
	tpl := loadTemplate(t)
	fns := tpl.functions()
	if len(fns) == 0 {
		t.Fatal("template.yaml declares no AWS::Serverless::Function")
	}
	for _, family := range routerApp(t).Server.Families() {
		if tpl.resourceType(functionOf(string(family))) != "AWS::Serverless::Function" {
			t.Errorf("family %q has no function %s in template.yaml", family, functionOf(string(family)))
		}
	}
	for _, fn := range fns {
		if got := scalar(mapGet(fn.metadata, "BuildMethod")); got != "makefile" {
			t.Errorf("%s: Metadata.BuildMethod = %q, want makefile", fn.id, got)
		}
		// SAM copies CodeUri to a scratch directory before building: the function's own
		// directory, not the repository; the root Makefile (ContextPath) builds it from the
		// module root (WorkingDirectory).
		dir := "functions/" + strings.ToLower(strings.TrimSuffix(fn.id, "Function"))
		if got := strings.TrimSuffix(scalar(mapGet(fn.props, "CodeUri")), "/"); got != dir {
			t.Errorf("%s: CodeUri = %q, want %s/", fn.id, got, dir)
		} else if _, err := os.Stat(filepath.Join(repoRoot(t), dir, "main.go")); err != nil {
			t.Errorf("%s: CodeUri %s has no main.go: %v", fn.id, dir, err)
		}
		if mapGet(tpl.globals, "CodeUri") != nil {
			t.Error("Globals.Function.CodeUri is set: each function's CodeUri is its own directory")
		}
		for _, key := range []string{"ContextPath", "WorkingDirectory"} {
			if got := scalar(mapGet(fn.metadata, key)); got != "." {
				t.Errorf("%s: Metadata.%s = %q, want . (the module root, where the Makefile and go.mod are)", fn.id, key, got)
			}
		}
		if got := scalar(tpl.effective(fn, "Runtime")); got != "provided.al2023" {
			t.Errorf("%s: Runtime = %q, want provided.al2023", fn.id, got)
		}
		if got := scalars(tpl.effective(fn, "Architectures")); len(got) != 1 || got[0] != "arm64" {
			t.Errorf("%s: Architectures = %v, want [arm64]", fn.id, got)
		}
		if got := scalar(tpl.effective(fn, "Handler")); got != "bootstrap" {
			t.Errorf("%s: Handler = %q, want bootstrap", fn.id, got)
		}
		if got := scalar(tpl.envVar(fn, "FIRMO_BACKEND")); got != "aws" {
			t.Errorf("%s: FIRMO_BACKEND = %q, want aws", fn.id, got)
		}
	}
}

func TestTemplateBuildTargetsInMakefile(t *testing.T) {
	tpl := loadTemplate(t)
	path := filepath.Join(repoRoot(t), "Makefile")
	raw, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		t.Fatalf("Makefile is missing: SAM (BuildMethod: makefile) runs `make build-<LogicalId>` for every function of template.yaml")
	}
	if err != nil {
		t.Fatal(err)
	}
	targets := makeTargets(string(raw))
	for _, fn := range tpl.functions() {
		if want := "build-" + fn.id; !anyTargetMatches(targets, want) {
			t.Errorf("Makefile has no target %s: `sam build` calls it (with ARTIFACTS_DIR) to build %s", want, fn.id)
		} else if recipe, pkg := makeRecipe(string(raw), want), "./"+strings.TrimSuffix(scalar(mapGet(fn.props, "CodeUri")), "/"); recipe != "" && !strings.Contains(recipe+" ", pkg+" ") {
			t.Errorf("Makefile target %s does not build %s (its CodeUri): %s", want, pkg, recipe)
		}
	}
}

// makeRecipe is the recipe of an explicit rule (its tab-indented lines), or "" when the
// target has none of its own (a pattern rule builds it).
func makeRecipe(makefile, target string) string {
	var out []string
	in := false
	for _, line := range strings.Split(makefile, "\n") {
		switch {
		case strings.HasPrefix(line, target+":"):
			in = true
		case in && strings.HasPrefix(line, "\t"):
			out = append(out, strings.TrimSpace(line))
		case in:
			return strings.Join(out, "\n")
		}
	}
	return strings.Join(out, "\n")
}

// routerApp builds the local composition, whose router is the one every Lambda serves a
// part of.
func routerApp(t *testing.T) *allapp.App {
	t.Helper()
	env := map[string]string{"FIRMO_DATA_DIR": t.TempDir()}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	a, err := allapp.NewLocal(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// template is template.yaml as a yaml.Node tree. Decoding into nodes rather than Go
// values keeps CloudFormation's short-form tags (!Ref, !Sub, !GetAtt, !If) as node tags
// instead of failing on them.
type template struct {
	root      *yaml.Node
	resources *yaml.Node
	globals   *yaml.Node // Globals.Function, nil if absent
}

// function is one AWS::Serverless::Function resource.
type function struct {
	id       string
	props    *yaml.Node
	metadata *yaml.Node
}

func loadTemplate(t *testing.T) *template {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("template.yaml: %v", err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		t.Fatal("template.yaml is not one YAML mapping")
	}
	root := doc.Content[0]
	if got := scalar(mapGet(root, "Transform")); got != "AWS::Serverless-2016-10-31" {
		t.Fatalf("template.yaml: Transform = %q, want AWS::Serverless-2016-10-31", got)
	}
	tpl := &template{root: root, resources: mapGet(root, "Resources"), globals: mapGet(mapGet(root, "Globals"), "Function")}
	if tpl.resources == nil {
		t.Fatal("template.yaml has no Resources")
	}
	return tpl
}

func (tpl *template) functions() []function {
	var out []function
	for id, res := range pairs(tpl.resources) {
		if scalar(mapGet(res, "Type")) == "AWS::Serverless::Function" {
			out = append(out, function{id: id, props: mapGet(res, "Properties"), metadata: mapGet(res, "Metadata")})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

func (tpl *template) resourceType(id string) string {
	return scalar(mapGet(mapGet(tpl.resources, id), "Type"))
}

// effective is a function property as SAM resolves it: the function's own value, else
// the one of Globals.Function.
func (tpl *template) effective(fn function, key string) *yaml.Node {
	if n := mapGet(fn.props, key); n != nil {
		return n
	}
	return mapGet(tpl.globals, key)
}

// envVar is an environment variable as SAM merges them: the function's over the globals'.
func (tpl *template) envVar(fn function, name string) *yaml.Node {
	if n := mapGet(mapGet(mapGet(fn.props, "Environment"), "Variables"), name); n != nil {
		return n
	}
	return mapGet(mapGet(mapGet(tpl.globals, "Environment"), "Variables"), name)
}

// mapGet returns the value of key in a mapping node, or nil.
func mapGet(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// pairs lists a mapping node's entries by key.
func pairs(n *yaml.Node) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	if n == nil || n.Kind != yaml.MappingNode {
		return out
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		out[n.Content[i].Value] = n.Content[i+1]
	}
	return out
}

func scalar(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode {
		return ""
	}
	return n.Value
}

func scalars(n *yaml.Node) []string {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	var out []string
	for _, c := range n.Content {
		out = append(out, scalar(c))
	}
	return out
}

// refName is the logical id a node refers to, in short (!Ref X) or long ({Ref: X}) form.
func refName(n *yaml.Node) string {
	if n == nil {
		return ""
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!Ref" {
		return n.Value
	}
	return scalar(mapGet(n, "Ref"))
}

// makeTargets lists the targets of a Makefile's rules, pattern rules (with %) included.
// Variable assignments and recipe lines are skipped.
func makeTargets(makefile string) []string {
	var out []string
	for _, line := range strings.Split(makefile, "\n") {
		if strings.HasPrefix(line, "\t") || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		head, _, ok := strings.Cut(line, ":")
		if !ok || strings.ContainsAny(head, "=") || strings.HasPrefix(line[len(head):], ":=") {
			continue
		}
		out = append(out, strings.Fields(head)...)
	}
	return out
}

func anyTargetMatches(targets []string, name string) bool {
	for _, tg := range targets {
		if tg == name {
			return true
		}
		if prefix, suffix, ok := strings.Cut(tg, "%"); ok &&
			len(name) > len(prefix)+len(suffix) && strings.HasPrefix(name, prefix) && strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

func sortedEndpoints(m map[endpoint]bool) []endpoint {
	out := make([]endpoint, 0, len(m))
	for e := range m {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// TestTemplateStateMachines checks that every ASL file is deployed by an
// AWS::Serverless::StateMachine whose DefinitionSubstitutions fill exactly the file's
// ${Placeholders}: a placeholder left unfilled would reach Step Functions as text.
func TestTemplateStateMachines(t *testing.T) {
	tpl := loadTemplate(t)
	deployed := map[string]bool{}
	for id, res := range pairs(tpl.resources) {
		if scalar(mapGet(res, "Type")) != "AWS::Serverless::StateMachine" {
			continue
		}
		props := mapGet(res, "Properties")
		uri := scalar(mapGet(props, "DefinitionUri"))
		name, ok := strings.CutSuffix(strings.TrimPrefix(uri, "statemachines/"), ".asl.json")
		if !ok || strings.Contains(name, "/") {
			t.Errorf("%s: DefinitionUri %q, want statemachines/<name>.asl.json", id, uri)
			continue
		}
		deployed[name] = true
		want, err := statemachines.Placeholders(name)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		var got []string
		for k := range pairs(mapGet(props, "DefinitionSubstitutions")) {
			got = append(got, k)
		}
		sort.Strings(got)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: DefinitionSubstitutions %v, want exactly the placeholders of %s: %v", id, got, uri, want)
		}
	}
	for _, name := range statemachines.Names() {
		if !deployed[name] {
			t.Errorf("statemachines/%s.asl.json is not deployed by any AWS::Serverless::StateMachine", name)
		}
	}
}

// TestTemplateTaskQueue checks the worker's wiring: SQS batches with partial failures
// through an event source mapping of its own (a SAM SQS event would attach
// AWSLambdaSQSQueueExecutionRole, receive and delete on every queue of the account), a
// queue whose visibility timeout covers six worker timeouts, and a DLQ with an alarm.
func TestTemplateTaskQueue(t *testing.T) {
	tpl := loadTemplate(t)
	worker := mapGet(mapGet(tpl.resources, "WorkerFunction"), "Properties")
	if worker == nil {
		t.Fatal("template.yaml has no WorkerFunction")
	}
	for _, fn := range tpl.functions() {
		for name, ev := range pairs(mapGet(fn.props, "Events")) {
			if scalar(mapGet(ev, "Type")) == "SQS" {
				t.Errorf("%s event %s: a SAM SQS event attaches AWSLambdaSQSQueueExecutionRole (every queue of the account); use an AWS::Lambda::EventSourceMapping", fn.id, name)
			}
		}
	}
	var queueID string
	for id, res := range pairs(tpl.resources) {
		p := mapGet(res, "Properties")
		if scalar(mapGet(res, "Type")) != "AWS::Lambda::EventSourceMapping" || aliasedFunction(mapGet(p, "FunctionName")) != "WorkerFunction" {
			continue
		}
		queueID = getAttName(mapGet(p, "EventSourceArn"))
		if got := scalars(mapGet(p, "FunctionResponseTypes")); len(got) != 1 || got[0] != "ReportBatchItemFailures" {
			t.Errorf("%s: FunctionResponseTypes %v, want [ReportBatchItemFailures]", id, got)
		}
	}
	if tpl.resourceType(queueID) != "AWS::SQS::Queue" {
		t.Fatalf("WorkerFunction has no event source mapping from a queue of the template (got %q)", queueID)
	}
	queue := mapGet(mapGet(tpl.resources, queueID), "Properties")
	timeout, _ := strconv.Atoi(scalar(tpl.effective(function{props: worker}, "Timeout")))
	if vis, _ := strconv.Atoi(scalar(mapGet(queue, "VisibilityTimeout"))); timeout == 0 || vis < 6*timeout {
		t.Errorf("%s: VisibilityTimeout %d, want at least 6 x the worker's Timeout %d", queueID, vis, timeout)
	}
	redrive := mapGet(queue, "RedrivePolicy")
	dlq := getAttName(mapGet(redrive, "deadLetterTargetArn"))
	if tpl.resourceType(dlq) != "AWS::SQS::Queue" || scalar(mapGet(redrive, "maxReceiveCount")) == "" {
		t.Fatalf("%s: RedrivePolicy must name a DLQ of the template and a maxReceiveCount", queueID)
	}
	alarmed := false
	for _, res := range pairs(tpl.resources) {
		p := mapGet(res, "Properties")
		if scalar(mapGet(res, "Type")) != "AWS::CloudWatch::Alarm" || scalar(mapGet(p, "MetricName")) != "ApproximateNumberOfMessagesVisible" {
			continue
		}
		for _, d := range mapGet(p, "Dimensions").Content {
			if scalar(mapGet(d, "Name")) == "QueueName" && getAttName(mapGet(d, "Value")) == dlq {
				alarmed = true
			}
		}
	}
	if !alarmed {
		t.Errorf("no alarm on %s's ApproximateNumberOfMessagesVisible", dlq)
	}
}

// getAttName is the logical id of a !GetAtt Id.Attr node.
func getAttName(n *yaml.Node) string {
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag != "!GetAtt" {
		return ""
	}
	id, _, _ := strings.Cut(n.Value, ".")
	return id
}

// TestTemplateOpenSearchAndEmbedder checks the network, the OpenSearch domain and the
// embedder settings: the stack makes a VPC with two private subnets routed through a
// NAT gateway unless VpcId names one, and an OpenSearch domain in it across two zones
// unless OpenSearchEndpoint names one; the functions that speak SMTP or OpenSearch run
// in the private subnets; the functions that search names or contacts get
// FIRMO_OPENSEARCH_URL (the stack's domain or OpenSearchEndpoint, sigv4) together with
// es:ESHttp* on that domain, and no other function gets either (the actions
// themselves: TestTemplateGrantsWhatTheCodeCalls); every function gets the same embedder
// settings; the API key is never in the template or an environment: the contacts
// function gets the secret's ARN, nothing else does; and every FIRMO_ variable the
// template sets is a setting config.Load reads.
func TestTemplateOpenSearchAndEmbedder(t *testing.T) {
	tpl := loadTemplate(t)
	params := mapGet(tpl.root, "Parameters")
	if p := mapGet(params, "OpenSearchEndpoint"); p == nil || mapGet(p, "Default") == nil || scalar(mapGet(p, "Default")) != "" {
		t.Fatal("template.yaml needs a parameter OpenSearchEndpoint with an empty default")
	}
	needs := map[string]bool{"CompanyFunction": true, "ContactsFunction": true, "SchedulerFunction": true, "WorkerFunction": true}
	cond := mapGet(mapGet(tpl.root, "Conditions"), "CreateOpenSearch")
	if cond == nil || !strings.Contains(nodeText(cond), "OpenSearchEndpoint") {
		t.Fatal("template.yaml needs a condition CreateOpenSearch on OpenSearchEndpoint (empty: the stack makes the domain)")
	}
	if tpl.resourceType("SearchDomain") != "AWS::OpenSearchService::Domain" {
		t.Fatal("template.yaml needs the OpenSearch domain SearchDomain")
	}
	domain := mapGet(mapGet(tpl.resources, "SearchDomain"), "Properties")
	cluster := mapGet(domain, "ClusterConfig")
	if scalar(mapGet(cluster, "ZoneAwarenessEnabled")) != "true" || scalar(mapGet(mapGet(cluster, "ZoneAwarenessConfig"), "AvailabilityZoneCount")) != "2" || scalar(mapGet(cluster, "InstanceCount")) != "2" {
		t.Errorf("SearchDomain: want two data nodes across two zones: %s", nodeText(cluster))
	}
	if vpc := nodeText(mapGet(domain, "VPCOptions")); !strings.Contains(vpc, "PrivateSubnetA") || !strings.Contains(vpc, "PrivateSubnetIds") || !strings.Contains(vpc, "SearchSecurityGroup") {
		t.Errorf("SearchDomain: not in the VPC's private subnets: %s", vpc)
	}
	for _, id := range []string{"Vpc", "PrivateSubnetA", "PrivateSubnetB", "NatGateway", "NatElasticIp", "PrivateDefaultRoute"} {
		if tpl.resourceType(id) == "" || scalar(mapGet(mapGet(tpl.resources, id), "Condition")) != "CreateVpc" {
			t.Errorf("%s: want it made under the condition CreateVpc (no VpcId given)", id)
		}
	}
	if !strings.Contains(nodeText(mapGet(mapGet(mapGet(tpl.resources, "PrivateDefaultRoute"), "Properties"), "NatGatewayId")), "NatGateway") {
		t.Error("PrivateDefaultRoute: the private subnets' default route must go through the NAT gateway")
	}
	// The functions that speak OpenSearch (needs) or SMTP (email, worker) run in the VPC.
	inVPC := map[string]bool{"EmailFunction": true}
	for id := range needs {
		inVPC[id] = true
	}
	for _, fn := range tpl.functions() {
		vc := mapGet(fn.props, "VpcConfig")
		if !inVPC[fn.id] {
			if vc != nil {
				t.Errorf("%s: has a VpcConfig, which only the functions speaking SMTP or OpenSearch need", fn.id)
			}
			continue
		}
		if text := nodeText(vc); !strings.Contains(text, "FunctionSecurityGroup") || !strings.Contains(text, "PrivateSubnetA") || !strings.Contains(text, "PrivateSubnetB") || !strings.Contains(text, "PrivateSubnetIds") {
			t.Errorf("%s: VpcConfig %s; want the private subnets (the stack's or PrivateSubnetIds) and FunctionSecurityGroup", fn.id, strings.TrimSpace(text))
		}
	}
	for _, fn := range tpl.functions() {
		url, auth := tpl.envVar(fn, "FIRMO_OPENSEARCH_URL"), tpl.envVar(fn, "FIRMO_OPENSEARCH_AUTH")
		policy := openSearchPolicy(fn)
		if !needs[fn.id] {
			if url != nil || policy != nil {
				t.Errorf("%s: has FIRMO_OPENSEARCH_URL or an OpenSearch policy, which only %v need", fn.id, needs)
			}
			continue
		}
		if text := nodeText(url); url == nil || url.Tag != "!If" || !strings.Contains(text, "CreateOpenSearch") || !strings.Contains(text, "SearchDomain.DomainEndpoint") || !strings.Contains(text, "!Ref OpenSearchEndpoint") || scalar(auth) != "sigv4" {
			t.Errorf("%s: FIRMO_OPENSEARCH_URL %q, FIRMO_OPENSEARCH_AUTH %q; want !If [CreateOpenSearch, the stack's domain, !Ref OpenSearchEndpoint] and sigv4", fn.id, text, scalar(auth))
		}
		if policy == nil {
			t.Errorf("%s: no OpenSearch policy", fn.id)
			continue
		}
		text := nodeText(policy)
		for _, want := range []string{"es:ESHttp", "CreateOpenSearch", "SearchDomain.Arn", "domain/${OpenSearchDomainName}/*"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: OpenSearch policy lacks %s: %s", fn.id, want, text)
			}
		}
	}
	for _, fn := range tpl.functions() {
		for name, param := range map[string]string{"FIRMO_EMBEDDER": "Embedder", "FIRMO_EMBED_BASE_URL": "EmbedBaseUrl", "FIRMO_EMBED_MODEL": "EmbedModel", "FIRMO_EMBED_DIMS": "EmbedDims"} {
			if got := refName(tpl.envVar(fn, name)); got != param {
				t.Errorf("%s: %s = !Ref %q, want !Ref %s", fn.id, name, got, param)
			}
		}
		// A dynamic reference ({{resolve:secretsmanager:...}}) would put the key in the
		// function's configuration in plain text.
		if key := tpl.envVar(fn, "FIRMO_EMBED_API_KEY"); key != nil {
			t.Errorf("%s: sets FIRMO_EMBED_API_KEY (%s); pass FIRMO_EMBED_API_KEY_SECRET_ARN, read at init", fn.id, strings.TrimSpace(nodeText(key)))
		}
		arn := tpl.envVar(fn, "FIRMO_EMBED_API_KEY_SECRET_ARN")
		// The functions that embed: contact search, and segmentation (the datasets
		// function submits, the worker clusters) embedding company profiles.
		if !slices.Contains([]string{"ContactsFunction", "DatasetsFunction", "WorkerFunction"}, fn.id) {
			if arn != nil {
				t.Errorf("%s: sets FIRMO_EMBED_API_KEY_SECRET_ARN, which only the functions that embed (contacts, datasets, worker) read", fn.id)
			}
			continue
		}
		if text := nodeText(arn); arn == nil || arn.Tag != "!If" || !strings.Contains(text, "HasEmbedApiKey") || !strings.Contains(text, "!Ref EmbedApiKeySecretArn") {
			t.Errorf("%s: FIRMO_EMBED_API_KEY_SECRET_ARN = %s; want !If [HasEmbedApiKey, !Ref EmbedApiKeySecretArn, \"\"]", fn.id, strings.TrimSpace(text))
		}
	}
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "template.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "{{resolve:") {
		t.Error("template.yaml uses a dynamic reference ({{resolve:...}}): the value would be stored in plain text where it is used")
	}
	for _, name := range []string{"EmbedApiKey", "EmbedApiKeySecret"} {
		if mapGet(params, name) != nil {
			t.Errorf("parameter %s: the embedding API key is given as a secret's ARN (EmbedApiKeySecretArn), never as a value or a name", name)
		}
	}
	if p := mapGet(params, "EmbedApiKeySecretArn"); p == nil || scalar(mapGet(p, "Default")) != "" || !strings.Contains(scalar(mapGet(p, "AllowedPattern")), ":secretsmanager:") {
		t.Error("template.yaml needs a parameter EmbedApiKeySecretArn, empty by default, whose AllowedPattern admits only Secrets Manager ARNs")
	}
	// Every FIRMO_ variable set is one config.Load reads.
	read := map[string]bool{}
	if _, err := config.Load(func(k string) string { read[k] = true; return "" }); err != nil {
		t.Fatal(err)
	}
	for _, fn := range tpl.functions() {
		vars := pairs(mapGet(mapGet(tpl.globals, "Environment"), "Variables"))
		for k, v := range pairs(mapGet(mapGet(fn.props, "Environment"), "Variables")) {
			vars[k] = v
		}
		for k := range vars {
			if strings.HasPrefix(k, "FIRMO_") && !read[k] {
				t.Errorf("%s: sets %s, which config.Load does not read", fn.id, k)
			}
		}
	}
}

// openSearchPolicy is a function's policy entry whose statement grants es: actions, or nil.
func openSearchPolicy(fn function) *yaml.Node {
	pol := mapGet(fn.props, "Policies")
	if pol == nil || pol.Kind != yaml.SequenceNode {
		return nil
	}
	for _, p := range pol.Content {
		sts := mapGet(p, "Statement")
		if sts == nil {
			continue
		}
		for _, st := range sts.Content {
			if strings.Contains(nodeText(mapGet(st, "Action")), "es:ESHttp") {
				return st
			}
		}
	}
	return nil
}

// nodeText renders a node back to YAML (tags included), for substring checks.
func nodeText(n *yaml.Node) string {
	if n == nil {
		return ""
	}
	b, _ := yaml.Marshal(n)
	return string(b)
}
