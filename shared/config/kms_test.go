package config

import (
	"strings"
	"testing"
)

func TestKMSSettings(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil || c.AWS.KMSKeyID != "" || c.AWS.KMSEndpoint != "" {
		t.Fatalf("defaults: KMS key %q, endpoint %q, %v; want none (the local key seals)", c.AWS.KMSKeyID, c.AWS.KMSEndpoint, err)
	}
	arn := "arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab"
	c, err = Load(env(map[string]string{"FIRMO_KMS_KEY_ID": " " + arn + " ", "FIRMO_KMS_ENDPOINT": "http://127.0.0.1:4599"}))
	if err != nil || c.AWS.KMSKeyID != arn || c.AWS.KMSEndpoint != "http://127.0.0.1:4599" {
		t.Fatalf("got %q, %q, %v", c.AWS.KMSKeyID, c.AWS.KMSEndpoint, err)
	}
	_, err = Load(env(map[string]string{"FIRMO_KMS_KEY_ID": "alias/a b", "FIRMO_KMS_ENDPOINT": "127.0.0.1:4599"}))
	if err == nil || !strings.Contains(err.Error(), "FIRMO_KMS_KEY_ID") || !strings.Contains(err.Error(), "FIRMO_KMS_ENDPOINT") {
		t.Fatalf("bad KMS settings: %v; want both named", err)
	}
}
