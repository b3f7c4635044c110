package allapp_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/app/localbackend"
	"github.com/firmoapi/firmo/shared/awsiam"
	"github.com/firmoapi/firmo/shared/company/oscontactfields"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/contactsearch/ossearch"
	"github.com/firmoapi/firmo/shared/kv/dynamokv"
	"github.com/firmoapi/firmo/shared/osclient"
	"github.com/firmoapi/firmo/shared/secret"
	"github.com/firmoapi/firmo/shared/secret/kmsopen"
	"github.com/firmoapi/firmo/shared/secret/kmssecret"
	"github.com/firmoapi/firmo/shared/secret/smsecret"
	"github.com/firmoapi/firmo/shared/task/sfnflow"
	"github.com/firmoapi/firmo/shared/task/sqsqueue"
)

// iamAdapters are the packages whose code calls AWS for a deployed function, each with
// the IAM actions it lists (its TestIAMActions keeps the list equal to its source) and
// those only tests and stand-ins call (setup: never granted), the setting that turns it
// on in the AWS composition, the template condition its grant is under, and the template
// names (resources, parameters) the grant's Resource must name.
var iamAdapters = []struct {
	pkg       string
	actions   []string
	setup     []string
	env       string
	condition string
	resources []string
}{
	{"github.com/firmoapi/firmo/shared/kv/dynamokv", dynamokv.IAMActions, dynamokv.SetupActions, "FIRMO_TABLE", "", []string{"ItemsTable"}},
	{"github.com/firmoapi/firmo/shared/task/sqsqueue", sqsqueue.IAMActions, nil, "FIRMO_QUEUE_URL", "", []string{"TaskQueue"}},
	{"github.com/firmoapi/firmo/shared/task/sfnflow", sfnflow.IAMActions, nil, "FIRMO_STATE_MACHINE_ARN", "", []string{"TaskStateMachine"}},
	{"github.com/firmoapi/firmo/shared/osclient", osclient.IAMActions, osclient.SetupActions, "FIRMO_OPENSEARCH_URL", "", []string{"SearchDomain", "OpenSearchDomainName"}},
	{"github.com/firmoapi/firmo/shared/contactsearch/ossearch", ossearch.IAMActions, nil, "FIRMO_OPENSEARCH_URL", "", []string{"SearchDomain", "OpenSearchDomainName"}},
	{"github.com/firmoapi/firmo/shared/company/oscontactfields", oscontactfields.IAMActions, nil, "FIRMO_OPENSEARCH_URL", "", []string{"SearchDomain", "OpenSearchDomainName"}},
	{"github.com/firmoapi/firmo/shared/secret", secret.IAMActions, nil, "FIRMO_KMS_KEY_ID", "", []string{"SecretsKey"}},
	// kmsopen's Client makes the KMS client on first use and opens (Decrypt); kmssecret
	// adds sealing's GenerateDataKey. Functions that only read keys link kmsopen alone.
	{"github.com/firmoapi/firmo/shared/secret/kmsopen", kmsopen.IAMActions, nil, "FIRMO_KMS_KEY_ID", "", []string{"SecretsKey"}},
	{"github.com/firmoapi/firmo/shared/secret/kmssecret", kmssecret.IAMActions, nil, "FIRMO_KMS_KEY_ID", "", []string{"SecretsKey"}},
	{"github.com/firmoapi/firmo/shared/secret/smsecret", smsecret.IAMActions, nil, "FIRMO_EMBED_API_KEY_SECRET_ARN", "HasEmbedApiKey", []string{"EmbedApiKeySecretArn"}},
	{"github.com/firmoapi/firmo/shared/secret/smsecret", smsecret.IAMActions, nil, "FIRMO_CRM_HUBSPOT_CLIENT_SECRET_ARN", "HasHubSpotClientSecret", []string{"CrmHubSpotClientSecretArn"}},
	{"github.com/firmoapi/firmo/shared/secret/smsecret", smsecret.IAMActions, nil, "FIRMO_CRM_SALESFORCE_CLIENT_SECRET_ARN", "HasSalesforceClientSecret", []string{"CrmSalesforceClientSecretArn"}},
	{"github.com/firmoapi/firmo/shared/secret/smsecret", smsecret.IAMActions, nil, "FIRMO_CRM_PIPEDRIVE_CLIENT_SECRET_ARN", "HasPipedriveClientSecret", []string{"CrmPipedriveClientSecretArn"}},
}

// grant is one action a role should have (from the code) or has (from the template),
// under a condition ("" = always).
type grant struct{ condition, action string }

func (g grant) String() string {
	if g.condition == "" {
		return g.action
	}
	return g.action + " (under " + g.condition + ")"
}

// TestTemplateGrantsWhatTheCodeCalls derives each function's permissions from its code:
// the adapters it links (go list -deps for the Lambda target) whose setting the template
// gives it, plus the SQS poller's actions for a function an event source mapping feeds.
// It fails when a function's code calls an action its role does not grant, when its role
// grants an action no code it runs calls, when a grant is not scoped to the resource the
// adapter acts on, when a policy is not an inline statement the test can read (a SAM
// policy template such as DynamoDBCrudPolicy, a managed policy), or when a linked package
// calls AWS without being in iamAdapters.
func TestTemplateGrantsWhatTheCodeCalls(t *testing.T) {
	tpl := loadTemplate(t)
	root := repoRoot(t)
	byPkg := map[string]int{}
	for i, a := range iamAdapters {
		byPkg[a.pkg] = i
	}
	pollers := eventSourceMappings(t, tpl)
	sourceCalls := map[string]awsiam.Calls{} // linked package -> what it calls, parsed once
	for _, fn := range tpl.functions() {
		t.Run(fn.id, func(t *testing.T) {
			dir := strings.ToLower(strings.TrimSuffix(fn.id, "Function"))
			linked := lambdaDeps(t, root, "./functions/"+dir)
			want := map[grant][]string{} // -> the template names its Resource must mention
			for pkg, p := range linked {
				if !p.callsAWS {
					continue
				}
				calls, ok := sourceCalls[pkg]
				if !ok {
					var err error
					if calls, err = awsiam.SourceCalls(p.dir); err != nil {
						t.Fatal(err)
					}
					sourceCalls[pkg] = calls
				}
				i, listed := byPkg[pkg]
				if !listed && len(calls) > 0 {
					t.Errorf("links %s, which calls %v: add it to iamAdapters with the IAMActions it lists", pkg, calls.Actions())
				}
				for _, action := range calls.Actions() {
					if listed && !slices.Contains(iamAdapters[i].actions, action) && !slices.Contains(iamAdapters[i].setup, action) {
						t.Errorf("%s calls %s (%s), which its iamAdapters entry does not list", pkg, action, strings.Join(calls[action], ", "))
					}
				}
			}
			used := map[string]bool{} // settings some linked adapter reads
			for _, a := range iamAdapters {
				if _, links := linked[a.pkg]; !links || tpl.envVar(fn, a.env) == nil {
					continue
				}
				used[a.env] = true
				for _, action := range a.actions {
					g := grant{a.condition, action}
					want[g] = append(want[g], a.resources...)
				}
			}
			for _, a := range iamAdapters {
				if tpl.envVar(fn, a.env) != nil && !used[a.env] {
					t.Errorf("sets %s, but links no adapter that reads it (%s): it and its grant would be unused", a.env, a.pkg)
					used[a.env] = true // once
				}
			}
			for _, queue := range pollers[fn.id] {
				for _, action := range sqsqueue.PollerIAMActions {
					want[grant{"", action}] = append(want[grant{"", action}], queue)
				}
			}
			got := roleGrants(t, fn)
			for _, g := range sortedGrants(want) {
				if _, ok := got[g]; !ok {
					t.Errorf("its code calls %s, which its role does not grant", g)
				}
			}
			for _, g := range sortedGrants(got) {
				names, ok := want[g]
				if !ok {
					t.Errorf("its role grants %s, which no code it runs calls", g)
					continue
				}
				for _, res := range got[g] {
					if !slices.ContainsFunc(names, func(n string) bool { return strings.Contains(res, n) }) {
						t.Errorf("grants %s on %s; want it scoped to %v", g, strings.TrimSpace(res), names)
					}
				}
			}
		})
	}
}

// roleGrants reads a function's Policies: each entry an inline {Statement: [...]},
// alone or as !If [Condition, {Statement: [...]}, !Ref AWS::NoValue]. It returns each
// action granted with the Resource texts it is granted on.
func roleGrants(t *testing.T, fn function) map[grant][]string {
	t.Helper()
	out := map[grant][]string{}
	pol := mapGet(fn.props, "Policies")
	if pol == nil {
		return out
	}
	if pol.Kind != yaml.SequenceNode {
		t.Fatalf("Policies is not a list")
	}
	for _, p := range pol.Content {
		cond, doc := "", p
		if p.Tag == "!If" && p.Kind == yaml.SequenceNode && len(p.Content) == 3 {
			cond, doc = scalar(p.Content[0]), p.Content[1]
			if refName(p.Content[2]) != "AWS::NoValue" {
				t.Errorf("policy !If [%s, ...]: the false branch must be !Ref AWS::NoValue", cond)
			}
		}
		statements := mapGet(doc, "Statement")
		if statements == nil || statements.Kind != yaml.SequenceNode {
			name := strings.TrimSpace(nodeText(doc))
			if doc.Kind == yaml.MappingNode && len(doc.Content) > 0 {
				name = doc.Content[0].Value
			}
			t.Errorf("policy %s is not an inline Statement list: the test cannot see what a SAM policy template (DynamoDBCrudPolicy grants every item action) or a managed policy grants", name)
			continue
		}
		for _, s := range statements.Content {
			if e := scalar(mapGet(s, "Effect")); e != "Allow" {
				t.Errorf("statement %s: Effect %q, want Allow", scalar(mapGet(s, "Sid")), e)
			}
			if mapGet(s, "NotAction") != nil || mapGet(s, "NotResource") != nil {
				t.Errorf("statement %s: NotAction/NotResource grant what is not listed", scalar(mapGet(s, "Sid")))
			}
			actions := scalars(mapGet(s, "Action"))
			if a := scalar(mapGet(s, "Action")); a != "" {
				actions = []string{a}
			}
			var resources []string
			res := mapGet(s, "Resource")
			if res != nil && res.Tag == "!If" && len(res.Content) == 3 {
				// a condition choosing the resource: each branch must be scoped
				resources = append(resources, nodeText(res.Content[1]), nodeText(res.Content[2]))
			} else if res != nil && res.Kind == yaml.SequenceNode {
				for _, r := range res.Content {
					resources = append(resources, nodeText(r))
				}
			} else {
				resources = append(resources, nodeText(res))
			}
			for _, r := range resources {
				if v := strings.Trim(r, "\"' \n"); v == "*" || v == "" {
					t.Errorf("statement %s: Resource %q; grant on the resource the code acts on", scalar(mapGet(s, "Sid")), v)
				}
			}
			for _, a := range actions {
				if strings.Contains(a, "*") {
					t.Errorf("statement %s: action %s is a wildcard; list what the code calls", scalar(mapGet(s, "Sid")), a)
				}
				g := grant{cond, a}
				out[g] = append(out[g], resources...)
			}
		}
	}
	return out
}

// eventSourceMappings lists, per function, the queues whose event source mapping
// delivers messages to it (Lambda's poller then uses the function's role).
func eventSourceMappings(t *testing.T, tpl *template) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for id, res := range pairs(tpl.resources) {
		if scalar(mapGet(res, "Type")) != "AWS::Lambda::EventSourceMapping" {
			continue
		}
		p := mapGet(res, "Properties")
		fn, queue := aliasedFunction(mapGet(p, "FunctionName")), getAttName(mapGet(p, "EventSourceArn"))
		if tpl.resourceType(fn) != "AWS::Serverless::Function" || tpl.resourceType(queue) != "AWS::SQS::Queue" {
			t.Fatalf("%s: FunctionName %q and EventSourceArn %q must name a function and a queue of the template", id, fn, queue)
		}
		out[fn] = append(out[fn], queue)
	}
	return out
}

// aliasedFunction is the function a FunctionName names: !Ref <Function>, or !Ref
// <Function>Aliaslive, the alias SAM makes for AutoPublishAlias: live (the mapping then
// calls the version the deployment shifted to).
func aliasedFunction(n *yaml.Node) string {
	return strings.TrimSuffix(refName(n), "Aliaslive")
}

func sortedGrants[V any](m map[grant]V) []grant {
	out := make([]grant, 0, len(m))
	for g := range m {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// linkedPackage is a package a function links: its source directory and whether it
// imports an AWS SDK service or the OpenSearch API (the only ways to call AWS).
type linkedPackage struct {
	dir      string
	callsAWS bool
}

// lambdaDeps lists the module's packages a function links, as `go build` for Lambda
// (linux/arm64, no cgo, lambda.norpc) sees them.
func lambdaDeps(t *testing.T, root, pkg string) map[string]linkedPackage {
	t.Helper()
	goCmd := "go"
	if _, err := exec.LookPath(goCmd); err != nil {
		goCmd = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	}
	cmd := exec.Command(goCmd, "list", "-deps", "-tags", "lambda.norpc", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .Imports \" \"}}", pkg)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH=arm64", "CGO_ENABLED=0")
	raw, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list -deps %s: %v\n%s", pkg, err, msg)
	}
	out := map[string]linkedPackage{}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 || !strings.HasPrefix(f[0], "github.com/firmoapi/firmo/") {
			continue
		}
		calls := false
		for _, imp := range strings.Fields(f[2]) {
			svc, ok := strings.CutPrefix(imp, "github.com/aws/aws-sdk-go-v2/service/")
			calls = calls || (ok && !strings.Contains(svc, "/")) || imp == "github.com/opensearch-project/opensearch-go/v4/opensearchapi"
		}
		out[f[0]] = linkedPackage{dir: f[1], callsAWS: calls}
	}
	if len(out) == 0 {
		t.Fatalf("go list -deps %s listed no package of the module", pkg)
	}
	return out
}

// TestTemplateSubmittersStartWorkflows: a family whose composer registers task kinds
// submits tasks from its routes, which starts a Step Functions execution, so its
// function needs FIRMO_STATE_MACHINE_ARN (and, through TestTemplateGrantsWhatTheCodeCalls,
// exactly sfnflow's actions); a function whose family submits nothing must not have it.
// Families are composed alone on the embedded backend, as TestEveryFamilyComposesAlone
// does; kinds are registered the same way on AWS.
func TestTemplateSubmittersStartWorkflows(t *testing.T) {
	tpl := loadTemplate(t)
	families := map[string]bool{}
	for _, c := range allapp.Families() {
		fam := string(c.Family())
		id := functionOf(fam)
		families[id] = true
		cfg, err := config.Load(func(k string) string { return map[string]string{"FIRMO_DATA_DIR": t.TempDir()}[k] })
		if err != nil {
			t.Fatal(err)
		}
		core, err := localbackend.Build(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), c)
		if err != nil {
			t.Fatal(err)
		}
		kinds := core.Tasks.Kinds().Names()
		core.Close()
		fn := function{id: id, props: mapGet(mapGet(tpl.resources, id), "Properties")}
		arn := tpl.envVar(fn, "FIRMO_STATE_MACHINE_ARN")
		switch {
		case len(kinds) > 0 && refName(arn) != "TaskStateMachine":
			t.Errorf("%s: the %s family submits tasks (%v) but FIRMO_STATE_MACHINE_ARN is %q, want !Ref TaskStateMachine", id, fam, kinds, strings.TrimSpace(nodeText(arn)))
		case len(kinds) == 0 && arn != nil:
			t.Errorf("%s: sets FIRMO_STATE_MACHINE_ARN, but the %s family submits no tasks", id, fam)
		}
	}
	// The functions that are not an HTTP family (worker, steps, scheduler) run tasks'
	// records and steps; none submits.
	for _, fn := range tpl.functions() {
		if !families[fn.id] && tpl.envVar(fn, "FIRMO_STATE_MACHINE_ARN") != nil {
			t.Errorf("%s: sets FIRMO_STATE_MACHINE_ARN, but it serves no family that submits tasks", fn.id)
		}
	}
}
