package config

import (
	"strings"
	"testing"
)

func TestOpenSearchSettings(t *testing.T) {
	dc := ContactIndex{Engine: "faiss", Replicas: -1} // unset: the adapter's defaults
	cases := []settingCase[OpenSearch]{
		{name: "none configured", env: nil,
			want: OpenSearch{ContactsIndex: "contacts", NamesIndex: "company-names", Contacts: dc}},
		{name: "sigv4 with AWS_REGION", env: map[string]string{"FIRMO_OPENSEARCH_URL": "https://search-firmo-abc.eu-west-1.es.amazonaws.com/", "FIRMO_OPENSEARCH_AUTH": "SigV4", "AWS_REGION": "eu-central-1"},
			want: OpenSearch{URL: "https://search-firmo-abc.eu-west-1.es.amazonaws.com", Auth: "sigv4", Region: "eu-central-1", ContactsIndex: "contacts", NamesIndex: "company-names", Contacts: dc}},
		{name: "sigv4 region from the endpoint", env: map[string]string{"FIRMO_OPENSEARCH_URL": "https://search-firmo-abc.eu-west-1.es.amazonaws.com", "FIRMO_OPENSEARCH_AUTH": "sigv4"},
			want: OpenSearch{URL: "https://search-firmo-abc.eu-west-1.es.amazonaws.com", Auth: "sigv4", Region: "eu-west-1", ContactsIndex: "contacts", NamesIndex: "company-names", Contacts: dc}},
		{name: "sigv4 without any region", env: map[string]string{"FIRMO_OPENSEARCH_URL": "https://os.example.com", "FIRMO_OPENSEARCH_AUTH": "sigv4"},
			wantErr: "AWS_REGION"},
		{name: "basic from userinfo by default", env: map[string]string{"FIRMO_OPENSEARCH_URL": "https://admin:s3cret@os.example.com:9200", "FIRMO_OPENSEARCH_NAMES_INDEX": "names-v2", "FIRMO_OPENSEARCH_CONTACTS_INDEX": "contacts-384"},
			want: OpenSearch{URL: "https://os.example.com:9200", Auth: "basic", Username: "admin", Password: "s3cret", ContactsIndex: "contacts-384", NamesIndex: "names-v2", Contacts: dc}},
		{name: "basic without a password", env: map[string]string{"FIRMO_OPENSEARCH_URL": "https://os.example.com", "FIRMO_OPENSEARCH_AUTH": "basic"},
			wantErr: "FIRMO_OPENSEARCH_URL"},
		{name: "credentials with auth none", env: map[string]string{"FIRMO_OPENSEARCH_URL": "https://admin:s3cret@os.example.com", "FIRMO_OPENSEARCH_AUTH": "none"},
			wantErr: "FIRMO_OPENSEARCH_URL"},
		{name: "credentials with sigv4", env: map[string]string{"FIRMO_OPENSEARCH_URL": "https://admin:s3cret@search-x-1.eu-west-1.es.amazonaws.com", "FIRMO_OPENSEARCH_AUTH": "sigv4"},
			wantErr: "FIRMO_OPENSEARCH_URL"},
		{name: "unparsable URL", env: map[string]string{"FIRMO_OPENSEARCH_URL": "https://admin:s3cret@os.example.com:port"},
			wantErr: "FIRMO_OPENSEARCH_URL"},
		{name: "plain http on loopback", env: map[string]string{"FIRMO_OPENSEARCH_URL": "http://127.0.0.1:9200"},
			want: OpenSearch{URL: "http://127.0.0.1:9200", Auth: "none", ContactsIndex: "contacts", NamesIndex: "company-names", Contacts: dc}},
		{name: "plain http elsewhere", env: map[string]string{"FIRMO_OPENSEARCH_URL": "http://os.example.com:9200"},
			wantErr: "FIRMO_OPENSEARCH_URL"},
		{name: "a path is not an endpoint", env: map[string]string{"FIRMO_OPENSEARCH_URL": "https://os.example.com/contacts"},
			wantErr: "FIRMO_OPENSEARCH_URL"},
		{name: "unknown auth", env: map[string]string{"FIRMO_OPENSEARCH_URL": "https://os.example.com", "FIRMO_OPENSEARCH_AUTH": "kerberos"},
			wantErr: "FIRMO_OPENSEARCH_AUTH"},
		{name: "bad index name", env: map[string]string{"FIRMO_OPENSEARCH_CONTACTS_INDEX": "Contacts"},
			wantErr: "FIRMO_OPENSEARCH_CONTACTS_INDEX"},
		{name: "index name with a leading underscore", env: map[string]string{"FIRMO_OPENSEARCH_NAMES_INDEX": "_names"},
			wantErr: "FIRMO_OPENSEARCH_NAMES_INDEX"},
	}
	runSettings(t, cases, func(c Config) OpenSearch { return c.OpenSearch }, "s3cret")
}

func TestEmbedderSettings(t *testing.T) {
	openai := map[string]string{"FIRMO_EMBEDDER": "openai", "FIRMO_EMBED_BASE_URL": "https://api.openai.com/v1",
		"FIRMO_EMBED_MODEL": "text-embedding-3-small", "FIRMO_EMBED_DIMS": "512", "FIRMO_EMBED_SEND_DIMENSIONS": "true", "FIRMO_EMBED_API_KEY": "sk-test"}
	without := func(name string) map[string]string {
		m := map[string]string{}
		for k, v := range openai {
			if k != name {
				m[k] = v
			}
		}
		return m
	}
	const smARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:firmo/embed-api-key-AbCdEf"
	withSecret := func(env map[string]string, arn string) map[string]string {
		m := map[string]string{"FIRMO_EMBED_API_KEY_SECRET_ARN": arn}
		for k, v := range env {
			m[k] = v
		}
		return m
	}
	cases := []settingCase[Embedder]{
		{name: "builtin by default", want: Embedder{Kind: "builtin"}},
		{name: "openai", env: openai, want: Embedder{Kind: "openai", BaseURL: "https://api.openai.com/v1", Model: "text-embedding-3-small", Dims: 512, SendDimensions: true, APIKey: "sk-test"}},
		{name: "openai without base URL", env: without("FIRMO_EMBED_BASE_URL"), wantErr: "FIRMO_EMBED_BASE_URL"},
		{name: "openai without model", env: without("FIRMO_EMBED_MODEL"), wantErr: "FIRMO_EMBED_MODEL"},
		{name: "openai without dims", env: without("FIRMO_EMBED_DIMS"), wantErr: "FIRMO_EMBED_DIMS"},
		{name: "openai without key (a local server)", env: without("FIRMO_EMBED_API_KEY"), want: Embedder{Kind: "openai", BaseURL: "https://api.openai.com/v1", Model: "text-embedding-3-small", Dims: 512, SendDimensions: true}},
		{name: "openai with the key in Secrets Manager", env: withSecret(without("FIRMO_EMBED_API_KEY"), smARN), want: Embedder{Kind: "openai", BaseURL: "https://api.openai.com/v1", Model: "text-embedding-3-small", Dims: 512, SendDimensions: true, APIKeySecretARN: smARN}},
		{name: "secret named, not by ARN", env: withSecret(without("FIRMO_EMBED_API_KEY"), "firmo/embed-api-key"), wantErr: "FIRMO_EMBED_API_KEY_SECRET_ARN"},
		{name: "key and secret both", env: withSecret(openai, smARN), wantErr: "FIRMO_EMBED_API_KEY_SECRET_ARN"},
		{name: "bad base URL", env: map[string]string{"FIRMO_EMBEDDER": "openai", "FIRMO_EMBED_BASE_URL": "api.openai.com", "FIRMO_EMBED_MODEL": "m", "FIRMO_EMBED_DIMS": "8"}, wantErr: "FIRMO_EMBED_BASE_URL"},
		{name: "bad dims", env: map[string]string{"FIRMO_EMBED_DIMS": "0"}, wantErr: "FIRMO_EMBED_DIMS"},
		{name: "unknown embedder", env: map[string]string{"FIRMO_EMBEDDER": "word2vec"}, wantErr: "FIRMO_EMBEDDER"},
	}
	runSettings(t, cases, func(c Config) Embedder { return c.Embedder }, "sk-test")
}

// settingCase is one row of a settings table: the environment, then the settings
// wanted or a variable the error must name.
type settingCase[T comparable] struct {
	name    string
	env     map[string]string
	want    T
	wantErr string
}

// runSettings loads each case's environment and compares part(config) with want; an
// error must name wantErr and never show secret.
func runSettings[T comparable](t *testing.T, cases []settingCase[T], part func(Config) T, secret string) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := Load(env(c.env))
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want one naming %s", err, c.wantErr)
				}
				if strings.Contains(err.Error(), secret) {
					t.Fatalf("the error shows a secret: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := part(cfg); got != c.want {
				t.Errorf("got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

// TestContactIndexSettings: the contacts index layout is read and checked, naming the
// setting.
func TestContactIndexSettings(t *testing.T) {
	base := map[string]string{"FIRMO_OPENSEARCH_URL": "http://127.0.0.1:9200"}
	cfg, err := Load(func(k string) string {
		m := map[string]string{"FIRMO_OPENSEARCH_CONTACTS_ENGINE": "lucene", "FIRMO_OPENSEARCH_CONTACTS_SHARDS": "6",
			"FIRMO_OPENSEARCH_CONTACTS_REPLICAS": "2", "FIRMO_OPENSEARCH_CONTACTS_M": "32", "FIRMO_OPENSEARCH_CONTACTS_EF_CONSTRUCTION": "256",
			"FIRMO_OPENSEARCH_CONTACTS_EF_SEARCH": "200"}
		if v, ok := base[k]; ok {
			return v
		}
		return m[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cfg.OpenSearch.Contacts, (ContactIndex{Engine: "lucene", Shards: 6, Replicas: 2, M: 32, EfConstruction: 256, EfSearch: 200}); got != want {
		t.Fatalf("got %+v want %+v", got, want)
	}
	_, err = Load(func(k string) string {
		if k == "FIRMO_OPENSEARCH_CONTACTS_M" {
			return "1"
		}
		return base[k]
	})
	if err == nil || !strings.Contains(err.Error(), "FIRMO_OPENSEARCH_CONTACTS_M") {
		t.Fatalf("m 1: %v", err)
	}
}
