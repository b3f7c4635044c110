// Package crmapp composes the CRM family: connections to HubSpot, Salesforce and
// Pipedrive over OAuth 2.0, their live probes, and suppression snapshots into
// exclusion lists (the crm_suppress task kind, registered here, so the worker composes
// this family too).
package crmapp

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsconfig "github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/secretsmanager"

	"github.com/firmoapi/firmo/shared/app"
	"github.com/firmoapi/firmo/shared/app/queriesapp"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/crm"
	"github.com/firmoapi/firmo/shared/crm/hubspotcrm"
	"github.com/firmoapi/firmo/shared/crm/pipedrivecrm"
	"github.com/firmoapi/firmo/shared/crm/salesforcecrm"
	"github.com/firmoapi/firmo/shared/fetch"
	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/httpapi/crmhttp"
	"github.com/firmoapi/firmo/shared/secret/kmssecret"
	"github.com/firmoapi/firmo/shared/secret/smsecret"
	"github.com/firmoapi/firmo/shared/task"
)

// Composer composes the CRM family.
func Composer() app.Composer {
	return app.NewComposer(httpapi.FamilyCRM, Service, func(s routeDeps) []httpapi.Route { return crmhttp.Routes(crmhttp.Deps(s)) })
}

type routeDeps crmhttp.Deps

// Service builds the core's CRM service (registering the crm_suppress kind) on
// first use; the routes get it with the core's authenticator.
func Service(ctx context.Context, c *app.Core) (routeDeps, error) {
	svc, err := Build(ctx, c)
	if err != nil {
		return routeDeps{}, err
	}
	return routeDeps{Service: svc, Auth: c.Accounts, Log: c.Log}, nil
}

// Build returns the core's CRM service, building it once.
func Build(ctx context.Context, c *app.Core) (*crm.Service, error) {
	return app.Shared(c, "crmapp.Build", func() (*crm.Service, error) {
		queries, err := queriesapp.Service(ctx, c)
		if err != nil {
			return nil, err
		}
		sealer, err := kmssecret.NewSealer(c.Config, c.AWS)
		if err != nil {
			return nil, err
		}
		cfg, err := withClientSecrets(ctx, c.Config.CRM, c.Config.AWS.Region, c.AWS)
		if err != nil {
			return nil, err
		}
		svc := crm.New(crm.Deps{
			Store: c.Store, Sealer: sealer, Providers: Providers(cfg), RedirectBaseURL: c.Config.CRM.RedirectBaseURL,
			Lists: queries, People: people{contact.NewStore(c.Store)}, Tasks: c.Tasks, Log: c.Log,
			// The guarded client: public addresses only; the CRM's host rules on top.
			HTTP:       fetch.New(fetch.Options{AllowHosts: c.Config.FetchAllowHosts, Timeout: 60 * time.Second}).HTTPClient(),
			AllowHosts: c.Config.FetchAllowHosts,
		})
		// Snapshot tasks are read through the general status route.
		if err := c.Tasks.Kinds().Register(svc.Kind(task.GenStatusRoute)); err != nil {
			return nil, fmt.Errorf("crm: %w", err)
		}
		return svc, nil
	})
}

// Providers makes the three provider clients from the configuration: the real hosts
// unless URLs point a provider at a fake; a provider without its client id and secret
// is listed with the settings it misses.
func Providers(cfg config.CRM) map[string]crm.Setup {
	out := map[string]crm.Setup{}
	add := func(name string, p config.CRMProvider, client crm.Provider) {
		st := crm.Setup{Provider: client, ClientID: p.ClientID, ClientSecret: p.ClientSecret, BaseURL: p.APIURL}
		prefix := "FIRMO_CRM_" + map[string]string{crm.HubSpot: "HUBSPOT", crm.Salesforce: "SALESFORCE", crm.Pipedrive: "PIPEDRIVE"}[name]
		if p.ClientID == "" {
			st.Missing = append(st.Missing, prefix+"_CLIENT_ID")
		}
		if p.ClientSecret == "" {
			st.Missing = append(st.Missing, prefix+"_CLIENT_SECRET")
		}
		out[name] = st
	}
	add(crm.HubSpot, cfg.HubSpot, hubspotcrm.New(hubspotcrm.Options{AuthURL: cfg.HubSpot.AuthURL, TokenURL: cfg.HubSpot.TokenURL, APIBase: cfg.HubSpot.APIURL}))
	add(crm.Salesforce, cfg.Salesforce, salesforcecrm.New(salesforcecrm.Options{AuthURL: cfg.Salesforce.AuthURL, TokenURL: cfg.Salesforce.TokenURL}))
	add(crm.Pipedrive, cfg.Pipedrive, pipedrivecrm.New(pipedrivecrm.Options{AuthURL: cfg.Pipedrive.AuthURL, TokenURL: cfg.Pipedrive.TokenURL}))
	return out
}

// people resolves emails against the contact store's email lookup.
type people struct{ store *contact.Store }

func (p people) PersonaByEmail(ctx context.Context, email string) (int64, error) {
	r, err := p.store.ByEmail(ctx, email)
	if err != nil {
		return 0, err
	}
	return r.PersonaID, nil
}

// withClientSecrets returns the CRM settings with each client secret that
// FIRMO_CRM_<PROVIDER>_CLIENT_SECRET_ARN names read from Secrets Manager (on AWS:
// template.yaml passes the ARN, never the secret). They are read once, when the family
// is built at init, into the providers' settings and nowhere else. awsCfg is the AWS
// composition's SDK configuration; locally (nil) the default chain is loaded.
func withClientSecrets(ctx context.Context, cfg config.CRM, region string, awsCfg *aws.Config) (config.CRM, error) {
	for _, p := range []*config.CRMProvider{&cfg.HubSpot, &cfg.Salesforce, &cfg.Pipedrive} {
		if p.ClientSecretARN == "" {
			continue
		}
		if awsCfg == nil {
			loaded, err := awsconfig.LoadDefaultConfig(ctx, awsconfig.WithRegion(region))
			if err != nil {
				return cfg, fmt.Errorf("CRM client secret: load AWS configuration: %w", err)
			}
			awsCfg = &loaded
		}
		v, err := smsecret.String(ctx, secretsmanager.NewFromConfig(*awsCfg), p.ClientSecretARN)
		if err != nil {
			return cfg, fmt.Errorf("CRM client secret %s: %w", p.ClientSecretARN, err)
		}
		p.ClientSecret = v
	}
	return cfg, nil
}
