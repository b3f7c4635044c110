package httpapi

import (
	"net/http"

	"github.com/google/uuid"

	"github.com/firmoapi/firmo/shared/apperr"
	"github.com/firmoapi/firmo/shared/task"
)

// TaskRef reads the task id (a UUID, as submissions return it) and scopes it to the
// caller's organisation. No query parameter is accepted.
func TaskRef(r *http.Request) (task.Ref, error) {
	if _, err := ParseQuery(r.URL.Query()); err != nil {
		return task.Ref{}, err
	}
	id, err := uuid.Parse(r.PathValue("task_id"))
	if err != nil || len(r.PathValue("task_id")) != 36 {
		return task.Ref{}, apperr.Invalid("task_id", "task_id must be a UUID such as 3f1c2a4e-8b7d-4c1e-9a2b-5d6e7f8a9b0c")
	}
	return task.Ref{OrgID: Caller(r).Org.ID, TaskID: id.String()}, nil
}
