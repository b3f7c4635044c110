package cli

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/firmoapi/firmo/shared/client"
	"github.com/firmoapi/firmo/shared/dataset"
	"github.com/firmoapi/firmo/shared/upload"
)

// listFlag is a repeatable flag whose values may also be comma-separated.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Type() string   { return "names" }
func (l *listFlag) Set(s string) error {
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			*l = append(*l, v)
		}
	}
	return nil
}

// DefaultChunk is how many rows one append request or email batch carries.
const DefaultChunk = 500

// appendJob runs `firmo append FILE --dataset ... --out OUT`. POST /v1/append answers
// at once, so the job sends the file in chunks and appends each chunk's rows to OUT,
// keeping its progress in OUT.firmo-state.json: after an interruption the same command
// resumes at the next chunk.
func appendJob(ctx context.Context, env Env) error {
	j := newJobFlags(env, "append", false)
	var datasets listFlag
	j.fs.Var(&datasets, "dataset", "dataset to append, repeatable or comma-separated: bizdata, domain_status, redirects, growth, vendors, subdomains")
	names := make([]string, len(dataset.All))
	for i, d := range dataset.All {
		names[i] = string(d)
	}
	flagValues(j.fs, "dataset", names...)
	domainCol := j.fs.String("domain_column", "", "column of domains (default: detected)")
	chunk := j.fs.Int("chunk-size", DefaultChunk, "rows per request")
	if err := j.parse(); err != nil {
		return err
	}
	if *j.out == "" {
		return fmt.Errorf("%w: firmo append needs --out FILE (it resumes from the file's state)", errUsage)
	}
	if len(datasets) == 0 {
		return fmt.Errorf("%w: --dataset is required", errUsage)
	}
	if *chunk < 1 || *chunk > 10_000 {
		return fmt.Errorf("%w: --chunk-size must be 1 to 10000", errUsage)
	}
	format, err := j.outputFormat()
	if err != nil {
		return err
	}
	di, err := j.column("domain_column", *domainCol, upload.Domain)
	if err != nil {
		return err
	}
	domainHeader := j.table.Header[di]
	hash := inputHash(j.fileData, "append", strings.Join(datasets, ","), domainHeader, fmt.Sprint(*chunk), format)
	fields := [][2]string{{"domain_column", domainHeader}}
	for _, d := range datasets {
		fields = append(fields, [2]string{"dataset", d})
	}
	if format == formatCSV {
		fields = append(fields, [2]string{"csv", "true"})
	}
	return runChunked(ctx, env, j, chunkJob{
		command: "append", hash: hash, chunk: *chunk, format: format,
		run: func(ctx context.Context, r *remote, st *chunkState, i int, from, to int, o *chunkOutput, _ func(int64)) error {
			body, ctype := multipartForm(csvName(j.file), csvBytes(j.table.Header, j.table.Rows[from:to]), fields)
			call := client.Call{Method: "POST", Path: "/v1/append", Body: body, ContentType: ctype}
			if format == formatCSV {
				call.Accept = "text/csv"
			}
			resp, err := r.do(ctx, call)
			if err != nil {
				return err
			}
			if format == formatJSON {
				var items []json.RawMessage
				if err := json.Unmarshal(resp.Body, &items); err != nil {
					return fmt.Errorf("append chunk %d: decode answer: %w", i+1, err)
				}
				return o.writeJSON(items)
			}
			recs, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(resp.Body, []byte("\xef\xbb\xbf")))).ReadAll()
			if err != nil || len(recs) == 0 {
				return fmt.Errorf("append chunk %d: read the CSV answer: %v", i+1, err)
			}
			if st.Header == nil {
				st.Header = recs[0]
			} else if !slices.Equal(st.Header, recs[0]) {
				return fmt.Errorf("append chunk %d: the answer's columns %v differ from the first chunk's %v", i+1, recs[0], st.Header)
			}
			return o.writeCSV(recs[0], recs[1:])
		},
	})
}

// chunkJob is a job sent chunk by chunk (append, email batch).
type chunkJob struct {
	command, hash, format string
	chunk                 int
	// run sends chunk i (rows [from, to)) and writes its output rows to o; setDone
	// reports rows of the chunk done so far (for the progress display).
	run func(ctx context.Context, r *remote, st *chunkState, i, from, to int, o *chunkOutput, setDone func(int64)) error
}

// runChunked runs job over j's rows, resuming from OUT's state when it has one.
func runChunked(ctx context.Context, env Env, j *jobFlags, job chunkJob) error {
	out := *j.out
	st, err := loadState(out, job.command, job.hash)
	if err != nil {
		return err
	}
	r, err := newRemote(env, j.client)
	if err != nil {
		return err
	}
	parts := chunks(len(j.table.Rows), job.chunk)
	if st == nil {
		st = &chunkState{Command: job.command, Input: job.hash, ChunkSize: job.chunk, Chunks: len(parts)}
		if err := st.save(out); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(env.Stderr, "resuming %s: %d of %d chunks done (%s)\n", job.command, st.Done, st.Chunks, statePath(out))
	}
	earlier := st.Credits
	defer func() {
		if earlier > 0 {
			fmt.Fprintf(env.Stderr, "credits charged: %d (%d with the earlier runs)\n", r.credits, earlier+r.credits)
		} else {
			fmt.Fprintf(env.Stderr, "credits charged: %d\n", r.credits)
		}
		if job.command == "email-batch" {
			emailBillingNote(env.Stderr)
		}
	}()
	o, err := openChunkOutput(out, job.format, st.OutBytes, st.Rows)
	if err != nil {
		return err
	}
	ctx, stop := interruptible(ctx)
	defer stop()
	m := j.meter(env)
	total := int64(len(j.table.Rows))
	rowsBefore := func(i int) int64 {
		if i >= len(parts) {
			return total
		}
		return int64(parts[i][0])
	}
	m.Set(rowsBefore(st.Done), total)
	for i := st.Done; i < len(parts); i++ {
		base := rowsBefore(i)
		err := job.run(ctx, r, st, i, parts[i][0], parts[i][1], o, func(n int64) { m.Set(base+n, total) })
		if err != nil {
			m.Finish()
			o.f.Close()
			st.Credits = earlier + r.credits
			_ = st.save(out)
			if ctx.Err() != nil {
				fmt.Fprintf(env.Stderr, "interrupted: %d of %d chunks of %s done, kept in %s\nresume with: %s\n",
					st.Done, len(parts), out, statePath(out), commandLine(env.program(), env.Args))
				return errInterrupted
			}
			if st.nothingKept() {
				// Nothing was done or submitted (a 422 on the first chunk, say): keep no
				// state or output that would stop the corrected command.
				_ = os.Remove(statePath(out))
				_ = os.Remove(out)
			}
			return err
		}
		size, err := o.size()
		if err != nil {
			o.f.Close()
			return err
		}
		st.Done, st.OutBytes, st.Rows, st.Credits = i+1, size, o.rows, earlier+r.credits
		if err := st.save(out); err != nil {
			o.f.Close()
			return err
		}
		m.Set(int64(parts[i][1]), total)
	}
	m.Finish()
	if err := o.finish(); err != nil {
		return err
	}
	if err := os.Remove(statePath(out)); err != nil {
		return err
	}
	fmt.Fprintf(env.Stderr, "wrote %d rows to %s\n", o.rows, out)
	sum := newSummary(len(j.table.Rows))
	sum.out = o.rows
	sum.print(env.Stderr)
	return nil
}

// commandLine is args as a shell command.
func commandLine(program string, args []string) string {
	parts := []string{shellQuote(program)}
	for _, a := range args {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}
