// Package config loads Firmo's settings once from the environment into one struct.
// Nothing else in Firmo reads the environment.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Backend selects the composition: embedded storage or AWS services.
type Backend string

const (
	BackendLocal Backend = "local"
	BackendAWS   Backend = "aws"
)

// Config is every setting of Firmo. The zero value is not useful: call Load.
type Config struct {
	Addr            string        // FIRMO_ADDR: listen address of `firmo serve`
	DataDir         string        // FIRMO_DATA_DIR: embedded storage directory
	Backend         Backend       // FIRMO_BACKEND: local or aws
	LogLevel        slog.Level    // FIRMO_LOG_LEVEL: debug, info, warn, error
	LogFormat       string        // FIRMO_LOG_FORMAT: text or json
	MaxBodyBytes    int64         // FIRMO_MAX_BODY_BYTES: request body limit
	DemoAPIKey      string        // FIRMO_DEMO_API_KEY: fixes the demo organisation's key
	ShutdownWait    time.Duration // FIRMO_SHUTDOWN_TIMEOUT: graceful shutdown budget
	BodyTimeout     time.Duration // FIRMO_BODY_TIMEOUT: `firmo serve` cuts a request whose body is not read in full within this time after its headers
	SessionTTL      time.Duration // FIRMO_SESSION_TTL: admin app session lifetime
	InsecureCookies bool          // FIRMO_INSECURE_COOKIES: drop the Secure cookie flag (plain-HTTP development only)
	FetchAllowHosts []string      // FIRMO_FETCH_ALLOW_HOSTS: hosts or host:port pairs the guarded fetch client and the SMTP verifier admit although private (tests only)
	DNSResolver     string        // FIRMO_DNS_RESOLVER: host:port of the DNS server for MX lookups; "" = /etc/resolv.conf
	FetchDNS        string        // FIRMO_FETCH_DNS_RESOLVER: host:port of the DNS server page fetching resolves names with; "" = the system's
	SeedCompanies   int           // FIRMO_SEED_COMPANIES: companies of the demo world `firmo serve` seeds into an empty store; 0 = none
	ReprocessEvery  time.Duration // FIRMO_REPROCESS_INTERVAL: how often `firmo serve` continues the company reprocessing job
	SMTP            SMTP
	// SecretKey (FIRMO_SECRET_KEY) is the base64 AES-256 key sealing provider keys at
	// rest; locally, when empty, one is generated into <DataDir>/secret-key. Never logged.
	SecretKey    string
	TypedBaseURL string // FIRMO_TYPED_BASE_URL: typed-judgment endpoint for typed integrations without a base_url
	// ICPModelPath is FIRMO_ICP_MODEL_PATH: the native ICP-fit model file (written by
	// `firmo icp-train`); empty uses the model embedded in the binary.
	ICPModelPath string

	OpenSearch OpenSearch
	Embedder   Embedder
	CRM        CRM

	AWS AWS
}

// CRM configures the CRM connections (shared/crm): the OAuth clients Firmo is
// registered as at each provider and the public base URL its callback is reached at.
type CRM struct {
	// RedirectBaseURL is FIRMO_CRM_REDIRECT_BASE_URL: the public base URL (scheme and
	// host, no path) the providers redirect back to, at
	// <base>/v1/crm/<provider>/callback. Empty: authorize answers 503 naming it.
	RedirectBaseURL string
	// HubSpot, Salesforce and Pipedrive are FIRMO_CRM_<PROVIDER>_*.
	HubSpot, Salesforce, Pipedrive CRMProvider
	// Fakes is FIRMO_CRM_FAKES: `firmo serve` starts the test kit's fake providers on
	// loopback and points every provider at them (an offline demo; local composition
	// only, refused with FIRMO_BACKEND=aws).
	Fakes bool
}

// CRMProvider is one provider's OAuth client and, for tests and the offline demo, the
// URLs that point it at a fake instead of its real hosts.
type CRMProvider struct {
	ClientID     string // FIRMO_CRM_<PROVIDER>_CLIENT_ID
	ClientSecret string // FIRMO_CRM_<PROVIDER>_CLIENT_SECRET; never logged
	// ClientSecretARN is FIRMO_CRM_<PROVIDER>_CLIENT_SECRET_ARN: on AWS, the Secrets
	// Manager secret whose SecretString is the client secret, read once at init
	// (shared/app/crmapp), so no secret sits in the function's environment.
	ClientSecretARN string
	AuthURL         string // FIRMO_CRM_<PROVIDER>_AUTH_URL: the authorize URL; empty: the real one
	TokenURL        string // FIRMO_CRM_<PROVIDER>_TOKEN_URL: the token URL; empty: the real one
	// APIURL is FIRMO_CRM_<PROVIDER>_API_URL: the API base; empty: the real host
	// (HubSpot) or the one the token response names (Salesforce, Pipedrive).
	APIURL string
}

// Configured reports whether the provider's OAuth client is set.
func (p CRMProvider) Configured() bool { return p.ClientID != "" && p.ClientSecret != "" }

// OpenSearch is the cluster behind company-name matching and contact search when one is
// configured: on AWS an Amazon OpenSearch Service domain; locally a developer's cluster.
// An empty URL means none: names then use the embedded bleve index locally (503 on AWS)
// and contact vectors the in-memory HNSW graph.
type OpenSearch struct {
	// URL is FIRMO_OPENSEARCH_URL without its userinfo: an https endpoint (plain http only
	// for a loopback host, a development cluster or a test).
	URL string
	// Auth is FIRMO_OPENSEARCH_AUTH: "sigv4" (Amazon OpenSearch Service: requests signed
	// with the default AWS credential chain for Region), "basic" (user and password from
	// the URL's userinfo) or "none". Default: basic when the URL carries a user, else none.
	Auth string
	// Region is the SigV4 signing region: AWS_REGION when set, else the region named in
	// an *.<region>.es.amazonaws.com endpoint.
	Region string
	// Username and Password come from the URL's userinfo (basic auth). Never logged.
	Username, Password string
	ContactsIndex      string // FIRMO_OPENSEARCH_CONTACTS_INDEX: contact documents and vectors; default "contacts"
	NamesIndex         string // FIRMO_OPENSEARCH_NAMES_INDEX: company-name candidates; default "company-names"
	// Contacts is the contacts index's layout and k-NN method, read when the index is
	// created (README "Capacity model"); zero fields take the adapter's defaults.
	Contacts ContactIndex
}

// ContactIndex is the layout of the OpenSearch contacts index.
type ContactIndex struct {
	Engine         string // FIRMO_OPENSEARCH_CONTACTS_ENGINE: faiss (default), lucene or nmslib
	Shards         int    // FIRMO_OPENSEARCH_CONTACTS_SHARDS: primary shards; default 2
	Replicas       int    // FIRMO_OPENSEARCH_CONTACTS_REPLICAS: replicas per shard; -1 when unset (default 1)
	M              int    // FIRMO_OPENSEARCH_CONTACTS_M: HNSW links per node; default 16
	EfConstruction int    // FIRMO_OPENSEARCH_CONTACTS_EF_CONSTRUCTION: default 128
	EfSearch       int    // FIRMO_OPENSEARCH_CONTACTS_EF_SEARCH: default 128
}

// Enabled reports whether a cluster is configured.
func (o OpenSearch) Enabled() bool { return o.URL != "" }

// OpenSearch authentication modes.
const (
	OpenSearchSigV4 = "sigv4"
	OpenSearchBasic = "basic"
	OpenSearchNone  = "none"
)

// Embedder chooses the text embedder of contact search.
type Embedder struct {
	// Kind is FIRMO_EMBEDDER: "builtin" (ppmiembed: offline, 384 dims, the default) or
	// "openai" (any OpenAI-compatible /embeddings endpoint, shared/embed/openaiembed).
	Kind    string
	BaseURL string // FIRMO_EMBED_BASE_URL: e.g. https://api.openai.com/v1 (openai only, required)
	Model   string // FIRMO_EMBED_MODEL: e.g. text-embedding-3-small (openai only, required)
	// Dims is FIRMO_EMBED_DIMS: the vector length stored (openai only, required: it must
	// match what the model returns, and the OpenSearch contact index is created with it).
	Dims int
	// SendDimensions is FIRMO_EMBED_SEND_DIMENSIONS: ask the model to shorten its vectors
	// to Dims (text-embedding-3-* support it); default false.
	SendDimensions bool
	// APIKey is FIRMO_EMBED_API_KEY: sent as a bearer token; empty sends none (local
	// servers). Never logged.
	APIKey string
	// APIKeySecretARN is FIRMO_EMBED_API_KEY_SECRET_ARN: on AWS, the Secrets Manager
	// secret whose SecretString is the API key. The contacts composer reads it once at
	// init (shared/secret/smsecret) into the embedder; the key is never an environment
	// variable there. Exclusive with APIKey.
	APIKeySecretARN string
}

// Embedder kinds.
const (
	EmbedderBuiltin = "builtin"
	EmbedderOpenAI  = "openai"
)

// SMTP configures the email verifier's SMTP conversations.
type SMTP struct {
	Port int    // FIRMO_SMTP_PORT: port of every MX host (25; tests use a local MTA elsewhere)
	HELO string // FIRMO_SMTP_HELO: name sent in EHLO/HELO
	From string // FIRMO_SMTP_FROM: MAIL FROM address
}

// AWS holds the names and endpoints of the AWS composition. Endpoints are empty in a
// real deployment and point at the local stand-ins in tests.
type AWS struct {
	Region           string // AWS_REGION
	Table            string // FIRMO_TABLE: the DynamoDB item table
	QueueURL         string // FIRMO_QUEUE_URL: per-record work queue
	StateMachineARN  string // FIRMO_STATE_MACHINE_ARN: task workflow
	DynamoDBEndpoint string // FIRMO_DYNAMODB_ENDPOINT
	SQSEndpoint      string // FIRMO_SQS_ENDPOINT
	SFNEndpoint      string // FIRMO_SFN_ENDPOINT
	// KMSKeyID is FIRMO_KMS_KEY_ID: the symmetric KMS key (id, ARN or alias) whose data
	// keys seal provider keys and tokens at rest instead of the local key (SecretKey).
	KMSKeyID    string
	KMSEndpoint string // FIRMO_KMS_ENDPOINT
	// TaskPoll is FIRMO_TASK_POLL: the wait between a task workflow's progress checks
	// (whole seconds, at least 1 s; Step Functions' Wait state takes whole seconds).
	TaskPoll time.Duration
	// TestTaskKinds is FIRMO_TEST_TASK_KINDS: registers the observable test task kind
	// (shared/task/tasktest, kind "test_echo") so end-to-end tests can drive the real
	// Lambda binaries. Never set in a deployment.
	TestTaskKinds bool
	// TestRunLog is FIRMO_TEST_RUN_LOG: a file the test kind appends each run's record
	// key to (tests count reruns across processes with it).
	TestRunLog string
}

// Getenv reads one variable; os.Getenv in production, a map in tests.
type Getenv func(string) string

// Load reads the configuration. A bad variable gives one error listing every problem.
func Load(getenv Getenv) (Config, error) {
	l := loader{getenv: getenv}
	c := Config{
		Addr:            l.str("FIRMO_ADDR", ":8080"),
		DataDir:         l.str("FIRMO_DATA_DIR", "./data"),
		Backend:         Backend(l.oneOf("FIRMO_BACKEND", "local", "local", "aws")),
		LogLevel:        l.level("FIRMO_LOG_LEVEL", slog.LevelInfo),
		LogFormat:       l.oneOf("FIRMO_LOG_FORMAT", "text", "text", "json"),
		MaxBodyBytes:    l.int64("FIRMO_MAX_BODY_BYTES", 1<<20, 1024, 1<<30),
		DemoAPIKey:      l.str("FIRMO_DEMO_API_KEY", ""),
		ShutdownWait:    l.duration("FIRMO_SHUTDOWN_TIMEOUT", 15*time.Second),
		BodyTimeout:     l.duration("FIRMO_BODY_TIMEOUT", 30*time.Second),
		SessionTTL:      l.duration("FIRMO_SESSION_TTL", 12*time.Hour),
		InsecureCookies: l.bool("FIRMO_INSECURE_COOKIES", false),
		FetchAllowHosts: l.hosts("FIRMO_FETCH_ALLOW_HOSTS"),
		DNSResolver:     l.hostPort("FIRMO_DNS_RESOLVER", "53"),
		FetchDNS:        l.hostPort("FIRMO_FETCH_DNS_RESOLVER", "53"),
		SeedCompanies:   int(l.int64("FIRMO_SEED_COMPANIES", 2000, 0, 1_000_000)),
		ReprocessEvery:  l.duration("FIRMO_REPROCESS_INTERVAL", time.Hour),
		SecretKey:       l.str("FIRMO_SECRET_KEY", ""),
		TypedBaseURL:    l.str("FIRMO_TYPED_BASE_URL", ""),
		ICPModelPath:    l.str("FIRMO_ICP_MODEL_PATH", ""),
		OpenSearch:      l.openSearch(),
		Embedder:        l.embedder(),
		CRM: CRM{
			RedirectBaseURL: strings.TrimRight(l.url("FIRMO_CRM_REDIRECT_BASE_URL"), "/"),
			HubSpot:         l.crmProvider("HUBSPOT"),
			Salesforce:      l.crmProvider("SALESFORCE"),
			Pipedrive:       l.crmProvider("PIPEDRIVE"),
			Fakes:           l.bool("FIRMO_CRM_FAKES", false),
		},
		SMTP: SMTP{
			Port: int(l.int64("FIRMO_SMTP_PORT", 25, 1, 65535)),
			HELO: l.str("FIRMO_SMTP_HELO", "verify.firmo.local"),
			From: l.str("FIRMO_SMTP_FROM", "verify@firmo.local"),
		},
		AWS: AWS{
			Region:           l.str("AWS_REGION", "us-east-1"),
			Table:            l.str("FIRMO_TABLE", "firmo"),
			QueueURL:         l.str("FIRMO_QUEUE_URL", ""),
			StateMachineARN:  l.str("FIRMO_STATE_MACHINE_ARN", ""),
			DynamoDBEndpoint: l.url("FIRMO_DYNAMODB_ENDPOINT"),
			SQSEndpoint:      l.url("FIRMO_SQS_ENDPOINT"),
			SFNEndpoint:      l.url("FIRMO_SFN_ENDPOINT"),
			KMSKeyID:         l.str("FIRMO_KMS_KEY_ID", ""),
			KMSEndpoint:      l.url("FIRMO_KMS_ENDPOINT"),
			TaskPoll:         l.duration("FIRMO_TASK_POLL", 5*time.Second),
			TestTaskKinds:    l.bool("FIRMO_TEST_TASK_KINDS", false),
			TestRunLog:       l.str("FIRMO_TEST_RUN_LOG", ""),
		},
	}
	if c.DemoAPIKey != "" && (len(c.DemoAPIKey) < 16 || strings.ContainsAny(c.DemoAPIKey, " \t\r\n")) {
		l.fail("FIRMO_DEMO_API_KEY", "must be at least 16 characters without whitespace")
	}
	if c.Backend == BackendLocal && strings.TrimSpace(c.DataDir) == "" {
		l.fail("FIRMO_DATA_DIR", "must not be empty with FIRMO_BACKEND=local")
	}
	if c.Backend == BackendAWS && c.AWS.Table == "" {
		l.fail("FIRMO_TABLE", "is required with FIRMO_BACKEND=aws")
	}
	if strings.ContainsAny(c.AWS.KMSKeyID, " \t\r\n") {
		l.fail("FIRMO_KMS_KEY_ID", "is %q; want a KMS key id, key ARN or alias without whitespace", c.AWS.KMSKeyID)
	}
	if c.AWS.TaskPoll%time.Second != 0 || c.AWS.TaskPoll > time.Hour {
		l.fail("FIRMO_TASK_POLL", "is %s; want whole seconds from 1s to 1h", c.AWS.TaskPoll)
	}
	if at := strings.LastIndexByte(c.SMTP.From, '@'); at <= 0 || at == len(c.SMTP.From)-1 || strings.ContainsAny(c.SMTP.From, " <>\t") {
		l.fail("FIRMO_SMTP_FROM", "is %q; want an address such as verify@example.com", c.SMTP.From)
	}
	if strings.ContainsAny(c.SMTP.HELO, " \t<>@") {
		l.fail("FIRMO_SMTP_HELO", "is %q; want a host name", c.SMTP.HELO)
	}
	if c.CRM.Fakes && c.Backend == BackendAWS {
		l.fail("FIRMO_CRM_FAKES", "starts fake CRM providers for a local demo; it cannot be used with FIRMO_BACKEND=aws")
	}
	if len(l.problems) > 0 {
		return Config{}, fmt.Errorf("configuration: %w", errors.Join(l.problems...))
	}
	return c, nil
}

type loader struct {
	getenv   Getenv
	problems []error
}

func (l *loader) fail(name, format string, args ...any) {
	l.problems = append(l.problems, fmt.Errorf("%s %s", name, fmt.Sprintf(format, args...)))
}

func (l *loader) str(name, def string) string {
	if v := strings.TrimSpace(l.getenv(name)); v != "" {
		return v
	}
	return def
}

func (l *loader) oneOf(name, def string, allowed ...string) string {
	v := strings.ToLower(l.str(name, def))
	for _, a := range allowed {
		if v == a {
			return v
		}
	}
	l.fail(name, "is %q; want one of %s", v, strings.Join(allowed, ", "))
	return def
}

func (l *loader) int64(name string, def, min, max int64) int64 {
	raw := l.str(name, "")
	if raw == "" {
		return def
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || n < min || n > max {
		l.fail(name, "is %q; want an integer from %d to %d", raw, min, max)
		return def
	}
	return n
}

func (l *loader) bool(name string, def bool) bool {
	raw := l.str(name, "")
	if raw == "" {
		return def
	}
	b, err := strconv.ParseBool(raw)
	if err != nil {
		l.fail(name, "is %q; want true or false", raw)
		return def
	}
	return b
}

func (l *loader) duration(name string, def time.Duration) time.Duration {
	raw := l.str(name, "")
	if raw == "" {
		return def
	}
	d, err := time.ParseDuration(raw)
	if err != nil || d <= 0 {
		l.fail(name, "is %q; want a positive duration such as 30s or 5m", raw)
		return def
	}
	return d
}

func (l *loader) level(name string, def slog.Level) slog.Level {
	raw := l.str(name, "")
	if raw == "" {
		return def
	}
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(raw)); err != nil {
		l.fail(name, "is %q; want debug, info, warn or error", raw)
		return def
	}
	return lvl
}

// hosts reads a comma-separated list of host or host:port entries (no scheme, no path).
func (l *loader) hosts(name string) []string {
	var out []string
	for _, h := range strings.Split(l.str(name, ""), ",") {
		h = strings.ToLower(strings.TrimSpace(h))
		if h == "" {
			continue
		}
		host := h
		if hp, port, err := net.SplitHostPort(h); err == nil {
			if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
				l.fail(name, "has %q; want host or host:port entries separated by commas", h)
				continue
			}
			host = hp
		}
		if host == "" || strings.ContainsAny(host, "/@?#: ") && net.ParseIP(strings.Trim(host, "[]")) == nil {
			l.fail(name, "has %q; want host or host:port entries separated by commas", h)
			continue
		}
		out = append(out, h)
	}
	return out
}

// hostPort reads a "host:port" address; a bare host gets defPort.
func (l *loader) hostPort(name, defPort string) string {
	raw := l.str(name, "")
	if raw == "" {
		return ""
	}
	host, port, err := net.SplitHostPort(raw)
	if err != nil {
		host, port = strings.Trim(raw, "[]"), defPort
	}
	if n, perr := strconv.Atoi(port); host == "" || strings.ContainsAny(host, " /") || perr != nil || n < 1 || n > 65535 {
		l.fail(name, "is %q; want host:port such as 127.0.0.1:53", raw)
		return ""
	}
	return net.JoinHostPort(host, port)
}

// openSearch reads the FIRMO_OPENSEARCH_* settings and checks their combination.
func (l *loader) openSearch() OpenSearch {
	o := OpenSearch{
		ContactsIndex: l.indexName("FIRMO_OPENSEARCH_CONTACTS_INDEX", "contacts"),
		NamesIndex:    l.indexName("FIRMO_OPENSEARCH_NAMES_INDEX", "company-names"),
		Contacts: ContactIndex{
			Engine:         l.oneOf("FIRMO_OPENSEARCH_CONTACTS_ENGINE", "faiss", "faiss", "lucene", "nmslib"),
			Shards:         int(l.int64("FIRMO_OPENSEARCH_CONTACTS_SHARDS", 0, 1, 1024)),
			Replicas:       int(l.int64("FIRMO_OPENSEARCH_CONTACTS_REPLICAS", -1, 0, 15)),
			M:              int(l.int64("FIRMO_OPENSEARCH_CONTACTS_M", 0, 2, 100)),
			EfConstruction: int(l.int64("FIRMO_OPENSEARCH_CONTACTS_EF_CONSTRUCTION", 0, 2, 4096)),
			EfSearch:       int(l.int64("FIRMO_OPENSEARCH_CONTACTS_EF_SEARCH", 0, 2, 10000)),
		},
	}
	raw := l.str("FIRMO_OPENSEARCH_URL", "")
	authRaw := l.str("FIRMO_OPENSEARCH_AUTH", "")
	if raw == "" {
		if authRaw != "" {
			l.oneOf("FIRMO_OPENSEARCH_AUTH", "", OpenSearchSigV4, OpenSearchBasic, OpenSearchNone)
		}
		return o
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Hostname() == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		l.fail("FIRMO_OPENSEARCH_URL", "is not a cluster endpoint; want https://host[:port] with no path")
		return o
	}
	if u.Scheme != "https" && !(u.Scheme == "http" && loopback(u.Hostname())) {
		l.fail("FIRMO_OPENSEARCH_URL", "must be an https URL (plain http only for a loopback host), got scheme %q", u.Scheme)
		return o
	}
	if u.User != nil {
		o.Username = u.User.Username()
		o.Password, _ = u.User.Password()
	}
	def := OpenSearchNone
	if o.Username != "" {
		def = OpenSearchBasic
	}
	o.Auth = l.oneOf("FIRMO_OPENSEARCH_AUTH", def, OpenSearchSigV4, OpenSearchBasic, OpenSearchNone)
	switch o.Auth {
	case OpenSearchBasic:
		if o.Username == "" || o.Password == "" {
			l.fail("FIRMO_OPENSEARCH_URL", "needs user:password@ in the URL with FIRMO_OPENSEARCH_AUTH=basic")
		}
	case OpenSearchSigV4, OpenSearchNone:
		if u.User != nil {
			l.fail("FIRMO_OPENSEARCH_URL", "carries credentials, which FIRMO_OPENSEARCH_AUTH=%s would not use; remove them or set FIRMO_OPENSEARCH_AUTH=basic", o.Auth)
		}
	}
	if o.Auth == OpenSearchSigV4 {
		o.Region = l.str("AWS_REGION", regionOfEndpoint(u.Hostname()))
		if o.Region == "" {
			l.fail("AWS_REGION", "is required with FIRMO_OPENSEARCH_AUTH=sigv4 (the signing region) unless FIRMO_OPENSEARCH_URL is an *.<region>.es.amazonaws.com endpoint")
		}
	}
	u.User = nil
	o.URL = strings.TrimSuffix(u.String(), "/")
	return o
}

// regionOfEndpoint reads the region of an Amazon OpenSearch Service endpoint
// (search-name-id.eu-west-1.es.amazonaws.com); "" for any other host.
func regionOfEndpoint(host string) string {
	parts := strings.Split(strings.ToLower(host), ".")
	n := len(parts)
	if n >= 5 && parts[n-3] == "es" && parts[n-2] == "amazonaws" && parts[n-1] == "com" {
		return parts[n-4]
	}
	return ""
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// indexName reads an OpenSearch index name: lowercase, no spaces, none of \ / * ? " < > | , #,
// not starting with _ - +.
func (l *loader) indexName(name, def string) string {
	v := l.str(name, def)
	if v != strings.ToLower(v) || strings.ContainsAny(v, " \\/*?\"<>|,#:") || strings.IndexAny(v[:1], "_-+") == 0 || len(v) > 255 || v == "." || v == ".." {
		l.fail(name, "is %q; want a lowercase OpenSearch index name", v)
		return def
	}
	return v
}

// embedder reads the FIRMO_EMBED* settings and checks their combination.
func (l *loader) embedder() Embedder {
	e := Embedder{
		Kind:           l.oneOf("FIRMO_EMBEDDER", EmbedderBuiltin, EmbedderBuiltin, EmbedderOpenAI),
		BaseURL:        l.url("FIRMO_EMBED_BASE_URL"),
		Model:          l.str("FIRMO_EMBED_MODEL", ""),
		Dims:           int(l.int64("FIRMO_EMBED_DIMS", 0, 1, 16_000)),
		SendDimensions: l.bool("FIRMO_EMBED_SEND_DIMENSIONS", false),
		APIKey:         l.str("FIRMO_EMBED_API_KEY", ""),
		// An ARN, not a name: template.yaml grants secretsmanager:GetSecretValue on it.
		APIKeySecretARN: l.str("FIRMO_EMBED_API_KEY_SECRET_ARN", ""),
	}
	if a := e.APIKeySecretARN; a != "" && (!strings.HasPrefix(a, "arn:") || !strings.Contains(a, ":secretsmanager:") || !strings.Contains(a, ":secret:")) {
		l.fail("FIRMO_EMBED_API_KEY_SECRET_ARN", "is %q; want a Secrets Manager secret ARN (arn:aws:secretsmanager:<region>:<account>:secret:<name>)", a)
	}
	if e.APIKey != "" && e.APIKeySecretARN != "" {
		l.fail("FIRMO_EMBED_API_KEY_SECRET_ARN", "is set with FIRMO_EMBED_API_KEY; set one of them")
	}
	if e.Kind != EmbedderOpenAI {
		return e
	}
	for _, req := range []struct {
		name string
		set  bool
	}{{"FIRMO_EMBED_BASE_URL", e.BaseURL != ""}, {"FIRMO_EMBED_MODEL", e.Model != ""}, {"FIRMO_EMBED_DIMS", e.Dims > 0}} {
		if !req.set && l.str(req.name, "") == "" {
			l.fail(req.name, "is required with FIRMO_EMBEDDER=openai")
		}
	}
	return e
}

// crmProvider reads FIRMO_CRM_<provider>_*.
func (l *loader) crmProvider(provider string) CRMProvider {
	p := "FIRMO_CRM_" + provider + "_"
	c := CRMProvider{
		ClientID: l.str(p+"CLIENT_ID", ""), ClientSecret: l.str(p+"CLIENT_SECRET", ""),
		ClientSecretARN: l.secretARN(p + "CLIENT_SECRET_ARN"),
		AuthURL:         l.url(p + "AUTH_URL"), TokenURL: l.url(p + "TOKEN_URL"), APIURL: strings.TrimRight(l.url(p+"API_URL"), "/"),
	}
	if c.ClientSecret != "" && c.ClientSecretARN != "" {
		l.fail(p+"CLIENT_SECRET_ARN", "is set with %sCLIENT_SECRET; set one of them", p)
	}
	return c
}

// secretARN reads a Secrets Manager secret ARN (an ARN, not a name: template.yaml
// grants secretsmanager:GetSecretValue on exactly it).
func (l *loader) secretARN(name string) string {
	a := l.str(name, "")
	if a != "" && (!strings.HasPrefix(a, "arn:") || !strings.Contains(a, ":secretsmanager:") || !strings.Contains(a, ":secret:")) {
		l.fail(name, "is %q; want a Secrets Manager secret ARN (arn:aws:secretsmanager:<region>:<account>:secret:<name>)", a)
	}
	return a
}

func (l *loader) url(name string) string {
	raw := l.str(name, "")
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		l.fail(name, "is %q; want an http(s) URL", raw)
		return ""
	}
	return raw
}
