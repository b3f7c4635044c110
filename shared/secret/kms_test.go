package secret_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"
	"github.com/aws/smithy-go"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/secret"
	"github.com/firmoapi/firmo/shared/secret/kmssecret"
	"github.com/firmoapi/firmo/shared/secret/secrettest"
	"github.com/firmoapi/firmo/shared/testkit"
)

func TestBoxContract(t *testing.T) {
	key := bytes.Repeat([]byte{7}, secret.KeySize)
	secrettest.Run(t, func(t *testing.T) secrettest.Sealer {
		b, err := secret.New(key)
		if err != nil {
			t.Fatal(err)
		}
		return b
	})
}

// countingKMS wraps a KMS client and counts its calls, as a warm Lambda's would be.
type countingKMS struct {
	secret.KMS
	generates, decrypts atomic.Int64
}

func (c *countingKMS) GenerateDataKey(ctx context.Context, in *kms.GenerateDataKeyInput, optFns ...func(*kms.Options)) (*kms.GenerateDataKeyOutput, error) {
	c.generates.Add(1)
	return c.KMS.GenerateDataKey(ctx, in, optFns...)
}

func (c *countingKMS) Decrypt(ctx context.Context, in *kms.DecryptInput, optFns ...func(*kms.Options)) (*kms.DecryptOutput, error) {
	c.decrypts.Add(1)
	return c.KMS.Decrypt(ctx, in, optFns...)
}

// newEnvelope makes an Envelope that seals through kmssecret.DataKeys on the test's
// client.
func newEnvelope(t *testing.T, o secret.KMSOptions) *secret.Envelope {
	t.Helper()
	if c, ok := o.Client.(secret.KMS); ok && o.DataKeys == nil {
		o.DataKeys = kmssecret.DataKeys(c)
	}
	e, err := secret.NewKMS(o)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestKMSContract runs the sealer contract on the KMS envelope against local-kms, then
// what only envelope encryption promises: few KMS calls.
func TestKMSContract(t *testing.T) {
	k := testkit.LocalKMS(t)
	client := testkit.KMSClient(t, k.Endpoint)
	secrettest.Run(t, func(t *testing.T) secrettest.Sealer {
		return newEnvelope(t, secret.KMSOptions{Client: client, KeyID: k.Alias})
	})

	t.Run("data key reused across seals", func(t *testing.T) {
		warm := &countingKMS{KMS: client}
		e := newEnvelope(t, secret.KMSOptions{Client: warm, KeyID: k.KeyARN})
		var sealed []string
		for i := range 20 {
			s, err := e.Seal("org"+string(rune('a'+i)), "sk-"+strings.Repeat("k", i))
			if err != nil {
				t.Fatal(err)
			}
			sealed = append(sealed, s)
		}
		for i, s := range sealed {
			if got, err := e.Open("org"+string(rune('a'+i)), s); err != nil || got != "sk-"+strings.Repeat("k", i) {
				t.Fatalf("Open #%d = %q, %v", i, got, err)
			}
		}
		if g, d := warm.generates.Load(), warm.decrypts.Load(); g != 1 || d != 0 {
			t.Fatalf("20 seals and opens called GenerateDataKey %d and Decrypt %d times; want 1 and 0", g, d)
		}
		// A cold instance decrypts the shared data key once, however many values and
		// concurrent requests use it.
		cold := &countingKMS{KMS: client}
		e2 := newEnvelope(t, secret.KMSOptions{Client: cold, KeyID: k.KeyARN})
		var wg sync.WaitGroup
		for i, s := range sealed {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if got, err := e2.Open("org"+string(rune('a'+i)), s); err != nil || got != "sk-"+strings.Repeat("k", i) {
					t.Errorf("cold Open #%d = %q, %v", i, got, err)
				}
			}()
		}
		wg.Wait()
		if g, d := cold.generates.Load(), cold.decrypts.Load(); g != 0 || d != 1 {
			t.Fatalf("a cold instance's 20 opens called GenerateDataKey %d and Decrypt %d times; want 0 and 1", g, d)
		}
	})

	t.Run("data key bounded by seals and age", func(t *testing.T) {
		c := &countingKMS{KMS: client}
		now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		var mu sync.Mutex
		clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
		e := newEnvelope(t, secret.KMSOptions{Client: c, KeyID: k.KeyID, MaxSeals: 3, MaxKeyAge: time.Minute, Now: clock})
		var sealed []string
		for range 7 {
			s, err := e.Seal("org1", "v")
			if err != nil {
				t.Fatal(err)
			}
			sealed = append(sealed, s)
		}
		if got := c.generates.Load(); got != 3 {
			t.Fatalf("7 seals at 3 per data key made %d data keys, want 3", got)
		}
		mu.Lock()
		now = now.Add(2 * time.Minute)
		mu.Unlock()
		if _, err := e.Seal("org1", "v"); err != nil {
			t.Fatal(err)
		}
		if got := c.generates.Load(); got != 4 {
			t.Fatalf("a seal after MaxKeyAge reused the old data key (%d data keys)", got)
		}
		// Expired plaintext keys are decrypted again: 3 distinct data keys, 3 calls.
		for _, s := range sealed {
			if got, err := e.Open("org1", s); err != nil || got != "v" {
				t.Fatalf("Open = %q, %v", got, err)
			}
		}
		if got := c.decrypts.Load(); got != 3 {
			t.Fatalf("opening values of 3 expired data keys called Decrypt %d times, want 3", got)
		}
	})

	t.Run("open-only envelope opens and never generates", func(t *testing.T) {
		sealer := newEnvelope(t, secret.KMSOptions{Client: client, KeyID: k.KeyID})
		sealed, err := sealer.Seal("org1", "sk-open-only")
		if err != nil {
			t.Fatal(err)
		}
		c := &countingKMS{KMS: client}
		opener, err := secret.NewKMS(secret.KMSOptions{Client: c, KeyID: k.KeyID}) // no DataKeys
		if err != nil {
			t.Fatal(err)
		}
		if got, err := opener.Open("org1", sealed); err != nil || got != "sk-open-only" {
			t.Fatalf("open-only Open = %q, %v", got, err)
		}
		if got, err := opener.Seal("org1", "x"); !errors.Is(err, secret.ErrOpenOnly) || got != "" {
			t.Fatalf("open-only Seal = %q, %v; want ErrOpenOnly", got, err)
		}
		if g, d := c.generates.Load(), c.decrypts.Load(); g != 0 || d != 1 {
			t.Fatalf("open-only envelope called GenerateDataKey %d and Decrypt %d times; want 0 and 1", g, d)
		}
	})

	t.Run("tampered data key refused", func(t *testing.T) {
		e := newEnvelope(t, secret.KMSOptions{Client: client, KeyID: k.KeyID})
		sealed, err := e.Seal("org1", "sk-secret")
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(sealed, "k1:"))
		n := int(binary.BigEndian.Uint16(raw))
		raw[2+n-1] ^= 1 // the encrypted data key's last byte
		cold := newEnvelope(t, secret.KMSOptions{Client: client, KeyID: k.KeyID})
		got, err := cold.Open("org1", "k1:"+base64.StdEncoding.EncodeToString(raw))
		if !errors.Is(err, secret.ErrOpen) || got != "" {
			t.Fatalf("Open with a tampered data key = %q, %v; want ErrOpen", got, err)
		}
		if apperr.IsRetryable(err) {
			t.Fatal("a value that cannot be opened is marked retryable")
		}
	})

	t.Run("local values stay readable", func(t *testing.T) {
		box, err := secret.New(bytes.Repeat([]byte{9}, secret.KeySize))
		if err != nil {
			t.Fatal(err)
		}
		old, _ := box.Seal("org1", "sk-from-before-kms")
		e := newEnvelope(t, secret.KMSOptions{Client: client, KeyID: k.KeyID, Local: box})
		if got, err := e.Open("org1", old); err != nil || got != "sk-from-before-kms" {
			t.Fatalf("Open of a local value = %q, %v", got, err)
		}
		if got, err := e.Open("org2", old); !errors.Is(err, secret.ErrOpen) || got != "" {
			t.Fatalf("Open of a local value in another scope = %q, %v", got, err)
		}
		sealed, _ := e.Seal("org1", "sk-new")
		if !strings.HasPrefix(sealed, "k1:") {
			t.Fatalf("new values are not sealed with KMS: %.8s...", sealed)
		}
		noLocal := newEnvelope(t, secret.KMSOptions{Client: client, KeyID: k.KeyID})
		if _, err := noLocal.Open("org1", old); !errors.Is(err, secret.ErrOpen) || !strings.Contains(err.Error(), "FIRMO_SECRET_KEY") {
			t.Fatalf("Open of a local value without the local key = %v; want ErrOpen naming FIRMO_SECRET_KEY", err)
		}
		if _, err := box.Open("org1", sealed); !errors.Is(err, secret.ErrOpen) || !strings.Contains(err.Error(), "FIRMO_KMS_KEY_ID") {
			t.Fatalf("the local box opening a KMS value = %v; want ErrOpen naming FIRMO_KMS_KEY_ID", err)
		}
	})

	t.Run("unknown key is the deployment's fault", func(t *testing.T) {
		e := newEnvelope(t, secret.KMSOptions{Client: client, KeyID: "alias/does-not-exist"})
		_, err := e.Seal("org1", "sk")
		d := apperr.Describe(err)
		if d.Status != http.StatusServiceUnavailable || !strings.Contains(d.Message, "FIRMO_KMS_KEY_ID") || d.RetryAfter <= 0 {
			t.Fatalf("Seal under an unknown key: %v -> %+v; want 503 naming FIRMO_KMS_KEY_ID with Retry-After", err, d)
		}
	})
}

// TestKMSUnreachable: a KMS that does not answer is a transient 503 with Retry-After,
// and the sealer tries again on the next call.
func TestKMSUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + l.Addr().String()
	l.Close() // nothing listens there now
	client := kms.New(kms.Options{
		Region: testkit.StandinRegion, Credentials: credentials.NewStaticCredentialsProvider("x", "x", ""),
		BaseEndpoint: aws.String(endpoint), RetryMaxAttempts: 1,
	})
	e := newEnvelope(t, secret.KMSOptions{Client: client, KeyID: "alias/firmo", CallTimeout: 2 * time.Second})
	for range 2 {
		_, err := e.Seal("org1", "sk")
		d := apperr.Describe(err)
		if !apperr.IsRetryable(err) || d.Status != http.StatusServiceUnavailable || d.RetryAfter <= 0 {
			t.Fatalf("Seal with KMS down: %v -> %+v; want a retryable 503 with Retry-After", err, d)
		}
	}
}

// failingKMS answers every call with one error.
type failingKMS struct{ err error }

func (f failingKMS) GenerateDataKey(context.Context, *kms.GenerateDataKeyInput, ...func(*kms.Options)) (*kms.GenerateDataKeyOutput, error) {
	return nil, f.err
}

func (f failingKMS) Decrypt(context.Context, *kms.DecryptInput, ...func(*kms.Options)) (*kms.DecryptOutput, error) {
	return nil, f.err
}

// TestKMSErrorKinds classifies KMS's answers: throttling and KMS's own failures are
// retryable 503s, a key the function may not use a 503 for the operator, a refused
// ciphertext a value that cannot be opened.
func TestKMSErrorKinds(t *testing.T) {
	// A well-formed value whose data key the client is asked to decrypt.
	raw := append([]byte{0, 4}, []byte("edk!")...)
	raw = append(raw, make([]byte, 12+16+2)...)
	sealedElsewhere := "k1:" + base64.StdEncoding.EncodeToString(raw)
	cases := []struct {
		name      string
		err       error
		status    int
		retryable bool
		open      bool // ErrOpen on Open
	}{
		{"throttled", &smithy.GenericAPIError{Code: "ThrottlingException", Message: "Rate exceeded"}, 503, true, false},
		{"kms internal", &kmstypes.KMSInternalException{Message: aws.String("boom")}, 503, true, false},
		{"key unavailable", &kmstypes.KeyUnavailableException{Message: aws.String("try later")}, 503, true, false},
		{"access denied", &smithy.GenericAPIError{Code: "AccessDeniedException", Message: "not allowed"}, 503, true, false},
		{"disabled key", &kmstypes.DisabledException{Message: aws.String("disabled")}, 503, true, false},
		{"invalid ciphertext", &kmstypes.InvalidCiphertextException{Message: aws.String("bad")}, 500, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnvelope(t, secret.KMSOptions{Client: failingKMS{err: c.err}, KeyID: "alias/firmo"})
			_, err := e.Open("org1", sealedElsewhere)
			if got := apperr.Status(err); got != c.status {
				t.Fatalf("Open: %v -> status %d, want %d", err, got, c.status)
			}
			if apperr.IsRetryable(err) != c.retryable || errors.Is(err, secret.ErrOpen) != c.open {
				t.Fatalf("Open: %v: retryable %v, ErrOpen %v; want %v, %v", err, apperr.IsRetryable(err), errors.Is(err, secret.ErrOpen), c.retryable, c.open)
			}
			if !c.open {
				if _, err := e.Seal("org1", "sk"); apperr.Status(err) != c.status {
					t.Fatalf("Seal: %v, want status %d", err, c.status)
				}
			}
		})
	}
}

func TestNewKMSNeedsClientAndKey(t *testing.T) {
	if _, err := secret.NewKMS(secret.KMSOptions{KeyID: "alias/x"}); err == nil {
		t.Fatal("no client accepted")
	}
	if _, err := secret.NewKMS(secret.KMSOptions{Client: failingKMS{}, KeyID: " "}); err == nil {
		t.Fatal("blank key id accepted")
	}
}
