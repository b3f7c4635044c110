package testkit

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"
)

// TestLocalKMS starts the stand-in and makes a data key under the seeded key, by its
// id, ARN and alias, and has it decrypted again, with an encryption context as
// shared/secret sends one.
func TestLocalKMS(t *testing.T) {
	k := LocalKMS(t)
	c := KMSClient(t, k.Endpoint)
	ctx := context.Background()
	ec := map[string]string{"purpose": "test"}
	for _, id := range []string{k.KeyID, k.KeyARN, k.Alias} {
		gen, err := c.GenerateDataKey(ctx, &kms.GenerateDataKeyInput{KeyId: aws.String(id), KeySpec: kmstypes.DataKeySpecAes256, EncryptionContext: ec})
		if err != nil {
			t.Fatalf("GenerateDataKey(%s): %v", id, err)
		}
		if len(gen.Plaintext) != 32 || len(gen.CiphertextBlob) == 0 || aws.ToString(gen.KeyId) != k.KeyARN {
			t.Fatalf("GenerateDataKey(%s) = %d-byte key, %d-byte blob, key %s", id, len(gen.Plaintext), len(gen.CiphertextBlob), aws.ToString(gen.KeyId))
		}
		dec, err := c.Decrypt(ctx, &kms.DecryptInput{CiphertextBlob: gen.CiphertextBlob, EncryptionContext: ec})
		if err != nil || !bytes.Equal(dec.Plaintext, gen.Plaintext) {
			t.Fatalf("Decrypt = %v; want the data key back", err)
		}
		if _, err := c.Decrypt(ctx, &kms.DecryptInput{CiphertextBlob: gen.CiphertextBlob}); err == nil {
			t.Fatal("Decrypt without the encryption context succeeded")
		}
	}
}

// TestMakefilePinsLocalKMS keeps `make tools` building the version the test kit runs.
func TestMakefilePinsLocalKMS(t *testing.T) {
	raw, err := os.ReadFile(repoFile(t, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	mk := string(raw)
	if !strings.Contains(mk, "LOCAL_KMS_VERSION := "+LocalKMSVersion) || !strings.Contains(mk, LocalKMSModule+"@$(LOCAL_KMS_VERSION)") {
		t.Fatalf("the Makefile's tools target does not install %s@%s", LocalKMSModule, LocalKMSVersion)
	}
	if !strings.Contains(mk, ".tools/go/local-kms-$(LOCAL_KMS_VERSION)/local-kms") && !strings.Contains(mk, "$(TOOLS)/go/local-kms-$(LOCAL_KMS_VERSION)/local-kms") {
		t.Fatal("the Makefile installs local-kms elsewhere than GoToolPath")
	}
}
