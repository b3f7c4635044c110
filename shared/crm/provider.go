// Package crm connects an organisation's CRM (HubSpot, Salesforce, Pipedrive) over
// OAuth 2.0 and snapshots its companies and contacts into exclusion lists.
//
// provider.go declares the port the provider clients implement (hubspotcrm,
// salesforcecrm, pipedrivecrm under this package): the service hands a client an
// authorised HTTP client (its token source refreshes and stores rotated tokens) and
// the provider-specific hosts the token response carried, and the client pages
// through the provider's records.
package crm

import (
	"context"
	"errors"
	"net/http"

	"golang.org/x/oauth2"
)

// Conn is what a provider client needs to call the provider for one connection.
type Conn struct {
	// HTTP carries the connection's bearer token (an oauth2 transport) and
	// refreshes it; the client never sees the token itself.
	HTTP *http.Client
	// InstanceURL is Salesforce's instance_url from the token response.
	InstanceURL string
	// APIDomain is Pipedrive's api_domain from the token response.
	APIDomain string
	// BaseURL, when set, replaces the provider's API host (HubSpot's
	// https://api.hubapi.com) so tests and the offline demo reach a fake.
	BaseURL string
}

// Provider is one CRM's API as the snapshot and the live probe use it.
type Provider interface {
	// Name is the provider identifier in routes: hubspot, salesforce or pipedrive.
	Name() string
	// Endpoint is the provider's OAuth 2.0 authorize and token URLs (the real hosts
	// unless configuration points the provider at a fake).
	Endpoint() oauth2.Endpoint
	// Scopes are the OAuth scopes the authorize URL asks for.
	Scopes() []string
	// Probe makes one cheap authenticated call; an error wrapping
	// ErrTokenRejected means the provider refused the token.
	Probe(ctx context.Context, c Conn) error
	// Companies pages through every company and calls page with each page's
	// website or domain values, as the CRM stores them (normalised by the caller).
	Companies(ctx context.Context, c Conn, page func(websites []string) error) error
	// ContactEmails pages through every contact and calls page with each page's
	// email addresses (empty values left out).
	ContactEmails(ctx context.Context, c Conn, page func(emails []string) error) error
}

// ErrTokenRejected is wrapped by a provider client's error when the provider answers
// 401 (or its equivalent) to a call made with a fresh token: the connection then
// needs the user to authorise again.
var ErrTokenRejected = errors.New("crm: the provider refused the token")
