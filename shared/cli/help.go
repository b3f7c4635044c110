package cli

import (
	"fmt"
	"io"
	"strings"

	flag "github.com/spf13/pflag"
)

// commandHelp is a command's help page: its synopsis, what it does and examples; the
// flags come from its flag set.
type commandHelp struct {
	synopsis, about string
	examples        []string
}

// helps are the help pages by flag set name (the command's words after "firmo").
var helps = map[string]commandHelp{
	"serve": {"firmo serve", "Run the whole API on embedded storage under FIRMO_DATA_DIR (default ./data), on FIRMO_ADDR (default :8080). The first start loads the demo world and writes the demo key to data/demo-api-key.",
		[]string{"firmo serve", "FIRMO_ADDR=127.0.0.1:9090 FIRMO_DATA_DIR=/tmp/firmo firmo serve"}},
	"keys create": {"firmo keys create --org NAME [flags]", "Create the organisation if needed, a user and an API key; the key is printed once, on stdout.",
		[]string{"firmo keys create --org Acme --plan PRO", "KEY=$(firmo keys create --org Acme --role member)"}},
	"seed": {"firmo seed [flags]", "Load the deterministic demo world into the store, or write it as ingest files (--out).",
		[]string{"firmo seed --companies 500", "firmo seed --out /tmp/world"}},
	"ingest companies": {"firmo ingest companies FILE [flags]", "Load company rows (CSV with a header, or JSON Lines); bad rows are listed and skipped.", []string{"firmo ingest companies /tmp/world/companies.jsonl"}},
	"ingest certs":     {"firmo ingest certs FILE [flags]", "Load certificates (a PEM bundle, or JSON Lines).", []string{"firmo ingest certs /tmp/world/certs.jsonl"}},
	"ingest pages":     {"firmo ingest pages FILE [flags]", "Load pages (JSON Lines).", []string{"firmo ingest pages /tmp/world/pages.jsonl"}},
	"reindex-contacts": {"firmo reindex-contacts", "Write every stored contact to the OpenSearch contacts index at FIRMO_OPENSEARCH_URL, in batches of 500 (a backfill for contacts stored before the index was configured), then learn the email patterns from every address and publish one per domain for contact search's entries (run it again to refresh them).",
		[]string{"FIRMO_OPENSEARCH_URL=https://search.example.com firmo reindex-contacts"}},
	"icp-train": {"firmo icp-train (--truth | --org ORG_ID [--integration ID]) [flags]", "Train the native ICP-fit model (native-icp) and write its model file.",
		[]string{"firmo icp-train --truth --companies 2000"}},
	"mcp": {"firmo mcp [flags]", "Serve the Model Context Protocol on stdin and stdout: tools for AI agents over the API at FIRMO_URL.",
		[]string{"FIRMO_API_KEY=$(cat data/demo-api-key) firmo mcp"}},
	"login": {"firmo login [--profile NAME] [--url URL] [--key KEY]", "Check an API key against the server (GET /v1/account) and store it with the address in a profile of the config file (mode 0600). Without --key the key is read from stdin.",
		[]string{"firmo login < data/demo-api-key", "firmo login --profile prod --url https://api.example.com", "firmo login --list"}},
	"samples": {"firmo samples [--out DIR]", "Write the README's sample input files (companies.csv, companies.xlsx, domains.csv, names.csv) from the demo world.",
		[]string{"firmo samples", "firmo samples --out /tmp/samples"}},
	"api request": {"firmo api request METHOD PATH [flags]", "Call any operation of the API reference and print the answer as sent.",
		[]string{"firmo api request GET /v1/account", "firmo api request GET /v1/score --query domain=hansen.de", "firmo api request POST /v1/contacts/discover --body @query.json"}},
	"bulkmatch": {"firmo bulkmatch FILE [flags]", "Match a CSV or Excel file of company names (POST /v1/bulkmatch); one output row per input row, in input order.",
		[]string{"firmo bulkmatch data/samples/companies.csv --out matched.csv", "firmo bulkmatch names.xlsx --name_column Firma --country_column Land --format json"}},
	"segment": {"firmo segment FILE [flags]", "Segment the companies of a file's domain column (POST /v1/segment); one output row per input row, in input order.",
		[]string{"firmo segment data/samples/domains.csv --out segments.csv --max_segments 8"}},
	"research": {"firmo research FILE --prompt TEXT [flags]", "Batch research over a file's domains with your LLM integration (POST /v1/gen/process).",
		[]string{"firmo research data/samples/domains.csv --prompt 'What does the company sell?' --out research.csv"}},
	"validate-icp": {"firmo validate-icp FILE --icp TEXT [flags]", "ICP validation of a file's domains (POST /v1/validate/icp).",
		[]string{"firmo validate-icp data/samples/domains.csv --icp 'B2B software companies' --integration_id native-icp --out icp.csv"}},
	"append": {"firmo append FILE --dataset NAME[,NAME] --out OUT [flags]", "Append datasets to a file's domains, in chunks (POST /v1/append); running the same command again resumes at the next chunk.",
		[]string{"firmo append data/samples/domains.csv --dataset bizdata,growth --out appended.csv"}},
	"email-batch": {"firmo email-batch FILE --out OUT [flags]", "Find the work address of each row (first and last name, or name, and domain columns), in batches of 500.",
		[]string{"firmo email-batch people.csv --out emails.csv"}},
}

// printHelp prints the help page of the flag set's command: synopsis, about, examples
// and the flags.
func printHelp(w io.Writer, fs *flag.FlagSet) {
	if c, ok := w.(*flagCapture); ok {
		c.fs = fs // shell completion asks for the flags, not the page
		return
	}
	h, ok := helps[fs.Name()]
	if !ok && strings.HasPrefix(fs.Name(), "api ") {
		if cmd, found := findAPICommand(strings.TrimPrefix(fs.Name(), "api ")); found {
			arg := ""
			if cmd.positional != "" {
				arg = " [" + strings.ToUpper(cmd.positional) + "]"
			}
			h = commandHelp{synopsis: "firmo " + fs.Name() + arg + " [flags]",
				about:    fmt.Sprintf("%s %s; the flags are the API reference's parameters (repeat one for several values).", cmd.method, cmd.path),
				examples: apiExamples[cmd.name]}
			ok = true
		}
	}
	if !ok {
		h = commandHelp{synopsis: "firmo " + fs.Name() + " [flags]"}
	}
	fmt.Fprintf(w, "Usage: %s\n", h.synopsis)
	if h.about != "" {
		fmt.Fprintf(w, "\n%s\n", h.about)
	}
	if len(h.examples) > 0 {
		fmt.Fprintf(w, "\nExamples:\n")
		for _, e := range h.examples {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
	fmt.Fprintf(w, "\nFlags:\n%s", fs.FlagUsages())
	fmt.Fprintf(w, "\nExit codes: 0 done, 1 error, 2 usage error, 130 interrupted.\n")
}

var apiExamples = map[string][]string{
	"discover":   {"firmo api discover 'VP engineering at SaaS companies in Germany' --max_records 20 --table", "firmo api discover --filter_country DE --seniority executive"},
	"count":      {"firmo api count --filter_country DE --has_email"},
	"lookup":     {"firmo api lookup --email c.schulz@hansen.de"},
	"bizdata":    {"firmo api bizdata hansen.de", "firmo api bizdata https://www.hansen.de/kontakt --json", "firmo api bizdata hansen.de --json=name,employees,revenue_range"},
	"score":      {"firmo api score hansen.de --table"},
	"history":    {"firmo api history hansen.de --max_records 100"},
	"match":      {"firmo api match 'Hansen Bau' --country DE", "firmo api match 'Hansen Bau' --json=domain,match_confidence   # one object per candidate", "firmo api match 'Zzzyxq Nonexistent' --json   # {\"matches\":[]}"},
	"extract":    {"firmo api extract hansen.de", "firmo api extract https://hansen.de/ueber-uns/team"},
	"email-find": {"firmo api email-find --first_name Michael --last_name Weber --domain hansen.de"},
}
