package account

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"math/big"
	"strings"

	"golang.org/x/crypto/argon2"
)

const (
	keyPrefix   = "fk_"
	alphabet    = "abcdefghijklmnopqrstuvwxyz0123456789"
	keyIDLen    = 10
	keySecretLn = 32
)

// randomString draws n characters of alphabet from r without modulo bias.
func randomString(r io.Reader, n int) (string, error) {
	var b strings.Builder
	max := big.NewInt(int64(len(alphabet)))
	for i := 0; i < n; i++ {
		v, err := rand.Int(r, max)
		if err != nil {
			return "", fmt.Errorf("random: %w", err)
		}
		b.WriteByte(alphabet[v.Int64()])
	}
	return b.String(), nil
}

// newKeySecret makes a key of the form fk_<id>_<secret>; its ID is fk_<id>.
func newKeySecret(r io.Reader) (id, secret string, err error) {
	idPart, err := randomString(r, keyIDLen)
	if err != nil {
		return "", "", err
	}
	sec, err := randomString(r, keySecretLn)
	if err != nil {
		return "", "", err
	}
	id = keyPrefix + idPart
	return id, id + "_" + sec, nil
}

// keyIDOf returns the ID of a key secret: its own prefix when it has Firmo's form,
// otherwise (an operator-chosen demo key) a prefix derived from its hash.
func keyIDOf(secret string) string {
	if strings.HasPrefix(secret, keyPrefix) && len(secret) == len(keyPrefix)+keyIDLen+1+keySecretLn && secret[len(keyPrefix)+keyIDLen] == '_' {
		return secret[:len(keyPrefix)+keyIDLen]
	}
	return keyPrefix + hashSecret(secret)[:keyIDLen]
}

func hashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

func newToken(r io.Reader) (string, error) {
	b := make([]byte, 32)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", fmt.Errorf("random: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// argon2id parameters (RFC 9106 second recommended option, lighter memory).
const (
	argonTime    = 3
	argonMemory  = 64 * 1024
	argonThreads = 2
	argonKeyLen  = 32
)

func hashPassword(r io.Reader, password string) (string, error) {
	salt := make([]byte, 16)
	if _, err := io.ReadFull(r, salt); err != nil {
		return "", fmt.Errorf("random: %w", err)
	}
	sum := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(sum)), nil
}

// PasswordHasher checks a password against a stored hash. Login calls it exactly once
// per attempt that is not refused beforehand, for unknown emails and password-less users
// too (against DummyHash), so every failure costs one full check.
type PasswordHasher interface {
	Verify(encoded, password string) bool
}

// DummyHash is an argon2id hash with the parameters of hashPassword that no password
// matches in practice: the hash a sign-in checks when there is no real one.
func DummyHash() string {
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g",
		argon2.Version, argonMemory, argonTime, argonThreads)
}

// argon2idHasher is the PasswordHasher of hashPassword's hashes.
type argon2idHasher struct{}

// Verify checks password against encoded. A hash it cannot read is answered false
// after a check against DummyHash, so it costs what a wrong password costs.
func (argon2idHasher) Verify(encoded, password string) bool {
	if ok, valid := checkPassword(encoded, password); valid {
		return ok
	}
	checkPassword(DummyHash(), password)
	return false
}

// checkPassword reports whether password matches encoded; valid is false when encoded
// is not an argon2id hash (nothing was computed then).
func checkPassword(encoded, password string) (ok, valid bool) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, false
	}
	var m uint32
	var t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil {
		return false, false
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(parts[4])
	want, err2 := base64.RawStdEncoding.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false, false
	}
	got := argon2.IDKey([]byte(password), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, true
}
