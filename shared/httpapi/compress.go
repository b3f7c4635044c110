package httpapi

import (
	"compress/gzip"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Responses are gzip-compressed when the client accepts it. The largest answers
// (contact search with 10,000 records: about 7 MB of JSON) shrink about eightfold,
// which is what lets them through Lambda's 6 MB response limit on AWS (see
// ResponseLimit), and saves bandwidth locally.

const (
	// compressMinBytes: a body under about one packet gains nothing from compression
	// worth the CPU and the gzip framing.
	compressMinBytes = 1400
	// compressLevel: on the largest contact-search answers, level 5 is within 3% of
	// level 6's size in 80% of its time (level 1: a third larger, twice as fast).
	compressLevel = 5
)

// gzipWriters reuses compressors: each holds about 1 MB of state.
var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(io.Discard, compressLevel)
	return w
}}

// compress gzips the response when the request accepts gzip, the body is at least
// compressMinBytes and of a textual type, and the handler did not encode it itself.
// Every response says Vary: Accept-Encoding, as its encoding depends on that header.
func compress(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		// A range addresses the identity bytes; a HEAD response has no body to encode.
		if r.Method == http.MethodHead || r.Header.Get("Range") != "" || !AcceptsGzip(r.Header) {
			next.ServeHTTP(w, r)
			return
		}
		cw := &compressWriter{ResponseWriter: w}
		next.ServeHTTP(cw, r)
		cw.finish()
	})
}

// AcceptsGzip reports whether a request's Accept-Encoding allows a gzip-encoded
// response (RFC 9110 12.5.3): gzip (or x-gzip, or *) with a q-value above 0 and not
// below the one identity (or *) is listed with. No header means identity only.
func AcceptsGzip(h http.Header) bool {
	gz, star, identity := -1.0, -1.0, -1.0
	for _, v := range h.Values("Accept-Encoding") {
		for _, item := range strings.Split(v, ",") {
			name, q, ok := codingQ(item)
			switch {
			case !ok:
			case name == "gzip" || name == "x-gzip":
				gz = max(gz, q)
			case name == "*":
				star = q
			case name == "identity":
				identity = q
			}
		}
	}
	if gz < 0 {
		gz = star
	}
	if identity < 0 {
		identity = star // identity stays acceptable when unlisted, but is preferred only when listed
	}
	return gz > 0 && gz >= identity
}

// codingQ parses one Accept-Encoding item ("gzip;q=0.8"); ok is false for an empty
// item or an unreadable q-value, which is then ignored.
func codingQ(item string) (name string, q float64, ok bool) {
	name, params, _ := strings.Cut(item, ";")
	name = strings.ToLower(strings.TrimSpace(name))
	if name == "" {
		return "", 0, false
	}
	q = 1
	for _, p := range strings.Split(params, ";") {
		k, v, _ := strings.Cut(p, "=")
		if !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || f < 0 || f > 1 {
			return "", 0, false
		}
		q = f
	}
	return name, q, true
}

// compressible reports whether a content type is text that gzip shrinks; images,
// archives and spreadsheets (zip inside) are compressed already.
func compressible(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	switch {
	case strings.HasPrefix(mt, "text/"), strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"):
		return true
	}
	switch mt {
	case "application/json", "application/x-ndjson", "application/javascript", "application/xml", "application/yaml":
		return true
	}
	return false
}

// compressWriter holds the status and the body's first bytes until it knows whether
// the body is worth compressing, then sends them gzipped or as they are.
type compressWriter struct {
	http.ResponseWriter
	status  int
	buf     []byte // the body's first bytes, until started
	started bool
	gz      *gzip.Writer // nil: identity
}

func (w *compressWriter) WriteHeader(code int) {
	if code >= 100 && code < 200 && code != http.StatusSwitchingProtocols {
		w.ResponseWriter.WriteHeader(code) // informational: goes at once, the final status follows
		return
	}
	if w.status == 0 {
		w.status = code
	}
}

func (w *compressWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if !w.started {
		if len(w.buf)+len(p) < compressMinBytes {
			w.buf = append(w.buf, p...)
			return len(p), nil
		}
		if err := w.start(true, p); err != nil {
			return 0, err
		}
	}
	if w.gz != nil {
		return w.gz.Write(p)
	}
	return w.ResponseWriter.Write(p)
}

// start chooses the encoding, sends the header and the buffered bytes. worth says the
// body is large (or streamed) enough to compress; next is the write that decided it,
// for sniffing a missing Content-Type.
func (w *compressWriter) start(worth bool, next []byte) error {
	w.started = true
	if w.status == 0 {
		w.status = http.StatusOK
	}
	h := w.Header()
	if h.Get("Content-Type") == "" && len(w.buf)+len(next) > 0 {
		// The gzip bytes would otherwise be what net/http sniffs.
		sample := w.buf
		if len(sample) == 0 {
			sample = next
		}
		h.Set("Content-Type", http.DetectContentType(sample))
	}
	if worth && bodyAllowed(w.status) && h.Get("Content-Encoding") == "" && compressible(h.Get("Content-Type")) {
		h.Del("Content-Length")
		h.Set("Content-Encoding", "gzip")
		if etag := h.Get("ETag"); etag != "" && !strings.HasPrefix(etag, "W/") {
			h.Set("ETag", "W/"+etag) // the encoded bytes differ from the identity ones
		}
		w.gz = gzipWriters.Get().(*gzip.Writer)
		w.gz.Reset(w.ResponseWriter)
	}
	w.ResponseWriter.WriteHeader(w.status)
	buf := w.buf
	w.buf = nil
	if len(buf) == 0 {
		return nil
	}
	var err error
	if w.gz != nil {
		_, err = w.gz.Write(buf)
	} else {
		_, err = w.ResponseWriter.Write(buf)
	}
	return err
}

// finish sends a body that stayed small as it is, or ends the gzip stream.
func (w *compressWriter) finish() {
	if !w.started {
		w.start(false, nil)
	}
	if w.gz != nil {
		w.gz.Close()
		w.gz.Reset(io.Discard) // drop the reference to the response writer
		gzipWriters.Put(w.gz)
		w.gz = nil
	}
}

// Flush sends what was written so far: a handler that flushes is streaming, so a body
// not yet started is compressed when it can be, whatever its size so far.
func (w *compressWriter) Flush() {
	if !w.started {
		w.start(true, nil)
	}
	if w.gz != nil {
		w.gz.Flush()
	}
	http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the underlying writer (deadlines).
func (w *compressWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// bodyAllowed reports whether a status may carry a body (not 204 or 304).
func bodyAllowed(status int) bool {
	return status != http.StatusNoContent && status != http.StatusNotModified
}
