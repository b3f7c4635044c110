package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	flag "github.com/spf13/pflag"
	"math"
	"mime/multipart"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/firmoapi/firmo/shared/client"
	"github.com/firmoapi/firmo/shared/domain"
	"github.com/firmoapi/firmo/shared/progress"
	"github.com/firmoapi/firmo/shared/upload"
)

// errInterrupted ends a job stopped by Ctrl-C or SIGTERM (exit code 130); the server's
// task goes on and the job says how to resume it.
var errInterrupted = errors.New("interrupted")

// inputLimits bound the file a job reads. They are far above one request's limits:
// append and email batches send the file in chunks.
var inputLimits = upload.Limits{MaxBytes: 512 << 20, MaxRows: 5_000_000}

// jobFlags are the flags every file job takes.
type jobFlags struct {
	fs       *flag.FlagSet
	client   clientFlags
	out      *string
	format   *string
	every    *time.Duration
	resume   *string // task jobs only
	name     string
	args     []string
	file     string
	table    upload.Table
	fileData []byte
}

func newJobFlags(env Env, name string, task bool) *jobFlags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stdout) // only the help page (--help) is printed through it
	j := &jobFlags{fs: fs, name: name, args: env.Args}
	j.client = addClientFlags(fs)
	j.out = fs.String("out", "", "output file (default stdout for task jobs); .json writes JSON, anything else CSV")
	j.format = fs.String("format", "", "output format, csv or json (default from the --out extension, else csv)")
	flagValues(fs, "format", "csv", "json")
	j.every = fs.Duration("progress-interval", progress.DefaultInterval, "time between plain progress lines (when stderr is not a terminal)")
	if task {
		j.resume = fs.String("resume", "", "poll this task (printed when a run was interrupted) instead of submitting a new one")
	}
	return j
}

// parse parses the flags and reads the one input FILE.
func (j *jobFlags) parse() error {
	pos, err := parseArgs(j.fs, j.args[1:])
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("%w: firmo %s FILE [flags]: one input file, got %d arguments", errUsage, j.name, len(pos))
	}
	j.file = pos[0]
	if j.fileData, err = os.ReadFile(j.file); err != nil {
		return err
	}
	j.table, err = upload.Read(bytes.NewReader(j.fileData), filepath.Base(j.file), inputLimits)
	return err
}

func (j *jobFlags) outputFormat() (string, error) { return outputFormat(*j.format, *j.out) }

func (j *jobFlags) meter(env Env) *progress.Meter {
	return progress.NewMeter(env.Stderr, progress.MeterOptions{Label: j.name, Interval: *j.every})
}

// column is the index of the table's column named by flagValue, else the detected
// column of kind.
func (j *jobFlags) column(flagName, flagValue string, kind upload.ColumnKind) (int, error) {
	if flagValue != "" {
		for i, h := range j.table.Header {
			if strings.EqualFold(h, flagValue) {
				return i, nil
			}
		}
		return -1, fmt.Errorf("%w: --%s %q is not a column of %s (its columns are %s)", errUsage, flagName, flagValue, j.file, strings.Join(j.table.Header, ", "))
	}
	return upload.DetectColumn(j.table, kind)
}

// resumeCommand is the command line that resumes an interrupted task job: the same
// arguments with --resume TASK_ID.
func resumeCommand(program string, args []string, taskID string) string {
	var parts []string
	parts = append(parts, shellQuote(program))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--resume" || a == "-resume" {
			i++
			continue
		}
		if strings.HasPrefix(a, "--resume=") || strings.HasPrefix(a, "-resume=") {
			continue
		}
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(append(parts, "--resume", taskID), " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_./:=@%+-,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// interruptible is ctx ended by Ctrl-C or SIGTERM too.
func interruptible(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}

// writeOutput writes rows to --out (through a temporary file renamed into place) or
// to stdout.
func (j *jobFlags) writeOutput(env Env, format string, rows []object) error {
	if *j.out == "" {
		return writeRows(env.Stdout, format, rows)
	}
	tmp := *j.out + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := writeRows(f, format, rows); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, *j.out); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "wrote %d rows to %s\n", len(rows), *j.out)
	return nil
}

// taskJob is a file job the server runs as a task: submit once, poll its status
// route until it ends, write its results.
type taskJob struct {
	kind       string // printed with the task id
	statusPath func(taskID string) string
	// submit sends the file and answers the task id.
	submit func(ctx context.Context, r *remote) (string, error)
	// rows are the output rows of the ended task; they may count what they write in
	// sum (rows with a result, rows without one by reason).
	rows func(st *client.TaskStatus, sum *jobSummary) ([]object, error)
}

// runTask submits (or, with --resume, resumes) the task, shows its progress and
// writes its results.
func (j *jobFlags) runTask(ctx context.Context, env Env, job taskJob) error {
	format, err := j.outputFormat()
	if err != nil {
		return err
	}
	r, err := newRemote(env, j.client)
	if err != nil {
		return err
	}
	ctx, stop := interruptible(ctx)
	defer stop()
	defer func() { fmt.Fprintf(env.Stderr, "credits charged: %d\n", r.credits) }()
	id := *j.resume
	if id == "" {
		if id, err = job.submit(ctx, r); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "%s task %s submitted\n", job.kind, id)
	} else {
		fmt.Fprintf(env.Stderr, "resuming %s task %s\n", job.kind, id)
	}
	m := j.meter(env)
	st, err := r.wait(ctx, job.statusPath(url.PathEscape(id)), func(st *client.TaskStatus) {
		done, total := taskProgress(st)
		m.Set(done, total)
	})
	m.Finish()
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(env.Stderr, "interrupted: %s task %s keeps running on the server\nresume with: %s\n",
				job.kind, id, resumeCommand(env.program(), env.Args, id))
			return errInterrupted
		}
		return err
	}
	if st.Status != "completed" {
		var e struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		_ = st.Decode(&e)
		return fmt.Errorf("%s task %s ended %s: %s %s", job.kind, id, st.Status, e.Error.Code, e.Error.Message)
	}
	sum := newSummary(len(j.table.Rows))
	rows, err := job.rows(st, sum)
	if err != nil {
		return err
	}
	if err := j.writeOutput(env, format, rows); err != nil {
		return err
	}
	sum.out = len(rows)
	sum.print(env.Stderr)
	return nil
}

// taskProgress is records done and the total of a status answer: the total is the
// answer's total_rows or total_domains, done its share by progress (all of it once
// completed).
func taskProgress(st *client.TaskStatus) (int64, int64) {
	if st.Total > 0 {
		return int64(st.Done), int64(st.Total)
	}
	var head struct {
		TotalRows    *int64 `json:"total_rows"`
		TotalDomains *int64 `json:"total_domains"`
	}
	_ = st.Decode(&head)
	var total int64
	switch {
	case head.TotalRows != nil:
		total = *head.TotalRows
	case head.TotalDomains != nil:
		total = *head.TotalDomains
	}
	if st.Status == "completed" {
		return total, total
	}
	return int64(math.Floor(st.Progress * float64(total) / 100)), total
}

// csvBytes is header and rows as a UTF-8 CSV, what the upload routes read.
func csvBytes(header []string, rows [][]string) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write(header)
	_ = w.WriteAll(rows)
	return b.Bytes()
}

// multipartForm is a multipart body with the file part and fields (a field given
// several values is repeated).
func multipartForm(fileName string, file []byte, fields [][2]string) ([]byte, string) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for _, f := range fields {
		_ = w.WriteField(f[0], f[1])
	}
	part, _ := w.CreateFormFile("file", fileName)
	_, _ = part.Write(file)
	_ = w.Close()
	return b.Bytes(), w.FormDataContentType()
}

// taskID decodes a submit answer's task_id.
func taskID(resp *client.Response) (string, error) {
	var sub struct {
		TaskID string `json:"task_id"`
	}
	if err := resp.Decode(&sub); err != nil {
		return "", err
	}
	if sub.TaskID == "" {
		return "", fmt.Errorf("the answer has no task_id: %.200s", resp.Body)
	}
	return sub.TaskID, nil
}

// resultRows are the task answer's results array, as sent.
func resultRows(st *client.TaskStatus) ([]object, error) {
	top, err := decodeObject(st.Body)
	if err != nil {
		return nil, err
	}
	return decodeArray(top.get("results"))
}

// bulkmatchRows are a bulk match's results: one per input row, in input order, as the
// server sends them.
func bulkmatchRows(st *client.TaskStatus, sum *jobSummary) ([]object, error) {
	rows, err := resultRows(st)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if d := cellText(r.get("domain")); d != "" {
			sum.hit()
		} else {
			sum.miss("no match")
		}
	}
	return rows, nil
}

// bulkmatch runs `firmo bulkmatch FILE`.
func bulkmatch(ctx context.Context, env Env) error {
	j := newJobFlags(env, "bulkmatch", true)
	nameCol := j.fs.String("name_column", "", "column of company names (default: detected)")
	var cols []*string
	for _, c := range []string{"country_column", "state_column", "city_column", "zip_code_column", "phone_column"} {
		cols = append(cols, j.fs.String(c, "", "column of the "+strings.TrimSuffix(c, "_column")+" (optional)"))
	}
	minConf := j.fs.Int("min_match_confidence", 0, "50-100 (default the server's, 50)")
	strict := j.fs.Bool("strict", false, "strict matching")
	local := j.fs.Bool("local_mode", false, "local mode")
	if err := j.parse(); err != nil {
		return err
	}
	ni, err := j.column("name_column", *nameCol, upload.Name)
	if err != nil {
		return err
	}
	fields := [][2]string{{"name_column", j.table.Header[ni]}}
	for i, c := range []string{"country_column", "state_column", "city_column", "zip_code_column", "phone_column"} {
		if *cols[i] != "" {
			fields = append(fields, [2]string{c, *cols[i]})
		}
	}
	if *minConf != 0 {
		fields = append(fields, [2]string{"min_match_confidence", fmt.Sprint(*minConf)})
	}
	if *strict {
		fields = append(fields, [2]string{"strict", "true"})
	}
	if *local {
		fields = append(fields, [2]string{"local_mode", "true"})
	}
	return j.runTask(ctx, env, taskJob{
		kind:       "bulkmatch",
		statusPath: func(id string) string { return "/v1/bulkmatch/status/" + id },
		submit: func(ctx context.Context, r *remote) (string, error) {
			body, ctype := multipartForm(csvName(j.file), csvBytes(j.table.Header, j.table.Rows), fields)
			resp, err := r.do(ctx, client.Call{Method: "POST", Path: "/v1/bulkmatch", Body: body, ContentType: ctype})
			if err != nil {
				return "", err
			}
			return taskID(resp)
		},
		rows: bulkmatchRows,
	})
}

// segment runs `firmo segment FILE`.
func segment(ctx context.Context, env Env) error {
	j := newJobFlags(env, "segment", true)
	domainCol := j.fs.String("domain_column", "", "column of domains (default: detected)")
	maxSegments := j.fs.Int("max_segments", 0, "2-100: cap on the segments")
	if err := j.parse(); err != nil {
		return err
	}
	di, err := j.column("domain_column", *domainCol, upload.Domain)
	if err != nil {
		return err
	}
	fields := [][2]string{{"domain_column", j.table.Header[di]}}
	if *maxSegments != 0 {
		fields = append(fields, [2]string{"max_segments", fmt.Sprint(*maxSegments)})
	}
	return j.runTask(ctx, env, taskJob{
		kind:       "segment",
		statusPath: func(id string) string { return "/v1/segment/status/" + id },
		submit: func(ctx context.Context, r *remote) (string, error) {
			body, ctype := multipartForm(csvName(j.file), csvBytes(j.table.Header, j.table.Rows), fields)
			resp, err := r.do(ctx, client.Call{Method: "POST", Path: "/v1/segment", Body: body, ContentType: ctype})
			if err != nil {
				return "", err
			}
			return taskID(resp)
		},
		rows: func(st *client.TaskStatus, sum *jobSummary) ([]object, error) {
			return segmentRows(j.table, di, st, sum)
		},
	})
}

// segmentRows are a segmentation's results as one row per input row, in input order:
// the row's cells as input:<header>, its normalized domain, the company's profile and
// segment fields, and, for a row without them, omitted: why (not a domain, or closed
// or unknown to Firmo, which the task counts as omitted_closed and omitted_unindexed).
func segmentRows(t upload.Table, di int, st *client.TaskStatus, sum *jobSummary) ([]object, error) {
	top, err := decodeObject(st.Body)
	if err != nil {
		return nil, err
	}
	results, err := decodeArray(top.get("results"))
	if err != nil {
		return nil, err
	}
	byDomain := make(map[string]object, len(results))
	var cols []string
	for _, r := range results {
		d := cellText(r.get("domain"))
		byDomain[d] = r
		if cols == nil {
			for _, f := range r {
				if f.key != "domain" {
					cols = append(cols, f.key)
				}
			}
		}
	}
	var closed, unindexed int
	_ = json.Unmarshal(top.get("omitted_closed"), &closed)
	_ = json.Unmarshal(top.get("omitted_unindexed"), &unindexed)
	if closed+unindexed > 0 {
		sum.note = fmt.Sprintf("the task omitted %d closed and %d unknown companies", closed, unindexed)
	}
	rows := make([]object, len(t.Rows))
	for i, in := range t.Rows {
		row := inputFields(t.Header, in)
		d, derr := domain.Normalize(in[di])
		if derr != nil {
			d = ""
		}
		row = append(row, field{key: "domain", val: jsonString(d)})
		res, ok := byDomain[d]
		for _, c := range cols {
			row = append(row, field{key: c, val: res.get(c)})
		}
		why := ""
		switch {
		case d == "":
			why = "not a domain"
		case !ok:
			why = "closed or unknown to Firmo"
		}
		if why == "" {
			sum.hit()
			row = append(row, field{key: "omitted", val: nil})
		} else {
			sum.miss(why)
			row = append(row, field{key: "omitted", val: jsonString(why)})
		}
		rows[i] = row
	}
	return rows, nil
}

// research runs `firmo research FILE --prompt ...` (batch research, /v1/gen/process).
func research(ctx context.Context, env Env) error {
	j := newJobFlags(env, "research", true)
	domainCol := j.fs.String("domain_column", "", "column of domains (default: detected)")
	prompt := j.fs.String("prompt", "", "the prompt run per company (the API's query)")
	contextMode := j.fs.String("context_mode", "", "website, profile or domain")
	flagValues(j.fs, "context_mode", "website", "profile", "domain")
	integration := j.fs.String("integration_id", "", "LLM integration (default the organisation's)")
	webSearch := j.fs.Bool("web_search", false, "search the web per company")
	searchSize := j.fs.String("search_context_size", "", "low, medium or high")
	flagValues(j.fs, "search_context_size", "low", "medium", "high")
	typed := j.fs.Bool("typed_columns", false, "answer yes/no, fixed-set and scale parts with the typed-judgment integration")
	confidence := j.fs.Bool("include_confidence", false, "add a confidence column beside each typed column")
	if err := j.parse(); err != nil {
		return err
	}
	if strings.TrimSpace(*prompt) == "" {
		return fmt.Errorf("%w: --prompt is required", errUsage)
	}
	req := map[string]any{"query": *prompt}
	setIf(req, "context_mode", *contextMode)
	setIf(req, "integration_id", *integration)
	setIf(req, "search_context_size", *searchSize)
	if *webSearch {
		req["web_search"] = true
	}
	if *typed {
		req["typed_columns"] = true
	}
	if *confidence {
		req["include_confidence"] = true
	}
	return j.domainTask(ctx, env, "research", "/v1/gen/process", "domains", *domainCol, req)
}

// validateICP runs `firmo validate-icp FILE --icp ...` (/v1/validate/icp).
func validateICP(ctx context.Context, env Env) error {
	j := newJobFlags(env, "validate-icp", true)
	domainCol := j.fs.String("domain_column", "", "column of domains (default: detected)")
	icp := j.fs.String("icp", "", "the ideal customer profile (the API's icp_text)")
	contextMode := j.fs.String("context_mode", "", "website, profile or domain")
	flagValues(j.fs, "context_mode", "website", "profile", "domain")
	integration := j.fs.String("integration_id", "", "LLM integration, or native-icp (default the organisation's)")
	webSearch := j.fs.Bool("web_search", false, "two search queries per company")
	provider := j.fs.String("search_provider_id", "", "search provider (default the organisation's)")
	if err := j.parse(); err != nil {
		return err
	}
	if strings.TrimSpace(*icp) == "" {
		return fmt.Errorf("%w: --icp is required", errUsage)
	}
	req := map[string]any{"icp_text": *icp}
	setIf(req, "context_mode", *contextMode)
	setIf(req, "integration_id", *integration)
	setIf(req, "search_provider_id", *provider)
	if *webSearch {
		req["web_search"] = true
	}
	return j.domainTask(ctx, env, "validate-icp", "/v1/validate/icp", "domains", *domainCol, req)
}

func setIf(m map[string]any, k, v string) {
	if v != "" {
		m[k] = v
	}
}

// domainTask runs a /v1/gen task over the file's domains: req plus the normalized
// domains; the output is one row per input row, its columns as input:<header>, then
// domain and the task's result columns for that domain (empty for a row whose value is
// no domain).
func (j *jobFlags) domainTask(ctx context.Context, env Env, kind, path, domainsField, domainCol string, req map[string]any) error {
	di, err := j.column("domain_column", domainCol, upload.Domain)
	if err != nil {
		return err
	}
	norm := make([]string, len(j.table.Rows))
	var domains []string
	seen := map[string]bool{}
	for i, row := range j.table.Rows {
		d, err := domain.Normalize(row[di])
		if err != nil {
			continue
		}
		norm[i] = d
		if !seen[d] {
			seen[d] = true
			domains = append(domains, d)
		}
	}
	if len(domains) == 0 {
		return fmt.Errorf("%w: column %q of %s holds no domain", errUsage, j.table.Header[di], j.file)
	}
	req[domainsField] = domains
	return j.runTask(ctx, env, taskJob{
		kind:       kind,
		statusPath: func(id string) string { return "/v1/gen/status/" + id },
		submit: func(ctx context.Context, r *remote) (string, error) {
			resp, err := r.do(ctx, client.Call{Method: "POST", Path: path, JSON: req})
			if err != nil {
				return "", err
			}
			return taskID(resp)
		},
		rows: func(st *client.TaskStatus, sum *jobSummary) ([]object, error) {
			top, err := decodeObject(st.Body)
			if err != nil {
				return nil, err
			}
			results, _ := decodeObject(top.get("results"))
			byDomain := map[string]object{}
			var resultCols []string
			for _, f := range results {
				o, err := decodeObject(f.val)
				if err != nil {
					continue
				}
				byDomain[f.key] = o
				if resultCols == nil {
					resultCols = unionKeys([]object{o})
				}
			}
			rows := make([]object, len(j.table.Rows))
			for i, in := range j.table.Rows {
				row := inputFields(j.table.Header, in)
				row = append(row, field{key: "domain", val: jsonString(norm[i])})
				res, ok := byDomain[norm[i]]
				for _, c := range resultCols {
					row = append(row, field{key: c, val: res.get(c)})
				}
				switch {
				case norm[i] == "":
					sum.miss("not a domain")
				case !ok:
					sum.miss("no result in the task")
				default:
					sum.hit()
				}
				rows[i] = row
			}
			return rows, nil
		},
	})
}

// inputFields are an input row's cells as input:<header> fields.
func inputFields(header, row []string) object {
	o := make(object, 0, len(header)+8)
	for i, h := range header {
		o = append(o, field{key: "input:" + h, val: jsonString(row[i])})
	}
	return o
}

func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := jsonEncoder(&b)
	_ = enc.Encode(s)
	return bytes.TrimRight(b.Bytes(), "\n")
}

// csvName is the name the file is sent under: the CLI re-encodes every input (CSV in
// any encoding, or Excel) as UTF-8 CSV.
func csvName(file string) string {
	return strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)) + ".csv"
}
