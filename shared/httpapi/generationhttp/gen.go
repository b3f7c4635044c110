package generationhttp

import (
	"context"
	"net/http"

	"github.com/firmoapi/firmo/shared/httpapi"
	"github.com/firmoapi/firmo/shared/task"
)

// TaskService is what the generation family needs. task.Engine implements it.
type TaskService interface {
	StatusPage(ctx context.Context, r task.Ref, p task.Page) (task.View, error)
	Cancel(ctx context.Context, r task.Ref) (task.Cancellation, error)
}

type genAPI struct{ tasks TaskService }

// GenerationRoutes are the generation family's task endpoints. Status reads the kinds
// that list task.GenStatusRoute (batch research, ICP validation, contact generation);
// a bulk match or an email batch is a 404 here, as the engine's Status decides, since
// each is read (and bulk match billed) on its own route. Cancel stops only the kinds
// status reads (task.GenCancelRoute): any other kind is a 404 there too. The caller's
// organisation scopes the task id: another organisation's task is a 404.
func GenerationRoutes(tasks TaskService) []httpapi.Route {
	g := &genAPI{tasks: tasks}
	const fam = httpapi.FamilyGeneration
	return []httpapi.Route{
		{Method: "GET", Path: "/v1/gen/status/{task_id}", Family: fam, Handle: g.status},
		{Method: "DELETE", Path: "/v1/gen/cancel/{task_id}", Family: fam, Handle: g.cancel},
	}
}

func (g *genAPI) status(w http.ResponseWriter, r *http.Request) error {
	ref, p, err := httpapi.TaskRefPage(r)
	if err != nil {
		return err
	}
	v, err := g.tasks.StatusPage(r.Context(), ref, p)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, v)
	return nil
}

func (g *genAPI) cancel(w http.ResponseWriter, r *http.Request) error {
	ref, err := httpapi.TaskRef(r)
	if err != nil {
		return err
	}
	c, err := g.tasks.Cancel(r.Context(), ref)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, c)
	return nil
}
