package client

import "github.com/firmoapi/firmo/shared/client/api"

// The answers below are the API reference's own types, generated into package api;
// the names here are the client's. The other request and response types of this
// package are written for a Go caller (plain values where the reference has optional
// pointers or "a list or one value" unions, an Order kept from the answer's JSON) and
// are checked against the generated ones by TestTypesAgreeWithTheGenerated.

// CompanyScore is the answer of GET /v1/score.
type CompanyScore = api.CompanyScore

// ScoreParameters are the inputs a company score was computed from.
type ScoreParameters = api.ScoreParameters

// ScoreConstants are the constants of a company score.
type ScoreConstants = api.ScoreParameters_Constants

// Industries is the answer of GET /v1/industries.
type Industries = api.Industries

// Industry is one industry with its sub-industries.
type Industry = api.Industries_Industries

// LabelValue is one sub-industry of an Industry.
type LabelValue = api.Industries_Industries_SubIndustries

// EmailFound is the address an email job found.
type EmailFound = api.EmailFound

// EmailResult is the outcome of an email job: Result is set when it is found, Detail
// says why for every other status.
type EmailResult = api.EmailResult

// EmailJob is the answer of GET /v1/email/jobs/{job_id}; Result is nil until the job
// is done.
type EmailJob = api.EmailJob

// EmailBatchResults is the answer of GET /v1/email/batch/{batch_id}/results.
type EmailBatchResults = api.EmailBatchResults

// TaskCancellation is the answer of DELETE /v1/gen/cancel/{task_id}.
type TaskCancellation = api.TaskCancellation

// CompanyProfile is a company's profile (GET /v1/bizdata).
type CompanyProfile = api.CompanyProfile

// Address is a company's postal address.
type Address = api.CompanyProfile_Address

// CompanyStatus is whether a company is active or closed, with a confidence.
type CompanyStatus = api.CompanyProfile_Status

// CertificateRecord is one certificate of a company's history (GET /v1/history).
type CertificateRecord = api.CertificateRecord

// MatchAnswer is the answer of GET /v1/match.
type MatchAnswer = api.MatchAnswer

// MatchQuery is the query a match answer echoes.
type MatchQuery = api.MatchAnswer_Query

// MatchCandidate is a company profile with how confidently it matches.
type MatchCandidate = api.MatchCandidate

// CRMConnection is an organisation's connection to a CRM.
type CRMConnection = api.CRMConnection

// SearchProvider is a configured web search provider.
type SearchProvider = api.SearchProvider

// SavedQuery is one saved query or list.
type SavedQuery = api.SavedQuery
