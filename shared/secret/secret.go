// Package secret seals provider keys and tokens at rest with AES-256-GCM, the scope
// (the organisation id, or any caller-chosen scope) bound as additional data so that a
// sealed key copied to another organisation's record does not open.
//
// Two sealers share the Seal(scope, plaintext) / Open(scope, sealed) contract
// (secrettest runs it on both):
//
//   - Box, the local key: "v1:" + base64(nonce || ciphertext || tag) under one 32-byte
//     key from FIRMO_SECRET_KEY (base64) or, locally when unset, a key LoadOrCreate
//     generates into <data dir>/secret-key (mode 0600).
//   - Envelope, a KMS data key (on AWS, FIRMO_KMS_KEY_ID): "k1:" + base64(the encrypted
//     data key with its length || nonce || ciphertext || tag). The data key comes from
//     kms:GenerateDataKey on first use and is reused for a bounded time and number of
//     seals; Open asks kms:Decrypt for a value's data key once per process and caches
//     it. See kms.go.
package secret

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/firmoapi/firmo/shared/apperr"
)

// KeySize is the AES-256 key length in bytes.
const KeySize = 32

const prefix = "v1:"

// ErrOpen is returned when a sealed value cannot be opened: wrong key, wrong scope,
// tampering, or an unknown format. Retrying does not help (a 500); the client is told
// to store the secret again, and the wrapping error says why for the log. It never
// carries any part of the value.
var ErrOpen = &apperr.Error{Kind: apperr.ErrInternal, Message: "A stored secret cannot be decrypted (it was sealed under another key or scope, or altered); store it again."}

// Box seals and opens secrets with the local key. Callers declare the interface they
// consume (Seal, Open); Envelope is the other implementation.
type Box struct{ aead cipher.AEAD }

// New makes a Box from a 32-byte key.
func New(key []byte) (*Box, error) {
	aead, err := newAEAD(key)
	if err != nil {
		return nil, fmt.Errorf("secret key: %w", err)
	}
	return &Box{aead: aead}, nil
}

// newAEAD makes AES-256-GCM (12-byte random nonces, 16-byte tags) from a 32-byte key.
func newAEAD(key []byte) (cipher.AEAD, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("key must be %d bytes, got %d", KeySize, len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// ParseKey decodes a base64 (standard or URL, padded or not) 32-byte key.
func ParseKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			if len(b) != KeySize {
				return nil, fmt.Errorf("FIRMO_SECRET_KEY must decode to %d bytes, got %d", KeySize, len(b))
			}
			return b, nil
		}
	}
	return nil, errors.New("FIRMO_SECRET_KEY is not valid base64")
}

// LoadOrCreate returns the key from encoded when it is set; otherwise it reads
// <dir>/secret-key, creating it with a fresh random key (mode 0600) on first use.
func LoadOrCreate(encoded, dir string) ([]byte, error) {
	if strings.TrimSpace(encoded) != "" {
		return ParseKey(encoded)
	}
	path := filepath.Join(dir, "secret-key")
	if b, err := os.ReadFile(path); err == nil {
		return ParseKey(string(b))
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	key := make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("generate secret key: %w", err)
	}
	// O_EXCL: when two processes start at once, the loser reads the winner's key.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		b, rerr := os.ReadFile(path)
		if rerr != nil {
			return nil, fmt.Errorf("read %s: %w", path, rerr)
		}
		return ParseKey(string(b))
	}
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	_, werr := f.WriteString(base64.StdEncoding.EncodeToString(key) + "\n")
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return nil, fmt.Errorf("write %s: %w", path, werr)
	}
	return key, nil
}

// Seal encrypts plaintext bound to scope.
func (b *Box) Seal(scope, plaintext string) (string, error) {
	nonce := make([]byte, b.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("seal: %w", err)
	}
	out := b.aead.Seal(nonce, nonce, []byte(plaintext), []byte(scope))
	return prefix + base64.StdEncoding.EncodeToString(out), nil
}

// Open decrypts a value made by Seal with the same scope.
func (b *Box) Open(scope, sealed string) (string, error) {
	raw, ok := strings.CutPrefix(sealed, prefix)
	if !ok {
		if strings.HasPrefix(sealed, kmsPrefix) {
			return "", fmt.Errorf("%w: sealed with a KMS data key, and this process has no FIRMO_KMS_KEY_ID", ErrOpen)
		}
		return "", fmt.Errorf("%w: unknown format", ErrOpen)
	}
	data, err := base64.StdEncoding.DecodeString(raw)
	if err != nil || len(data) < b.aead.NonceSize()+b.aead.Overhead() {
		return "", fmt.Errorf("%w: malformed", ErrOpen)
	}
	n := b.aead.NonceSize()
	plain, err := b.aead.Open(nil, data[:n], data[n:], []byte(scope))
	if err != nil {
		return "", fmt.Errorf("%w: wrong key or scope, or altered", ErrOpen)
	}
	return string(plain), nil
}
