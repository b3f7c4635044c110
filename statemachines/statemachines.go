// Package statemachines holds the Amazon States Language definitions deployed by
// template.yaml. They name their resources only as ${Placeholders}, which
// DefinitionSubstitutions fill at deploy time and Definition fills for tests.
package statemachines

import (
	"embed"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

//go:embed *.asl.json
var files embed.FS

var placeholder = regexp.MustCompile(`\$\{([A-Za-z0-9_]+)\}`)

// Names lists the state machines, by file name without ".asl.json".
func Names() []string {
	entries, _ := files.ReadDir(".")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".asl.json"))
	}
	return out
}

// Placeholders lists the ${Names} a definition needs, sorted.
func Placeholders(name string) ([]string, error) {
	raw, err := files.ReadFile(name + ".asl.json")
	if err != nil {
		return nil, fmt.Errorf("state machine %s: %w", name, err)
	}
	seen := map[string]bool{}
	for _, m := range placeholder.FindAllStringSubmatch(string(raw), -1) {
		seen[m[1]] = true
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out, nil
}

// Definition returns the named definition with its placeholders substituted, as
// DefinitionSubstitutions would. Every placeholder must have a value, and every value
// a placeholder, so a renamed placeholder cannot slip through.
func Definition(name string, subs map[string]string) (string, error) {
	raw, err := files.ReadFile(name + ".asl.json")
	if err != nil {
		return "", fmt.Errorf("state machine %s: %w", name, err)
	}
	used := map[string]bool{}
	var missing []string
	def := placeholder.ReplaceAllStringFunc(string(raw), func(m string) string {
		key := m[2 : len(m)-1]
		v, ok := subs[key]
		if !ok {
			if !used[key] {
				missing = append(missing, key)
			}
			used[key] = true
			return m
		}
		used[key] = true
		return v
	})
	if len(missing) > 0 {
		return "", fmt.Errorf("state machine %s: no value for ${%s}", name, strings.Join(missing, "}, ${"))
	}
	for k := range subs {
		if _, ok := used[k]; !ok {
			return "", fmt.Errorf("state machine %s: it has no ${%s}", name, k)
		}
	}
	return def, nil
}
