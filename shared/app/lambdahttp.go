package app

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/aws/aws-lambda-go/events"
	"github.com/awslabs/aws-lambda-go-api-proxy/core"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/firmoapi/firmo/shared/httpapi"
)

// LambdaResponseMax is Lambda's limit on a synchronous invocation's response: 6 MB,
// counted on the JSON document the runtime returns. Lambda's error names 6,291,556
// bytes; 6 MiB stays 100 bytes under it.
const LambdaResponseMax = 6 << 20

// HTTPProxy is the API Gateway HTTP API (payload 2.0) handler of the composed
// families: their http.Handler behind aws-lambda-go-api-proxy. A response the
// runtime could not return is answered 422 response_too_large (see
// httpapi.ResponseLimit). A gzip-encoded body is never valid UTF-8 (its second byte is
// 0x8b), so the proxy sends it in base64 with isBase64Encoded set, and API Gateway
// decodes it for the client.
func (c *Core) HTTPProxy() func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
	limit := httpapi.ResponseLimit{Max: LambdaResponseMax, Size: LambdaEnvelopeSize}
	return httpadapter.NewV2(c.Server.LimitedHandler(limit)).ProxyWithContext
}

// LambdaEnvelopeSize is the size of the document the Lambda runtime returns for an
// HTTP response: the proxy's own conversion (binary bodies in base64, multi-value
// headers joined, cookies apart), encoded as aws-lambda-go encodes a handler's result
// (no HTML escaping, a trailing newline).
func LambdaEnvelopeSize(status int, header http.Header, body []byte) int {
	w := core.NewProxyResponseWriterV2()
	for k, v := range header {
		w.Header()[k] = v
	}
	w.WriteHeader(status)
	if len(body) > 0 {
		w.Write(body)
	}
	resp, err := w.GetProxyResponse()
	if err != nil { // only without a status, which the caller always sets
		return 0
	}
	var n countWriter
	enc := json.NewEncoder(&n)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(resp); err != nil {
		return 0
	}
	return int(n)
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}
