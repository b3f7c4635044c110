package app

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/osclient"
)

// openSearchClient is the client of the cluster FIRMO_OPENSEARCH_URL names, or nil when
// none is configured. awsCfg is the AWS composition's configuration; locally (nil) it is
// loaded only when sigv4 needs the credential chain. No request is made here.
func openSearchClient(ctx context.Context, cfg config.Config, awsCfg *aws.Config) (*opensearchapi.Client, error) {
	if !cfg.OpenSearch.Enabled() {
		return nil, nil
	}
	if awsCfg == nil && cfg.OpenSearch.Auth == config.OpenSearchSigV4 {
		loaded, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithRegion(cfg.OpenSearch.Region))
		if err != nil {
			return nil, fmt.Errorf("load AWS configuration for OpenSearch signing: %w", err)
		}
		awsCfg = &loaded
	}
	return osclient.New(cfg.OpenSearch, awsCfg)
}
