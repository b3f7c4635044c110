package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/firmoapi/firmo/shared/csvsafe"
)

// chunkState is what a chunked job (append, email batch) keeps next to its output
// file, OUT.firmo-state.json, so an interrupted run resumes at the next chunk without
// sending (and paying for) a done chunk again. It is removed when the job completes.
type chunkState struct {
	Command string `json:"command"`
	// Input is the SHA-256 of the input file and of the options that shape the output;
	// a state for another input or other options is not resumed.
	Input     string `json:"input_sha256"`
	ChunkSize int    `json:"chunk_size"`
	Chunks    int    `json:"chunks"`
	Done      int    `json:"chunks_done"`
	// OutBytes is the output file's length after the done chunks: a resumed run cuts
	// off whatever an interrupted chunk wrote past it.
	OutBytes int64 `json:"out_bytes"`
	// Rows is how many output rows the done chunks wrote.
	Rows int `json:"rows_written"`
	// Credits is what the done chunks and earlier runs were charged.
	Credits int64 `json:"credits"`
	// Batches are the email batch ids submitted, by chunk: a resumed run polls a
	// submitted chunk's batch rather than submitting it again.
	Batches []string `json:"batch_ids,omitempty"`
	// Header is the CSV header the first chunk's answer wrote (append): every later
	// chunk's must be the same.
	Header []string `json:"csv_header,omitempty"`
}

// nothingKept reports whether the state holds no work: no chunk done, no email batch
// submitted, nothing charged.
func (st *chunkState) nothingKept() bool {
	return st.Done == 0 && st.Credits == 0 && st.OutBytes == 0 && !slices.ContainsFunc(st.Batches, func(b string) bool { return b != "" })
}

func statePath(out string) string { return out + ".firmo-state.json" }

// inputHash is the SHA-256 of data and parts.
func inputHash(data []byte, parts ...string) string {
	h := sha256.New()
	h.Write(data)
	for _, p := range parts {
		fmt.Fprintf(h, "\x00%s", p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// loadState reads out's state: nil when there is none. A state of another input is an
// error (the output file would be overwritten).
func loadState(out, command, hash string) (*chunkState, error) {
	raw, err := os.ReadFile(statePath(out))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var st chunkState
	if err := json.Unmarshal(raw, &st); err != nil {
		return nil, fmt.Errorf("read %s: %w (delete it to start over)", statePath(out), err)
	}
	if (st.Command != command || st.Input != hash) && st.nothingKept() {
		// A run that stopped before any chunk was done or submitted holds nothing to
		// resume: another command may start over.
		return nil, nil
	}
	if st.Command != command || st.Input != hash {
		return nil, fmt.Errorf("%w: %s holds an interrupted run of another input or other options; delete it (and %s) to start over",
			errUsage, statePath(out), out)
	}
	return &st, nil
}

// save writes the state through a temporary file renamed into place.
func (st *chunkState) save(out string) error {
	raw, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	tmp := statePath(out) + ".tmp"
	if err := os.WriteFile(tmp, raw, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, statePath(out))
}

// chunkOutput appends rows to a job's output file, chunk by chunk: CSV records under
// one header, or the elements of one JSON array (closed by finish).
type chunkOutput struct {
	f      *os.File
	format string
	rows   int // rows written so far (the JSON separator depends on it)
}

// openChunkOutput opens out for appending after the first size bytes (a fresh file
// when size is 0).
func openChunkOutput(out, format string, size int64, rows int) (*chunkOutput, error) {
	f, err := os.OpenFile(out, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(size); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(size, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return &chunkOutput{f: f, format: format, rows: rows}, nil
}

// size is the file's length so far.
func (o *chunkOutput) size() (int64, error) { return o.f.Seek(0, io.SeekCurrent) }

// writeCSV appends records, and header first when nothing was written yet.
func (o *chunkOutput) writeCSV(header []string, records [][]string) error {
	w := csvsafe.NewWriter(o.f) // cells from websites and uploads: no formulas
	if o.rows == 0 {
		if err := w.Write(header); err != nil {
			return err
		}
	}
	if err := w.WriteAll(records); err != nil {
		return err
	}
	o.rows += len(records)
	return nil
}

// writeJSON appends JSON objects to the array.
func (o *chunkOutput) writeJSON(items []json.RawMessage) error {
	var b strings.Builder
	for _, it := range items {
		if o.rows == 0 {
			b.WriteString("[\n")
		} else {
			b.WriteString(",\n")
		}
		b.Write(it)
		o.rows++
	}
	_, err := io.WriteString(o.f, b.String())
	return err
}

// writeObjects appends rows in the output's format (CSV under header).
func (o *chunkOutput) writeObjects(header []string, rows []object) error {
	if o.format == formatJSON {
		items := make([]json.RawMessage, len(rows))
		for i, r := range rows {
			var b bytes.Buffer
			r.marshal(&b)
			items[i] = b.Bytes()
		}
		return o.writeJSON(items)
	}
	recs := make([][]string, len(rows))
	for i, r := range rows {
		rec := make([]string, len(header))
		for k, h := range header {
			rec[k] = cellText(r.get(h))
		}
		recs[i] = rec
	}
	return o.writeCSV(header, recs)
}

// finish closes the JSON array and the file.
func (o *chunkOutput) finish() error {
	if o.format == formatJSON {
		end := "\n]\n"
		if o.rows == 0 {
			end = "[]\n"
		}
		if _, err := io.WriteString(o.f, end); err != nil {
			o.f.Close()
			return err
		}
	}
	return o.f.Close()
}

// chunks splits n rows into chunks of size: the half-open ranges [from, to).
func chunks(n, size int) [][2]int {
	var out [][2]int
	for from := 0; from < n; from += size {
		out = append(out, [2]int{from, min(from+size, n)})
	}
	return out
}
