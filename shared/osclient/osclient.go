// Package osclient builds the OpenSearch API client that the OpenSearch adapters
// (osmatch for company names, ossearch for contacts) share, from the
// FIRMO_OPENSEARCH_* settings: the endpoint, the authentication (SigV4 for Amazon
// OpenSearch Service, basic, or none), connection timeouts and retries.
package osclient

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"time"

	awsconfig "github.com/aws/aws-sdk-go-v2/config"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/opensearch-project/opensearch-go/v4"
	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"
	"github.com/opensearch-project/opensearch-go/v4/signer/awsv2"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/config"
)

// RetryOnStatus are the answers retried: throttling (429) and a node or proxy briefly
// down (502, 503, 504). Other errors are the caller's to map.
var RetryOnStatus = []int{http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout}

// MaxRetries bounds the retries of one request; with Backoff's delays a request gives
// up after at most 0.7 s of waiting, well inside an API request's budget.
const MaxRetries = 3

// Backoff is the wait before retry attempt n (1-based): 100 ms doubling, with jitter so
// Lambdas throttled together do not retry in step.
func Backoff(attempt int) time.Duration {
	base := 100 * time.Millisecond << min(attempt-1, 4)
	return base/2 + rand.N(base/2+1)
}

// New returns a client for cfg. awsCfg supplies the credential chain for sigv4 and
// may be nil for the other modes; the signing region is cfg.Region. It checks the
// configuration only, not the cluster: no request is made (a Lambda's init stays light).
func New(cfg config.OpenSearch, awsCfg *aws.Config) (*opensearchapi.Client, error) {
	if cfg.URL == "" {
		return nil, fmt.Errorf("opensearch client: FIRMO_OPENSEARCH_URL is not set: %w", apperr.ErrInvalid)
	}
	oc := opensearch.Config{
		Addresses:     []string{cfg.URL},
		Transport:     transport(),
		RetryOnStatus: RetryOnStatus,
		MaxRetries:    MaxRetries,
		RetryBackoff:  Backoff,
	}
	switch cfg.Auth {
	case config.OpenSearchBasic:
		oc.Username, oc.Password = cfg.Username, cfg.Password
	case config.OpenSearchSigV4:
		if awsCfg == nil {
			return nil, fmt.Errorf("opensearch client: sigv4 needs the AWS configuration: %w", apperr.ErrInvalid)
		}
		signing := awsCfg.Copy()
		signing.Region = cfg.Region
		s, err := awsv2.NewSigner(signing)
		if err != nil {
			return nil, fmt.Errorf("opensearch client: sigv4 signer: %w", err)
		}
		oc.Signer = s
	case config.OpenSearchNone, "":
	default:
		return nil, fmt.Errorf("opensearch client: unknown auth %q: %w", cfg.Auth, apperr.ErrInvalid)
	}
	c, err := opensearchapi.NewClient(opensearchapi.Config{Client: oc})
	if err != nil {
		return nil, fmt.Errorf("opensearch client: %w", err)
	}
	return c, nil
}

// transport bounds the phases of a connection; the whole request is bounded by its
// context (the API request's or the Lambda's deadline).
func transport() *http.Transport {
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   5 * time.Second,
		ResponseHeaderTimeout: 30 * time.Second,
		MaxIdleConnsPerHost:   16,
		IdleConnTimeout:       90 * time.Second,
		ForceAttemptHTTP2:     true,
	}
}

// Open is the client of the cluster cfg names, or nil when none is configured. awsCfg
// is the AWS composition's SDK configuration; locally (nil) it is loaded only when
// SigV4 needs the credential chain. No request is made here.
func Open(ctx context.Context, cfg config.OpenSearch, awsCfg *aws.Config) (*opensearchapi.Client, error) {
	if !cfg.Enabled() {
		return nil, nil
	}
	if awsCfg == nil && cfg.Auth == config.OpenSearchSigV4 {
		loaded, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithRegion(cfg.Region))
		if err != nil {
			return nil, fmt.Errorf("load AWS configuration for OpenSearch signing: %w", err)
		}
		awsCfg = &loaded
	}
	return New(cfg, awsCfg)
}
