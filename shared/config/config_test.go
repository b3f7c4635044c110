package config

import (
	"log/slog"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) Getenv { return func(k string) string { return m[k] } }

func TestDefaults(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":8080" || c.DataDir != "./data" || c.Backend != BackendLocal || c.LogLevel != slog.LevelInfo || c.MaxBodyBytes != 1<<20 || c.AWS.Table != "firmo" || c.ShutdownWait != 15*time.Second {
		t.Errorf("defaults = %+v", c)
	}
}

func TestOverrides(t *testing.T) {
	c, err := Load(env(map[string]string{
		"FIRMO_ADDR": "127.0.0.1:9999", "FIRMO_BACKEND": "AWS", "FIRMO_LOG_LEVEL": "debug",
		"FIRMO_DYNAMODB_ENDPOINT": "http://127.0.0.1:4567", "FIRMO_DEMO_API_KEY": "demo-key-0123456789",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:9999" || c.Backend != BackendAWS || c.LogLevel != slog.LevelDebug || c.AWS.DynamoDBEndpoint != "http://127.0.0.1:4567" || c.DemoAPIKey != "demo-key-0123456789" {
		t.Errorf("got %+v", c)
	}
}

func TestEveryProblemListed(t *testing.T) {
	_, err := Load(env(map[string]string{
		"FIRMO_BACKEND":           "cloud",
		"FIRMO_MAX_BODY_BYTES":    "lots",
		"FIRMO_SHUTDOWN_TIMEOUT":  "-1s",
		"FIRMO_DYNAMODB_ENDPOINT": "localhost:4567",
		"FIRMO_DEMO_API_KEY":      "short",
		"FIRMO_LOG_LEVEL":         "loud",
	}))
	if err == nil {
		t.Fatal("want error")
	}
	for _, name := range []string{"FIRMO_BACKEND", "FIRMO_MAX_BODY_BYTES", "FIRMO_SHUTDOWN_TIMEOUT", "FIRMO_DYNAMODB_ENDPOINT", "FIRMO_DEMO_API_KEY", "FIRMO_LOG_LEVEL"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error does not name %s: %v", name, err)
		}
	}
}

func TestCompanySettings(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil || c.SeedCompanies != 2000 || c.ReprocessEvery != time.Hour {
		t.Fatalf("defaults: seed %d, reprocess %v, %v", c.SeedCompanies, c.ReprocessEvery, err)
	}
	c, err = Load(env(map[string]string{"FIRMO_SEED_COMPANIES": "0", "FIRMO_REPROCESS_INTERVAL": "10m"}))
	if err != nil || c.SeedCompanies != 0 || c.ReprocessEvery != 10*time.Minute {
		t.Fatalf("overrides: seed %d, reprocess %v, %v", c.SeedCompanies, c.ReprocessEvery, err)
	}
	_, err = Load(env(map[string]string{"FIRMO_SEED_COMPANIES": "-1", "FIRMO_REPROCESS_INTERVAL": "often"}))
	if err == nil || !strings.Contains(err.Error(), "FIRMO_SEED_COMPANIES") || !strings.Contains(err.Error(), "FIRMO_REPROCESS_INTERVAL") {
		t.Fatalf("bad values: %v", err)
	}
}

func TestBodyTimeout(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil || c.BodyTimeout != 30*time.Second {
		t.Fatalf("default: %v, %v", c.BodyTimeout, err)
	}
	if c, err = Load(env(map[string]string{"FIRMO_BODY_TIMEOUT": "2m"})); err != nil || c.BodyTimeout != 2*time.Minute {
		t.Fatalf("override: %v, %v", c.BodyTimeout, err)
	}
	if _, err = Load(env(map[string]string{"FIRMO_BODY_TIMEOUT": "0s"})); err == nil || !strings.Contains(err.Error(), "FIRMO_BODY_TIMEOUT") {
		t.Fatalf("zero: %v", err)
	}
}
