package statemachines

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/testkit"
)

// dummySubstitutions gives every placeholder a value of the right shape: function ARNs
// for *FunctionArn, other ARNs for *Arn, names otherwise.
func dummySubstitutions(t *testing.T, name string) map[string]string {
	t.Helper()
	keys, err := Placeholders(name)
	if err != nil {
		t.Fatal(err)
	}
	subs := map[string]string{}
	for _, k := range keys {
		switch {
		case strings.HasSuffix(k, "FunctionArn"):
			subs[k] = testkit.FunctionARN(strings.TrimSuffix(k, "Arn"))
		case strings.HasSuffix(k, "Arn"):
			subs[k] = "arn:aws:states:us-east-1:123456789012:" + k
		default:
			subs[k] = k
		}
	}
	return subs
}

// TestASLValid runs asl-validator 4.0.0 (JSON paths and ARNs checked) on every
// definition, placeholders filled as DefinitionSubstitutions would fill them.
func TestASLValid(t *testing.T) {
	validator := testkit.NodeTool(t, "asl-validator", "4.0.0", "asl-validator")
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(name + ".asl.json")
			if err != nil {
				t.Fatal(err)
			}
			// statemachines/README.md: ASL files hold no ARNs, only placeholders.
			if strings.Contains(string(raw), "arn:aws:lambda") || strings.Contains(string(raw), "arn:aws:sqs") {
				t.Errorf("%s.asl.json holds an ARN; use a ${Placeholder}", name)
			}
			def, err := Definition(name, dummySubstitutions(t, name))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), name+".asl.json")
			if err := os.WriteFile(path, []byte(def), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(validator, "--json-path", path).CombinedOutput()
			if err != nil {
				t.Fatalf("asl-validator: %v\n%s", err, out)
			}
		})
	}
}

func TestASLValidatorRejects(t *testing.T) {
	// The check above is only worth something if the validator fails bad definitions.
	validator := testkit.NodeTool(t, "asl-validator", "4.0.0", "asl-validator")
	for name, def := range map[string]string{
		"not an ARN":       `{"StartAt":"A","States":{"A":{"Type":"Task","Resource":"steps","End":true}}}`,
		"misspelled field": `{"StartAt":"A","States":{"A":{"Type":"Wait","SecondsPath":"$.x","Nextt":"B","End":true}}}`,
		"dangling Next":    `{"StartAt":"A","States":{"A":{"Type":"Pass","Next":"B"}}}`,
		"bad JSONPath":     `{"StartAt":"A","States":{"A":{"Type":"Pass","InputPath":"nope[","End":true}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad.asl.json")
			os.WriteFile(path, []byte(def), 0o644)
			if out, err := exec.Command(validator, "--json-path", path).CombinedOutput(); err == nil {
				t.Fatalf("asl-validator accepted %s:\n%s", def, out)
			}
		})
	}
}

func TestDefinition(t *testing.T) {
	arn := testkit.FunctionARN("steps")
	for _, tc := range []struct {
		name    string
		subs    map[string]string
		wantErr string
	}{
		{"all filled", map[string]string{"StepsFunctionArn": arn}, ""},
		{"missing", map[string]string{}, "no value for ${StepsFunctionArn}"},
		{"unknown", map[string]string{"StepsFunctionArn": arn, "Nope": "x"}, "has no ${Nope}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			def, err := Definition("task", tc.subs)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("got %v, want an error containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(def, "${") || !strings.Contains(def, arn) || !json.Valid([]byte(def)) {
				t.Fatalf("substituted definition is not the valid JSON expected:\n%s", def)
			}
		})
	}
}
