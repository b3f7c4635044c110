package crm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/domain"
	"github.com/firmoapi/firmo/shared/kv"
	"github.com/firmoapi/firmo/shared/query"
	"github.com/firmoapi/firmo/shared/task"
)

// Snapshot kinds.
const (
	KindCompanies = "companies"
	KindContacts  = "contacts"
)

// TaskKind is the task kind of a suppression snapshot.
const TaskKind = "crm_suppress"

// SnapshotTimeout bounds one attempt of a snapshot: 100,000 HubSpot companies take
// 1,000 requests, about 110 s at HubSpot's 100 requests per 10 s.
const SnapshotTimeout = 4 * time.Minute

// Kind is the task kind to register on the engine.
func (s *Service) Kind(statusRoutes ...string) task.Kind {
	return task.Kind{Name: TaskKind, Processor: processor{s}, Columns: []string{"snapshot"}, Timeout: SnapshotTimeout, StatusRoutes: statusRoutes}
}

// Suppression is the answer to a suppress request.
type Suppression struct {
	Message  string `json:"message"`
	Provider string `json:"provider"`
	Kind     string `json:"kind"`
	TaskID   string `json:"task_id"`
}

// params are a snapshot task's parameters.
type params struct {
	Provider string `json:"provider"`
	Kind     string `json:"kind"`
	UserID   string `json:"user_id"`
	UserName string `json:"user_name"`
}

// Suppress starts a snapshot of the organisation's CRM into an exclusion list: kind
// companies (by website, as registrable domains) or contacts (emails resolved to
// persona ids). The connection must exist and be active.
func (s *Service) Suppress(ctx context.Context, orgID string, by query.Actor, provider, kind string) (Suppression, error) {
	if kind != KindCompanies && kind != KindContacts {
		return Suppression{}, apperr.Invalid("kind", "kind must be companies or contacts, not %q", kind)
	}
	if _, err := s.setup(provider); err != nil {
		return Suppression{}, err
	}
	r, _, err := s.getRecord(ctx, orgID, provider)
	if err != nil {
		return Suppression{}, err
	}
	if r.Status == StatusNeedsReauth {
		return Suppression{}, needsReauth(provider)
	}
	p, err := json.Marshal(params{Provider: provider, Kind: kind, UserID: by.UserID, UserName: by.UserName})
	if err != nil {
		return Suppression{}, err
	}
	sub, err := s.d.Tasks.Submit(ctx, task.Submission{OrgID: orgID, Kind: TaskKind, Records: []task.Input{{Key: provider + ":" + kind}}, Params: p, Field: "snapshot"})
	if err != nil {
		return Suppression{}, err
	}
	return Suppression{
		Message:  fmt.Sprintf("The %s %s snapshot started; its exclusion list appears among your saved queries when it completes.", Title(provider), kind),
		Provider: provider, Kind: kind, TaskID: sub.TaskID,
	}, nil
}

// Snapshot is a completed snapshot, the task's result row.
type Snapshot struct {
	QueryID   string `json:"query_id"`
	QueryName string `json:"query_name"`
	Provider  string `json:"provider"`
	Kind      string `json:"kind"`
	// Read counts the values the CRM returned (websites or emails, empty ones left out).
	Read int `json:"read"`
	// Kept counts the list's entries: distinct domains or persona ids.
	Kept int `json:"kept"`
	// Skipped counts values left out: websites that are no domain, emails the contact
	// index does not know.
	Skipped int `json:"skipped"`
}

type processor struct{ s *Service }

// Provider is the engine's lane: every CRM snapshot shares one.
func (processor) Provider() string { return "crm" }

func (p processor) Process(ctx context.Context, rec task.Record) (task.Result, error) {
	var prm params
	if err := json.Unmarshal(rec.Params, &prm); err != nil {
		return task.Result{}, fmt.Errorf("decode snapshot parameters: %w", err)
	}
	snap, err := p.s.snapshot(ctx, rec.OrgID, prm)
	if err != nil {
		return task.Result{}, err
	}
	row := map[string]any{}
	b, _ := json.Marshal(snap)
	var v any
	json.Unmarshal(b, &v)
	row["snapshot"] = v
	var warnings []string
	if snap.Skipped > 0 {
		what := "websites that are no domain"
		if prm.Kind == KindContacts {
			what = "emails the contact index does not know"
		}
		warnings = append(warnings, fmt.Sprintf("%d %s were skipped.", snap.Skipped, what))
	}
	return task.Result{Row: row, Warnings: warnings}, nil
}

// snapshot pages through the CRM and saves the list.
func (s *Service) snapshot(ctx context.Context, org string, prm params) (Snapshot, error) {
	r, _, err := s.getRecord(ctx, org, prm.Provider)
	if err != nil {
		return Snapshot{}, err // removed since the request: not worth retrying
	}
	if r.Status == StatusNeedsReauth {
		return Snapshot{}, needsReauth(prm.Provider)
	}
	st, err := s.setup(prm.Provider)
	if err != nil {
		return Snapshot{}, err
	}
	conn := s.conn(org, r, st, false)
	snap := Snapshot{Provider: prm.Provider, Kind: prm.Kind}
	var list query.NewList
	switch prm.Kind {
	case KindCompanies:
		seen := map[string]bool{}
		err = st.Provider.Companies(ctx, conn, func(websites []string) error {
			for _, w := range websites {
				if strings.TrimSpace(w) == "" {
					continue
				}
				snap.Read++
				d, err := domain.Normalize(w)
				if err != nil {
					snap.Skipped++
					continue
				}
				if !seen[d] {
					seen[d] = true
					list.Domains = append(list.Domains, d)
				}
			}
			return nil
		})
		snap.Kept = len(list.Domains)
	case KindContacts:
		seen := map[string]bool{}
		ids := map[int64]bool{}
		err = st.Provider.ContactEmails(ctx, conn, func(emails []string) error {
			for _, e := range emails {
				e = strings.ToLower(strings.TrimSpace(e))
				if e == "" || seen[e] {
					continue
				}
				seen[e] = true
				snap.Read++
				id, err := s.d.People.PersonaByEmail(ctx, e)
				if errors.Is(err, apperr.ErrNotFound) {
					snap.Skipped++
					continue
				}
				if err != nil {
					return err
				}
				if !ids[id] {
					ids[id] = true
					list.PersonaIDs = append(list.PersonaIDs, id)
				}
			}
			return nil
		})
		snap.Kept = len(list.PersonaIDs)
	default:
		return Snapshot{}, fmt.Errorf("snapshot kind %q: %w", prm.Kind, apperr.ErrInvalid)
	}
	if err != nil {
		if errors.Is(err, ErrTokenRejected) || errors.Is(err, ErrNeedsReauth) {
			s.setStatus(ctx, org, prm.Provider, StatusNeedsReauth)
			return Snapshot{}, needsReauth(prm.Provider)
		}
		return Snapshot{}, fmt.Errorf("read %s %s: %w", prm.Provider, prm.Kind, err)
	}
	q, err := s.saveList(ctx, org, prm, snap, list)
	if err != nil {
		return Snapshot{}, err
	}
	snap.QueryID, snap.QueryName = q.ID, q.Name
	s.d.Log.InfoContext(ctx, "crm snapshot saved", "org_id", org, "provider", prm.Provider, "kind", prm.Kind, "query_id", q.ID, "read", snap.Read, "kept", snap.Kept, "skipped", snap.Skipped)
	return snap, nil
}

// saveList replaces the contents of the list an earlier snapshot of the same provider
// and kind made (its id stays), or creates it.
func (s *Service) saveList(ctx context.Context, org string, prm params, snap Snapshot, list query.NewList) (query.Query, error) {
	meta, err := json.Marshal(map[string]any{"source": "crm", "provider": prm.Provider, "kind": prm.Kind,
		"snapshot_at": s.d.Now().UTC().Format(time.RFC3339), "read": snap.Read, "skipped": snap.Skipped})
	if err != nil {
		return query.Query{}, err
	}
	list.Params = meta
	key := listKey(org, prm.Provider, prm.Kind)
	it, err := s.d.Store.Get(ctx, key)
	switch {
	case err == nil:
		q, err := s.d.Lists.Replace(ctx, org, string(it.Data), list)
		if err == nil || !errors.Is(err, apperr.ErrNotFound) {
			return q, err
		}
		// The list was deleted: make a new one.
	case !errors.Is(err, apperr.ErrNotFound):
		return query.Query{}, fmt.Errorf("read the %s %s list: %w", prm.Provider, prm.Kind, err)
	}
	list.Name, list.Action = fmt.Sprintf("%s %s (CRM snapshot)", Title(prm.Provider), prm.Kind), query.ActionExclusionList
	q, err := s.d.Lists.CreateList(ctx, org, query.Actor{UserID: prm.UserID, UserName: prm.UserName}, list)
	if err != nil {
		return query.Query{}, err
	}
	if _, err := s.d.Store.Put(ctx, key, []byte(q.ID), kv.Cond{}); err != nil {
		return query.Query{}, fmt.Errorf("remember the %s %s list: %w", prm.Provider, prm.Kind, err)
	}
	return q, nil
}
