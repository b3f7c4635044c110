package emailhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/uuid"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/emailfind"
	"github.com/firmoapi/firmo/shared/httpapi"
)

// EmailService is what the email family needs. emailfind.Service implements it.
type EmailService interface {
	Submit(ctx context.Context, orgID string, b emailfind.Batch) (emailfind.Submitted, error)
	Job(ctx context.Context, orgID, jobID string) (emailfind.Job, error)
	Batch(ctx context.Context, orgID, batchID string) (emailfind.BatchView, error)
}

type emailAPI struct{ svc EmailService }

// EmailRoutes are the email family (Lambda "email"): find one person's address or a
// batch of up to 500, and poll the jobs. Jobs run on the task engine; a job's outcome
// (found, not_found, catch_all, ...) is a result, never an HTTP error.
func EmailRoutes(svc EmailService) []httpapi.Route {
	a := &emailAPI{svc: svc}
	const fam = httpapi.FamilyEmail
	return []httpapi.Route{
		{Method: "POST", Path: "/v1/email/find", Family: fam, Handle: a.find},
		{Method: "POST", Path: "/v1/email/find/batch", Family: fam, Handle: a.findBatch},
		{Method: "GET", Path: "/v1/email/jobs/{job_id}", Family: fam, Handle: a.job},
		{Method: "GET", Path: "/v1/email/batch/{batch_id}/results", Family: fam, Handle: a.batch},
	}
}

// findBody is the single find body.
type findBody struct {
	FirstName    *string `json:"first_name"`
	LastName     *string `json:"last_name"`
	Domain       *string `json:"domain"`
	KnownPattern *string `json:"known_pattern"`
}

func (b findBody) request() emailfind.Request {
	deref := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	return emailfind.Request{FirstName: deref(b.FirstName), LastName: deref(b.LastName), Domain: deref(b.Domain), KnownPattern: deref(b.KnownPattern)}
}

// FindAnswer is the answer of POST /v1/email/find.
type FindAnswer struct {
	JobID string `json:"job_id"`
}

func (a *emailAPI) find(w http.ResponseWriter, r *http.Request) error {
	if _, err := httpapi.ParseQuery(r.URL.Query()); err != nil {
		return err
	}
	var body findBody
	if err := httpapi.DecodeJSON(r, &body); err != nil {
		return err
	}
	sub, err := a.svc.Submit(r.Context(), httpapi.Caller(r).Org.ID, emailfind.Batch{
		Requests: []emailfind.Request{body.request()}, Single: true,
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, FindAnswer{JobID: sub.JobIDs[0]})
	return nil
}

// batchBody is the batch body. Refs are contact row ids: strings or integers.
type batchBody struct {
	Requests      *[]findBody       `json:"requests"`
	SourceQueryID *string           `json:"source_query_id"`
	Refs          []json.RawMessage `json:"refs"`
	Round         *string           `json:"round"`
}

// refID reads a contact row id given as a JSON string or integer.
func refID(i int, raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var n json.Number
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&n); err != nil || strings.ContainsAny(n.String(), ".eE") {
		return "", apperr.Invalid(fmt.Sprintf("refs[%d]", i), "a ref must be a string or an integer id")
	}
	return n.String(), nil
}

func (a *emailAPI) findBatch(w http.ResponseWriter, r *http.Request) error {
	if _, err := httpapi.ParseQuery(r.URL.Query()); err != nil {
		return err
	}
	var body batchBody
	if err := httpapi.DecodeJSON(r, &body); err != nil {
		return err
	}
	if body.Requests == nil {
		return apperr.Invalid("requests", "requests is required: an array of 1 to %d people", emailfind.MaxBatch)
	}
	var b emailfind.Batch
	for _, q := range *body.Requests {
		b.Requests = append(b.Requests, q.request())
	}
	if body.SourceQueryID != nil {
		b.SourceQueryID = *body.SourceQueryID
	}
	if body.Refs != nil {
		b.Refs = make([]string, len(body.Refs))
		for i, raw := range body.Refs {
			ref, err := refID(i, raw)
			if err != nil {
				return err
			}
			b.Refs[i] = ref
		}
	}
	if body.Round != nil {
		b.Round = emailfind.Round(strings.ToLower(strings.TrimSpace(*body.Round)))
		if b.Round == "" {
			return apperr.Invalid("round", "round must be verify or escalate")
		}
	}
	sub, err := a.svc.Submit(r.Context(), httpapi.Caller(r).Org.ID, b)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, sub)
	return nil
}

func (a *emailAPI) job(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "job_id")
	if err != nil {
		return err
	}
	j, err := a.svc.Job(r.Context(), httpapi.Caller(r).Org.ID, id)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, j)
	return nil
}

func (a *emailAPI) batch(w http.ResponseWriter, r *http.Request) error {
	id, err := pathUUID(r, "batch_id")
	if err != nil {
		return err
	}
	v, err := a.svc.Batch(r.Context(), httpapi.Caller(r).Org.ID, id)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, v)
	return nil
}

// pathUUID reads a UUID path parameter (ids are UUIDs, as submissions return them);
// anything else names no job and is a 404. No query parameter is accepted.
func pathUUID(r *http.Request, name string) (string, error) {
	if _, err := httpapi.ParseQuery(r.URL.Query()); err != nil {
		return "", err
	}
	raw := r.PathValue(name)
	id, err := uuid.Parse(raw)
	if err != nil {
		return "", &apperr.Error{Kind: apperr.ErrNotFound, Field: name, Message: "No email " + strings.TrimSuffix(name, "_id") + " has the id " + quoteShort(raw) + "."}
	}
	return id.String(), nil
}

func quoteShort(s string) string {
	if len(s) > 64 {
		s = s[:64] + "..."
	}
	b, _ := json.Marshal(s)
	return string(b)
}
