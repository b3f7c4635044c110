package secret

import (
	"bytes"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func testBox(t *testing.T) *Box {
	t.Helper()
	b, err := New(bytes.Repeat([]byte{7}, KeySize))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSealOpen(t *testing.T) {
	b := testBox(t)
	sealed, err := b.Seal("org1", "sk-live-abc123")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sealed, "sk-live-abc123") || strings.Contains(sealed, base64.StdEncoding.EncodeToString([]byte("sk-live-abc123"))) {
		t.Fatalf("sealed value shows the plaintext: %s", sealed)
	}
	got, err := b.Open("org1", sealed)
	if err != nil || got != "sk-live-abc123" {
		t.Fatalf("Open = %q, %v; want the plaintext", got, err)
	}
	again, _ := b.Seal("org1", "sk-live-abc123")
	if again == sealed {
		t.Fatal("two seals of one value are equal: nonce reused")
	}
}

func TestOpenRefuses(t *testing.T) {
	b := testBox(t)
	sealed, _ := b.Seal("org1", "k")
	other, _ := New(bytes.Repeat([]byte{8}, KeySize))
	tampered := []byte(sealed)
	tampered[len(tampered)-3] ^= 1
	cases := []struct {
		name, scope, sealed string
		box                 *Box
	}{
		{"other scope", "org2", sealed, b},
		{"other key", "org1", sealed, other},
		{"tampered", "org1", string(tampered), b},
		{"not sealed", "org1", "plain", b},
		{"short", "org1", "v1:AAAA", b},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := c.box.Open(c.scope, c.sealed); !errors.Is(err, ErrOpen) {
				t.Fatalf("Open err = %v, want ErrOpen", err)
			}
		})
	}
}

func TestLoadOrCreate(t *testing.T) {
	dir := t.TempDir()
	k1, err := LoadOrCreate("", dir)
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dir, "secret-key"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode = %v, want 0600", st.Mode().Perm())
	}
	k2, err := LoadOrCreate("", dir)
	if err != nil || !bytes.Equal(k1, k2) {
		t.Fatalf("second start got another key (err %v)", err)
	}
	env := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{1}, KeySize))
	k3, err := LoadOrCreate(env, dir)
	if err != nil || !bytes.Equal(k3, bytes.Repeat([]byte{1}, KeySize)) {
		t.Fatalf("configured key not used: %v", err)
	}
	if _, err := LoadOrCreate("c2hvcnQ=", dir); err == nil {
		t.Fatal("a short configured key was accepted")
	}
	if _, err := New(make([]byte, 16)); err == nil {
		t.Fatal("a 16-byte key was accepted")
	}
}
