// Package mcpserver is Firmo's Model Context Protocol server (`firmo mcp`): tools an AI
// agent calls to search and count contacts, read a company's profile and score, match a
// company name, find a person's email address and read any task's status. Every tool is
// one or two calls of the Firmo API through shared/client, so the server answers exactly
// what the API answers and validates what the API validates: each input schema carries
// the API reference's enums, ranges and required fields, and whatever else the API
// refuses comes back as a tool error (IsError) naming the argument, never as a protocol
// failure. Answers are trimmed for an agent to read: counts, the first page of at most
// 25 rows with their main fields, the task id of long work, and a note saying how to get
// more when something was left out.
package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/firmoapi/firmo/shared/client"
)

// API is the part of the Firmo client the tools call; *client.Client implements it.
// Task status is read with Poll and Wait (one request a read, the status summarised)
// and decoded into the client's type of each kind.
type API interface {
	Bizdata(ctx context.Context, domain string) (*client.CompanyProfile, *client.Response, error)
	Score(ctx context.Context, domain string) (*client.CompanyScore, *client.Response, error)
	Match(ctx context.Context, p client.MatchParams) (*client.MatchAnswer, *client.Response, error)
	DiscoverContacts(ctx context.Context, search client.ContactSearch) (*client.ContactSearchResult, *client.Response, error)
	CountContacts(ctx context.Context, filters client.ContactFilters) (*client.ContactCount, *client.Response, error)
	FindEmail(ctx context.Context, req client.EmailFindRequest) (*client.EmailJobRef, *client.Response, error)
	Poll(ctx context.Context, statusPath string) (*client.TaskStatus, error)
	Wait(ctx context.Context, statusPath string, opts client.WaitOptions) (*client.TaskStatus, error)
}

var _ API = (*client.Client)(nil)

// Options configure a server.
type Options struct {
	// Version is reported to clients as the server implementation's version.
	Version string
	// Logger receives the SDK's log of the session (default: discarded).
	Logger *slog.Logger
}

// maxRows is the most rows (contacts, companies, matches, task results) a tool answer
// lists; the counts beside them say how many there were.
const maxRows = 25

// instructions tell the agent how the tools fit together.
const instructions = `Firmo is a B2B data API: company profiles and scores, contacts at companies, name matching and email finding.
- Start with count_contacts to size a contact search (free), then search_contacts for the people (billed per net-new contact and company).
- company_profile and company_score read one company by domain (free); match_company turns a company name into domains (billed per net-new company).
- find_email finds one person's work address (billed only when found); long work returns an id: read it with task_status.
Errors name the argument to fix; the API's own limits are in each tool's input schema.`

// New returns the MCP server with every Firmo tool, calling api.
func New(api API, opts Options) *mcp.Server {
	version := opts.Version
	if version == "" {
		version = "dev"
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "firmo", Title: "Firmo B2B data", Version: version},
		&mcp.ServerOptions{Instructions: instructions, Logger: log})
	t := &tools{api: api}
	t.addContactTools(s)
	t.addCompanyTools(s)
	t.addEmailTools(s)
	t.addTaskTools(s)
	return s
}

// Serve runs the server over r and w (a process's stdin and stdout) until the client
// closes r or ctx ends. A line that is not JSON is answered with a JSON-RPC parse
// error (-32700, id null) and the server goes on with the next line: the SDK's own
// reader would end the session on it.
func Serve(ctx context.Context, s *mcp.Server, r io.Reader, w io.Writer) error {
	out := &lockedWriter{w: w}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(filterLines(r, pw, out)) }()
	err := s.Run(ctx, &mcp.IOTransport{Reader: pr, Writer: nopWriteCloser{out}})
	pr.Close()
	if ctx.Err() != nil {
		return nil // interrupted: a normal end of a stdio server
	}
	return err
}

// maxLine bounds one message line; a longer one is answered as a parse error.
const maxLine = 32 << 20

// parseError is the JSON-RPC 2.0 answer to a message that is not JSON.
const parseError = `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error: the line is not a JSON value"}}` + "\n"

// filterLines copies the JSON lines of r to to (messages of the stdio transport are
// newline-delimited) and answers every other non-blank line on out with parseError.
func filterLines(r io.Reader, to io.Writer, out io.Writer) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, long, err := readLine(br)
		if t := bytes.TrimSpace(line); len(t) > 0 || long {
			if !long && json.Valid(t) {
				if _, werr := to.Write(append(t, '\n')); werr != nil {
					return werr
				}
			} else if _, werr := io.WriteString(out, parseError); werr != nil {
				return werr
			}
		}
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// readLine reads one line without its newline; long reports a line over maxLine,
// consumed and not kept.
func readLine(br *bufio.Reader) (line []byte, long bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !long && len(line)+len(chunk) <= maxLine {
			line = append(line, chunk...)
		} else {
			long, line = true, nil
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return line, long, err
	}
}

// lockedWriter serialises writes: the SDK writes each message in one Write, and the
// parse errors of filterLines go between them, never inside one.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// tools holds what every tool handler needs.
type tools struct {
	api API
}

// readOnly marks a tool that changes nothing the caller owns (it may still charge
// credits, which each description says).
func readOnly(title string) *mcp.ToolAnnotations {
	f := false
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &f}
}
