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
	return taskRef(r)
}

func taskRef(r *http.Request) (task.Ref, error) {
	id, err := uuid.Parse(r.PathValue("task_id"))
	if err != nil || len(r.PathValue("task_id")) != 36 {
		return task.Ref{}, apperr.Invalid("task_id", "task_id must be a UUID such as 3f1c2a4e-8b7d-4c1e-9a2b-5d6e7f8a9b0c")
	}
	return task.Ref{OrgID: Caller(r).Org.ID, TaskID: id.String()}, nil
}

// TaskRefPage is TaskRef for a route that pages a task's results: it also reads offset
// (default 0) and limit (default task.DefaultPageLimit, at most task.MaxPageLimit); no
// other query parameter is accepted.
func TaskRefPage(r *http.Request) (task.Ref, task.Page, error) {
	p, err := TaskPage(r)
	if err != nil {
		return task.Ref{}, p, err
	}
	ref, err := taskRef(r)
	return ref, p, err
}

// TaskPage reads offset and limit (TaskRefPage) and accepts no other query parameter.
func TaskPage(r *http.Request) (task.Page, error) {
	q, err := ParseQuery(r.URL.Query(), "offset", "limit")
	if err != nil {
		return task.Page{}, err
	}
	offset, err := q.Int("offset", 0, 0, task.MaxRecords)
	if err != nil {
		return task.Page{}, err
	}
	limit, err := q.Int("limit", task.DefaultPageLimit, 1, task.MaxPageLimit)
	if err != nil {
		return task.Page{}, err
	}
	return task.CheckPage(task.Page{Offset: offset, Limit: limit})
}
