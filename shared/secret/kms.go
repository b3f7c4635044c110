package secret

import (
	"context"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/kms"
	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"
	"github.com/aws/smithy-go"
	"golang.org/x/sync/singleflight"

	"github.com/firmoapi/firmo/shared/apperr"
)

// kmsPrefix marks a value sealed by an Envelope; Box values start with prefix ("v1:").
const kmsPrefix = "k1:"

// Decrypter is the part of the AWS KMS API an Envelope calls to open values. *kms.Client
// implements it.
type Decrypter interface {
	Decrypt(ctx context.Context, in *kms.DecryptInput, optFns ...func(*kms.Options)) (*kms.DecryptOutput, error)
}

// KMS is the part of the AWS KMS API a sealing and opening Envelope calls: Decrypt here,
// GenerateDataKey through KMSOptions.DataKeys (kmssecret.DataKeys). *kms.Client
// implements it; tests wrap one to count calls.
type KMS interface {
	Decrypter
	GenerateDataKey(ctx context.Context, in *kms.GenerateDataKeyInput, optFns ...func(*kms.Options)) (*kms.GenerateDataKeyOutput, error)
}

// DataKeys makes a fresh AES-256 data key under keyID, bound to encryptionContext: its
// plaintext and its encrypted form. kmssecret.DataKeys makes one that calls
// kms:GenerateDataKey; this package never calls it itself, so that a function which only
// opens values (linking this package and kmsopen, not kmssecret) is granted kms:Decrypt
// alone.
type DataKeys func(ctx context.Context, keyID string, encryptionContext map[string]string) (plaintext, encrypted []byte, err error)

// ErrOpenOnly is returned by Seal on an Envelope made without KMSOptions.DataKeys.
var ErrOpenOnly = &apperr.Error{Kind: apperr.ErrInternal, Message: "This function only opens stored secrets; it cannot seal new ones."}

// Defaults of KMSOptions.
const (
	// DefaultMaxKeyAge bounds how long a plaintext data key stays in memory, for
	// sealing and for opening. It limits what a memory disclosure of a warm Lambda
	// exposes, and it is how soon disabling the KMS key or revoking the function's
	// kms:GenerateDataKey / kms:Decrypt takes effect on a warm instance. At 15 minutes
	// a busy instance makes a handful of KMS calls an hour: seals are rare (a
	// configuration change), and opens reuse a data key for every value it sealed.
	DefaultMaxKeyAge = 15 * time.Minute
	// DefaultMaxSeals bounds the values one data key seals. Random 96-bit GCM nonces
	// stay safe for 2^32 messages per key (NIST SP 800-38D); 2^20 keeps the collision
	// chance negligible (below 2^-56) while a burst of seals still costs one KMS call
	// per million values.
	DefaultMaxSeals = 1 << 20
	// DefaultCacheSize bounds the decrypted data keys kept for opening. A deployment
	// makes a few data keys per instance per MaxKeyAge that sealed anything, so a
	// few hundred cover every value a warm instance reads.
	DefaultCacheSize = 256
	// DefaultCallTimeout bounds one KMS call, the SDK's own retries included. Seal and
	// Open take no context (their callers' contract), so this is their only deadline.
	DefaultCallTimeout = 10 * time.Second
)

// kmsRetryAfter is the hint given with a transient KMS failure (throttling, a network
// error, KMS's own 5xx), after the SDK's own retries failed.
const kmsRetryAfter = 2 * time.Second

// KMSOptions configure an Envelope. Client and KeyID are required.
type KMSOptions struct {
	// Client calls KMS's Decrypt (kms.NewFromConfig; a stand-in's endpoint in tests).
	Client Decrypter
	// DataKeys makes the data keys values are sealed with (kmssecret.DataKeys). Nil
	// makes an open-only Envelope: Seal returns ErrOpenOnly.
	DataKeys DataKeys
	// KeyID names the symmetric KMS key data keys are generated under: a key id, key
	// ARN, alias name or alias ARN. Opening needs no key id (the encrypted data key
	// names its KMS key), so values sealed before a key change stay readable while the
	// function may still decrypt with the old key.
	KeyID string
	// Local opens values sealed with the local key ("v1:", Box) before KMS was
	// configured; nil refuses them with ErrOpen.
	Local *Box
	// MaxKeyAge, MaxSeals, CacheSize and CallTimeout default to the Default* values.
	MaxKeyAge   time.Duration
	MaxSeals    int
	CacheSize   int
	CallTimeout time.Duration
	// Now is the clock (tests); time.Now by default.
	Now func() time.Time
}

// Envelope seals secrets with AES-256-GCM under KMS data keys (envelope encryption):
// the plaintext data key never leaves memory, and each sealed value carries the data
// key encrypted under the KMS key, so any instance allowed kms:Decrypt can open it.
// Nothing is called before the first Seal or Open. It is safe for concurrent use.
type Envelope struct {
	client Decrypter
	keyID  string
	local  *Box
	opts   KMSOptions

	// sealMu serializes taking the sealing key, so that concurrent first seals of a
	// cold instance share one GenerateDataKey call.
	sealMu  sync.Mutex
	sealing *dataKey

	mu     sync.Mutex
	opened map[string]*dataKey // by encrypted data key
	flight singleflight.Group  // one Decrypt per encrypted data key at a time
}

// dataKey is a plaintext data key ready to use (only as an AEAD) with its encrypted
// form as stored beside each value.
type dataKey struct {
	aead      cipher.AEAD
	encrypted []byte
	created   time.Time
	seals     int // guarded by Envelope.sealMu; counted on the sealing key only
}

// NewKMS returns an Envelope. It makes no call.
func NewKMS(o KMSOptions) (*Envelope, error) {
	if o.Client == nil {
		return nil, errors.New("secret: KMS client is required")
	}
	if strings.TrimSpace(o.KeyID) == "" {
		return nil, errors.New("secret: KMS key id is required")
	}
	if o.MaxKeyAge <= 0 {
		o.MaxKeyAge = DefaultMaxKeyAge
	}
	if o.MaxSeals <= 0 {
		o.MaxSeals = DefaultMaxSeals
	}
	if o.CacheSize <= 0 {
		o.CacheSize = DefaultCacheSize
	}
	if o.CallTimeout <= 0 {
		o.CallTimeout = DefaultCallTimeout
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Envelope{client: o.Client, keyID: strings.TrimSpace(o.KeyID), local: o.Local, opts: o, opened: map[string]*dataKey{}}, nil
}

// encryptionContext is sent with every GenerateDataKey and Decrypt: KMS binds it to
// the encrypted data key and logs it in CloudTrail, and a key policy can require it
// (kms:EncryptionContext:purpose), so the key's other users cannot have Firmo's data
// keys decrypted.
func encryptionContext() map[string]string {
	return map[string]string{"purpose": "firmo-secret"}
}

// Seal encrypts plaintext bound to scope under the current data key, generating one
// first when there is none or it is past its age or seal count.
func (e *Envelope) Seal(scope, plaintext string) (string, error) {
	k, err := e.sealingKey()
	if err != nil {
		return "", err
	}
	nonce := make([]byte, k.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("seal: %w", err)
	}
	out := make([]byte, 2, 2+len(k.encrypted)+len(nonce)+len(plaintext)+k.aead.Overhead())
	binary.BigEndian.PutUint16(out, uint16(len(k.encrypted)))
	out = append(out, k.encrypted...)
	out = append(out, nonce...)
	out = k.aead.Seal(out, nonce, []byte(plaintext), []byte(scope))
	return kmsPrefix + base64.StdEncoding.EncodeToString(out), nil
}

// Open decrypts a value sealed by any Envelope (under any data key this process may
// have KMS decrypt) or, with KMSOptions.Local, by the local Box.
func (e *Envelope) Open(scope, sealed string) (string, error) {
	if strings.HasPrefix(sealed, prefix) {
		if e.local == nil {
			return "", fmt.Errorf("%w: sealed with the local key (FIRMO_SECRET_KEY), which this process does not have", ErrOpen)
		}
		return e.local.Open(scope, sealed)
	}
	raw, ok := strings.CutPrefix(sealed, kmsPrefix)
	if !ok {
		return "", fmt.Errorf("%w: unknown format", ErrOpen)
	}
	data, err := base64.StdEncoding.DecodeString(raw)
	if err != nil || len(data) < 2 {
		return "", fmt.Errorf("%w: malformed", ErrOpen)
	}
	n := int(binary.BigEndian.Uint16(data))
	data = data[2:]
	// GCM with the standard nonce: 12 bytes of nonce, 16 of tag.
	const nonceSize, tagSize = 12, 16
	if n == 0 || len(data) < n+nonceSize+tagSize {
		return "", fmt.Errorf("%w: malformed", ErrOpen)
	}
	k, err := e.openingKey(data[:n])
	if err != nil {
		return "", err
	}
	data = data[n:]
	plain, err := k.aead.Open(nil, data[:nonceSize], data[nonceSize:], []byte(scope))
	if err != nil {
		return "", fmt.Errorf("%w: wrong scope, or altered", ErrOpen)
	}
	return string(plain), nil
}

// sealingKey returns the data key to seal with, counting the seal.
func (e *Envelope) sealingKey() (*dataKey, error) {
	e.sealMu.Lock()
	defer e.sealMu.Unlock()
	if k := e.sealing; k != nil && k.seals < e.opts.MaxSeals && e.fresh(k) {
		k.seals++
		return k, nil
	}
	k, err := e.generate()
	if err != nil {
		return nil, err
	}
	k.seals = 1
	e.sealing = k
	// What this instance seals it opens without asking KMS.
	e.remember(k)
	return k, nil
}

func (e *Envelope) generate() (*dataKey, error) {
	if e.opts.DataKeys == nil {
		return nil, ErrOpenOnly
	}
	ctx, cancel := context.WithTimeout(context.Background(), e.opts.CallTimeout)
	defer cancel()
	plaintext, encrypted, err := e.opts.DataKeys(ctx, e.keyID, encryptionContext())
	if err != nil {
		return nil, kmsError("GenerateDataKey", e.keyID, err)
	}
	defer clear(plaintext)
	if len(encrypted) == 0 || len(encrypted) > 0xFFFF {
		return nil, fmt.Errorf("kms GenerateDataKey: encrypted data key of %d bytes", len(encrypted))
	}
	aead, err := newAEAD(plaintext)
	if err != nil {
		return nil, fmt.Errorf("kms GenerateDataKey: data key: %w", err)
	}
	return &dataKey{aead: aead, encrypted: encrypted, created: e.opts.Now()}, nil
}

// openingKey returns the plaintext data key of an encrypted one: from the cache, or
// through one Decrypt shared by concurrent callers.
func (e *Envelope) openingKey(encrypted []byte) (*dataKey, error) {
	id := string(encrypted)
	e.mu.Lock()
	k := e.opened[id]
	e.mu.Unlock()
	if k != nil && e.fresh(k) {
		return k, nil
	}
	v, err, _ := e.flight.Do(id, func() (any, error) {
		ctx, cancel := context.WithTimeout(context.Background(), e.opts.CallTimeout)
		defer cancel()
		out, err := e.client.Decrypt(ctx, &kms.DecryptInput{
			CiphertextBlob:    encrypted,
			EncryptionContext: encryptionContext(),
		})
		if err != nil {
			return nil, kmsError("Decrypt", "", err)
		}
		defer clear(out.Plaintext)
		aead, err := newAEAD(out.Plaintext)
		if err != nil {
			return nil, fmt.Errorf("%w: the data key does not decrypt to an AES-256 key", ErrOpen)
		}
		k := &dataKey{aead: aead, encrypted: []byte(id), created: e.opts.Now()}
		e.remember(k)
		return k, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*dataKey), nil
}

// remember caches a plaintext data key for opening, making room by dropping the
// expired keys, then the oldest.
func (e *Envelope) remember(k *dataKey) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.opened) >= e.opts.CacheSize {
		var oldest string
		for id, c := range e.opened {
			if !e.fresh(c) {
				delete(e.opened, id)
			} else if oldest == "" || c.created.Before(e.opened[oldest].created) {
				oldest = id
			}
		}
		if len(e.opened) >= e.opts.CacheSize && oldest != "" {
			delete(e.opened, oldest)
		}
	}
	e.opened[string(k.encrypted)] = k
}

func (e *Envelope) fresh(k *dataKey) bool { return e.opts.Now().Sub(k.created) < e.opts.MaxKeyAge }

// kmsError classifies a failed KMS call: a ciphertext KMS refuses is a value that
// cannot be opened (ErrOpen); a key the function may not or cannot use is the
// deployment's fault (503 with a message for the operator); anything else (throttling,
// network, KMS's own failures) is transient (Retryable: 503 with Retry-After, and the
// task engine retries). KMS's error texts name no key material.
func kmsError(op, keyID string, err error) error {
	what := "kms " + op
	if keyID != "" {
		what += " with key " + keyID
	}
	var invalid *kmstypes.InvalidCiphertextException
	var incorrect *kmstypes.IncorrectKeyException
	if errors.As(err, &invalid) || errors.As(err, &incorrect) {
		return fmt.Errorf("%w: %s: %v", ErrOpen, what, err)
	}
	var api smithy.APIError
	if errors.As(err, &api) {
		switch api.ErrorCode() {
		case "AccessDeniedException", "NotFoundException", "DisabledException", "KMSInvalidStateException",
			"InvalidKeyUsageException", "InvalidArnException", "ValidationException", "UnrecognizedClientException":
			unusable := &apperr.Error{Kind: apperr.ErrUnavailable, RetryAfter: 30 * time.Second,
				Message: "Stored credentials cannot be sealed or opened: the deployment's KMS key is not usable (access, state or key id); the operator must fix FIRMO_KMS_KEY_ID or the function's KMS permissions."}
			return fmt.Errorf("%s: %w: %w", what, unusable, err)
		}
	}
	return apperr.Retryable(fmt.Errorf("%s: %w", what, err), kmsRetryAfter)
}
