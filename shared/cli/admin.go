package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/httpapi"
)

// adminSocket is the unix socket in the data dir on which `firmo serve` runs the
// `firmo keys` commands of its owner: the embedded store has one writer process, so
// while the server runs the command goes through it (mode 0600: only the user running
// the server can connect).
const adminSocket = "firmo.sock"

// The admin socket's operations (HTTP over the socket, JSON bodies).
const (
	adminCreateKey = "/keys/create"
	adminRevokeKey = "/keys/revoke"
)

// keyRequest is `firmo keys create`'s flags.
type keyRequest struct {
	Org     string       `json:"org"`
	Plan    account.Plan `json:"plan"`
	PlanSet bool         `json:"plan_set"` // --plan was given: say when an existing organisation keeps its own
	Role    account.Role `json:"role"`
	Email   string       `json:"email"`
	Name    string       `json:"name"`
}

// revokeRequest is `firmo keys revoke`'s argument.
type revokeRequest struct {
	KeyID string `json:"key_id"`
}

// keyResult is what a keys command did.
type keyResult struct {
	Secret      string       `json:"key,omitempty"`
	KeyID       string       `json:"key_id"`
	OrgID       string       `json:"org_id,omitempty"`
	OrgName     string       `json:"organization,omitempty"`
	Plan        account.Plan `json:"plan,omitempty"`
	PlanIgnored bool         `json:"plan_ignored,omitempty"`
	UserEmail   string       `json:"email,omitempty"`
	Role        account.Role `json:"role,omitempty"`
}

// adminCommand is one keys command: its operation and its request.
type adminCommand struct {
	path string
	in   any
}

// runAdmin runs a keys command on the account service.
func runAdmin(ctx context.Context, accounts *account.Service, cmd adminCommand) (keyResult, error) {
	switch in := cmd.in.(type) {
	case keyRequest:
		return createKey(ctx, accounts, in)
	case revokeRequest:
		k, err := accounts.RevokeKeyByID(ctx, in.KeyID)
		if err != nil {
			return keyResult{}, err
		}
		return keyResult{KeyID: k.ID}, nil
	}
	return keyResult{}, fmt.Errorf("admin command %s: unknown request %T", cmd.path, cmd.in)
}

// adminServer serves the admin socket.
type adminServer struct {
	ln  net.Listener
	srv *http.Server
}

// listenAdmin opens <dataDir>/firmo.sock for the keys commands. Without it (a data dir
// path too long for a socket, say) the server runs on and `firmo keys` needs it stopped,
// as the log says.
func listenAdmin(dataDir string, a *allapp.App, log *slog.Logger) *adminServer {
	path := filepath.Join(dataDir, adminSocket)
	// A socket left by a server that was killed: this process holds the store's lock,
	// so no other server is using it.
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		log.Warn("admin socket unavailable; stop firmo serve to run firmo keys", "path", path, "err", err)
		return nil
	}
	ln, err := net.Listen("unix", path)
	if err == nil {
		err = os.Chmod(path, 0o600)
		if err != nil {
			ln.Close()
		}
	}
	if err != nil {
		log.Warn("admin socket unavailable; stop firmo serve to run firmo keys", "path", path, "err", err)
		return nil
	}
	mux := http.NewServeMux()
	adminRoute[keyRequest](mux, adminCreateKey, a.Accounts, log)
	adminRoute[revokeRequest](mux, adminRevokeKey, a.Accounts, log)
	return &adminServer{ln: ln, srv: &http.Server{Handler: http.MaxBytesHandler(mux, 64<<10), ReadHeaderTimeout: 10 * time.Second}}
}

// adminRoute serves one keys command on the admin socket.
func adminRoute[T any](mux *http.ServeMux, path string, accounts *account.Service, log *slog.Logger) {
	mux.HandleFunc("POST "+path, func(w http.ResponseWriter, r *http.Request) {
		var in T
		if err := httpapi.DecodeJSON(r, &in); err != nil {
			httpapi.WriteError(w, r, log, err)
			return
		}
		out, err := runAdmin(r.Context(), accounts, adminCommand{path: path, in: in})
		if err != nil {
			httpapi.WriteError(w, r, log, err)
			return
		}
		log.Info("admin socket", "op", path, "key_id", out.KeyID)
		httpapi.WriteJSON(w, http.StatusOK, out)
	})
}

func (s *adminServer) serve() error {
	if err := s.srv.Serve(s.ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// close stops the socket and removes its file.
func (s *adminServer) close(ctx context.Context) {
	s.srv.Shutdown(ctx)
}

// callAdmin runs cmd through the admin socket of a `firmo serve` on dataDir. served is
// false when no server listens there: the caller then opens the store itself.
func callAdmin(ctx context.Context, dataDir string, cmd adminCommand, out *keyResult) (served bool, err error) {
	path := filepath.Join(dataDir, adminSocket)
	if _, err := os.Stat(path); err != nil {
		return false, nil
	}
	body, err := json.Marshal(cmd.in)
	if err != nil {
		return false, err
	}
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", path)
		},
	}}
	req, err := http.NewRequestWithContext(ctx, "POST", "http://firmo"+cmd.path, bytes.NewReader(body))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		// A socket file without a server (one killed with -9): the store is free.
		if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENOENT) {
			return false, nil
		}
		return false, fmt.Errorf("firmo serve's admin socket %s: %w", path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var eb httpapi.ErrorBody
		if err := json.NewDecoder(resp.Body).Decode(&eb); err != nil || eb.Error.Message == "" {
			return true, fmt.Errorf("firmo serve's admin socket answered %s", resp.Status)
		}
		return true, &apperr.Error{Kind: apperr.ErrBadRequest, Field: eb.Error.Field, Message: eb.Error.Message}
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return true, fmt.Errorf("firmo serve's admin socket: %w", err)
	}
	return true, nil
}
