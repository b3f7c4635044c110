package cli

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// `firmo login < data/demo-api-key` reads the key without a prompt; on a terminal it
// prompts and the key typed is not echoed (read in a real pseudo-terminal).
func TestLoginReadsTheKeyWithoutEchoingIt(t *testing.T) {
	const key = "fk_abcdefghij_0123456789abcdef0123456789abcdef"
	var prompt strings.Builder
	got, err := readKey(strings.NewReader(key+"\n"), &prompt)
	if err != nil || got != key || prompt.Len() != 0 {
		t.Fatalf("from a file: key %q, err %v, prompt %q (want none)", got, err, prompt.String())
	}

	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer tty.Close()
	// Everything the terminal shows, read until the master is closed.
	var mu sync.Mutex
	var screen []byte
	readDone := make(chan struct{})
	go func() {
		defer close(readDone)
		buf := make([]byte, 4096)
		for {
			n, err := ptm.Read(buf)
			mu.Lock()
			screen = append(screen, buf[:n]...)
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	type result struct {
		key string
		err error
	}
	done := make(chan result, 1)
	var termPrompt strings.Builder
	go func() {
		k, err := readKey(tty, &termPrompt)
		done <- result{k, err}
	}()
	// Type the key once the terminal's echo is off (term.ReadPassword turns it off).
	deadline := time.Now().Add(10 * time.Second)
	for {
		tio, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
		if err != nil {
			t.Fatal(err)
		}
		if tio.Lflag&unix.ECHO == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the terminal's echo was never turned off")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := ptm.Write([]byte(key + "\n")); err != nil {
		t.Fatal(err)
	}
	var r result
	select {
	case r = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("readKey did not return")
	}
	if r.err != nil || r.key != key || !strings.Contains(termPrompt.String(), "API key") {
		t.Fatalf("from a terminal: key %q, err %v, prompt %q", r.key, r.err, termPrompt.String())
	}
	time.Sleep(200 * time.Millisecond)
	ptm.Close()
	select {
	case <-readDone:
	case <-time.After(time.Second): // a blocked read of the master may outlive Close
	}
	mu.Lock()
	defer mu.Unlock()
	if strings.Contains(string(screen), "fk_abcdefghij") {
		t.Fatalf("the key was echoed on the terminal: %q", screen)
	}
}
