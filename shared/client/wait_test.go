package client

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestPollCountsRecords: Poll reads a status answer's record counts: an email batch's
// completed and failed of total, and a progress percentage of total_rows or
// total_domains.
func TestPollCountsRecords(t *testing.T) {
	answers := map[string]string{
		"/batch":   `{"batch_id":"b","total":4,"completed":2,"failed":1,"results":[]}`,
		"/bulk":    `{"task_id":"t","status":"in_progress","progress":25,"total_rows":2000,"results":[]}`,
		"/segment": `{"task_id":"t","status":"completed","progress":100,"total_domains":7,"results":[]}`,
		"/gen":     `{"task_id":"t","status":"in_progress","progress":33,"total_domains":3}`,
		"/job":     `{"job_id":"j","status":"queued"}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, answers[r.URL.Path])
	}))
	defer srv.Close()
	c, err := New(Config{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]TaskStatus{
		"/batch":   {Status: "in_progress", Progress: 75, Done: 3, Total: 4},
		"/bulk":    {Status: "in_progress", Progress: 25, Done: 500, Total: 2000},
		"/segment": {Status: "completed", Progress: 100, Done: 7, Total: 7},
		"/gen":     {Status: "in_progress", Progress: 33, Done: 1, Total: 3},
		"/job":     {Status: "queued"},
	} {
		st, err := c.Poll(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Status != want.Status || st.Progress != want.Progress || st.Done != want.Done || st.Total != want.Total || st.Finished() != (want.Status == "completed") {
			t.Errorf("%s: %+v, want %+v", path, st, want)
		}
	}
}
