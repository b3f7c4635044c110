package config

import (
	"strings"
	"testing"
)

// TestCRMSettings: each provider's client and URL overrides are read under its own
// prefix, the redirect base loses a trailing slash, a bad URL is refused naming the
// setting, and the fake providers cannot be started on AWS.
func TestCRMSettings(t *testing.T) {
	env := map[string]string{
		"FIRMO_CRM_REDIRECT_BASE_URL":        "https://api.example.com/",
		"FIRMO_CRM_HUBSPOT_CLIENT_ID":        "hub-id",
		"FIRMO_CRM_HUBSPOT_CLIENT_SECRET":    "hub-secret",
		"FIRMO_CRM_HUBSPOT_API_URL":          "http://127.0.0.1:9000/",
		"FIRMO_CRM_PIPEDRIVE_CLIENT_ID":      "pd-id",
		"FIRMO_CRM_SALESFORCE_TOKEN_URL":     "http://127.0.0.1:9001/services/oauth2/token",
		"FIRMO_CRM_SALESFORCE_CLIENT_ID":     "sf-id",
		"FIRMO_CRM_SALESFORCE_AUTH_URL":      "http://127.0.0.1:9001/services/oauth2/authorize",
		"FIRMO_CRM_SALESFORCE_CLIENT_SECRET": "sf-secret",
	}
	c, err := Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	crm := c.CRM
	if crm.RedirectBaseURL != "https://api.example.com" || crm.HubSpot.ClientID != "hub-id" || crm.HubSpot.APIURL != "http://127.0.0.1:9000" ||
		crm.Salesforce.TokenURL != env["FIRMO_CRM_SALESFORCE_TOKEN_URL"] || crm.Salesforce.AuthURL != env["FIRMO_CRM_SALESFORCE_AUTH_URL"] {
		t.Fatalf("crm = %+v", crm)
	}
	if !crm.HubSpot.Configured() || !crm.Salesforce.Configured() || crm.Pipedrive.Configured() {
		t.Fatalf("configured: hubspot %v salesforce %v pipedrive %v; want true true false", crm.HubSpot.Configured(), crm.Salesforce.Configured(), crm.Pipedrive.Configured())
	}
	env["FIRMO_CRM_PIPEDRIVE_AUTH_URL"] = "not a url"
	env["FIRMO_CRM_FAKES"] = "true"
	env["FIRMO_BACKEND"] = "aws"
	_, err = Load(func(k string) string { return env[k] })
	if err == nil || !strings.Contains(err.Error(), "FIRMO_CRM_PIPEDRIVE_AUTH_URL") || !strings.Contains(err.Error(), "FIRMO_CRM_FAKES") {
		t.Fatalf("err = %v, want both settings named", err)
	}
}
