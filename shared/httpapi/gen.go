package httpapi

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/task"
)

// TaskService is what the generation family needs. task.Engine implements it.
type TaskService interface {
	Status(ctx context.Context, r task.Ref) (task.View, error)
	Cancel(ctx context.Context, r task.Ref) (task.Cancellation, error)
}

type genAPI struct{ tasks TaskService }

// GenerationRoutes are the generation family's task endpoints: status and cancel of
// every asynchronous task (batch research, ICP validation, contact generation). The
// caller's organisation scopes the task id: another organisation's task is a 404.
func GenerationRoutes(tasks TaskService) []Route {
	g := &genAPI{tasks: tasks}
	const fam = "generation"
	return []Route{
		{Method: "GET", Path: "/v1/gen/status/{task_id}", Family: fam, Handle: g.status},
		{Method: "DELETE", Path: "/v1/gen/cancel/{task_id}", Family: fam, Handle: g.cancel},
	}
}

func (g *genAPI) status(w http.ResponseWriter, r *http.Request) error {
	ref, err := taskRef(r)
	if err != nil {
		return err
	}
	v, err := g.tasks.Status(r.Context(), ref)
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusOK, v)
	return nil
}

func (g *genAPI) cancel(w http.ResponseWriter, r *http.Request) error {
	ref, err := taskRef(r)
	if err != nil {
		return err
	}
	c, err := g.tasks.Cancel(r.Context(), ref)
	if err != nil {
		return err
	}
	WriteJSON(w, http.StatusOK, c)
	return nil
}

// taskRef reads the task id (a UUID, as submissions return it) and scopes it to the
// caller's organisation. No query parameter is accepted.
func taskRef(r *http.Request) (task.Ref, error) {
	if _, err := ParseQuery(r.URL.Query()); err != nil {
		return task.Ref{}, err
	}
	id, err := uuid.Parse(r.PathValue("task_id"))
	if err != nil || len(r.PathValue("task_id")) != 36 {
		return task.Ref{}, apperr.Invalid("task_id", "task_id must be a UUID such as 3f1c2a4e-8b7d-4c1e-9a2b-5d6e7f8a9b0c")
	}
	return task.Ref{OrgID: Caller(r).Org.ID, TaskID: id.String()}, nil
}
