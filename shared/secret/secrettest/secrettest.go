// Package secrettest is the contract test suite of the sealers in shared/secret: the
// local Box and the KMS Envelope both run it.
package secrettest

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/secret"
)

// Sealer is the port the services consume (integration.Sealer, websearch.Sealer).
type Sealer interface {
	Seal(scope, plaintext string) (string, error)
	Open(scope, sealed string) (string, error)
}

// Run runs the contract against sealers made by newSealer. Every call must return a
// fresh sealer over the same key material: a second process (a cold Lambda) must open
// what the first sealed.
func Run(t *testing.T, newSealer func(t *testing.T) Sealer) {
	t.Helper()
	const secretValue = "sk-live-TOPSECRET-0123456789"

	t.Run("round trip", func(t *testing.T) {
		s := newSealer(t)
		for _, plain := range []string{secretValue, "", strings.Repeat("x", 10_000), "ключ 🔑"} {
			sealed, err := s.Seal("org1", plain)
			if err != nil {
				t.Fatal(err)
			}
			if plain != "" && (strings.Contains(sealed, plain) || strings.Contains(sealed, base64.StdEncoding.EncodeToString([]byte(plain)))) {
				t.Fatalf("sealed value shows the plaintext: %s", sealed)
			}
			got, err := s.Open("org1", sealed)
			if err != nil || got != plain {
				t.Fatalf("Open = %q, %v; want the plaintext back", got, err)
			}
		}
		a, _ := s.Seal("org1", secretValue)
		b, _ := s.Seal("org1", secretValue)
		if a == b {
			t.Fatal("two seals of one value are equal: a nonce was reused")
		}
	})

	t.Run("scope mismatch refused", func(t *testing.T) {
		s := newSealer(t)
		sealed, err := s.Seal("org1", secretValue)
		if err != nil {
			t.Fatal(err)
		}
		for _, scope := range []string{"org2", "", "org1 ", "ORG1"} {
			got, err := s.Open(scope, sealed)
			checkRefused(t, got, err, secretValue)
		}
	})

	t.Run("tampered value refused", func(t *testing.T) {
		s := newSealer(t)
		sealed, err := s.Seal("org1", secretValue)
		if err != nil {
			t.Fatal(err)
		}
		prefix, body, _ := strings.Cut(sealed, ":")
		raw, err := base64.StdEncoding.DecodeString(body)
		if err != nil {
			t.Fatalf("sealed value is not <format>:<base64>: %v", err)
		}
		reencode := func(b []byte) string { return prefix + ":" + base64.StdEncoding.EncodeToString(b) }
		flip := func(i int) string {
			b := append([]byte(nil), raw...)
			b[i] ^= 0x01
			return reencode(b)
		}
		cases := map[string]string{
			"last byte (tag)":  flip(len(raw) - 1),
			"ciphertext":       flip(len(raw) - 17),
			"truncated":        reencode(raw[:len(raw)-1]),
			"extended":         reencode(append(append([]byte(nil), raw...), 0)),
			"no body":          prefix + ":",
			"not base64":       prefix + ":%%%",
			"unknown format":   "v9:" + body,
			"plaintext stored": secretValue,
		}
		for name, bad := range cases {
			t.Run(name, func(t *testing.T) {
				got, err := s.Open("org1", bad)
				checkRefused(t, got, err, secretValue)
			})
		}
	})

	t.Run("fresh sealer opens what another sealed", func(t *testing.T) {
		first, second := newSealer(t), newSealer(t)
		sealed, err := first.Seal("org1", secretValue)
		if err != nil {
			t.Fatal(err)
		}
		got, err := second.Open("org1", sealed)
		if err != nil || got != secretValue {
			t.Fatalf("a second sealer's Open = %q, %v; want the plaintext", got, err)
		}
		back, err := second.Seal("org1", secretValue+"-2")
		if err != nil {
			t.Fatal(err)
		}
		if got, err := first.Open("org1", back); err != nil || got != secretValue+"-2" {
			t.Fatalf("the first sealer's Open of the second's value = %q, %v", got, err)
		}
	})
}

// checkRefused fails unless Open refused with secret.ErrOpen and showed nothing of the
// plaintext.
func checkRefused(t *testing.T, got string, err error, plain string) {
	t.Helper()
	if !errors.Is(err, secret.ErrOpen) {
		t.Fatalf("Open err = %v, want secret.ErrOpen", err)
	}
	if got != "" || strings.Contains(err.Error(), plain) {
		t.Fatalf("a refused Open leaked the plaintext: %q, %v", got, err)
	}
}
