package task_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/account"
	"github.com/firmoapi/firmo/shared/account/accounttest"
	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/task"
	"github.com/firmoapi/firmo/shared/task/tasktest"
)

// localApp builds the embedded composition as `firmo serve` does, with test kinds
// registered before the task workers start.
func localApp(t *testing.T, dataDir string, kinds ...task.Kind) *allapp.App {
	t.Helper()
	env := map[string]string{"FIRMO_DATA_DIR": dataDir}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	a, err := allapp.NewLocal(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	for _, k := range kinds {
		if err := a.Tasks.Kinds().Register(k); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.StartTasks(context.Background()); err != nil {
		t.Fatal(err)
	}
	return a
}

type client struct {
	t   *testing.T
	url string
	key string
}

func (c client) do(method, path string) (int, map[string]any) {
	c.t.Helper()
	req, _ := http.NewRequest(method, c.url+path, nil)
	if c.key != "" {
		req.Header.Set("x-service-key", c.key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &body); err != nil {
		c.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	return resp.StatusCode, body
}

// poll reads the status until the task ends, checking that progress only rises.
func (c client) poll(id string) map[string]any {
	c.t.Helper()
	last := -1.0
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		code, body := c.do("GET", "/v1/gen/status/"+id)
		if code != 200 {
			c.t.Fatalf("status = %d %v", code, body)
		}
		p := body["progress"].(float64)
		if p < last {
			c.t.Fatalf("progress fell from %v to %v", last, p)
		}
		last = p
		switch body["status"] {
		case "completed", "cancelled", "failed":
			return body
		}
	}
	c.t.Fatal("task did not end within 60 s")
	return nil
}

// TestEndToEndOverHTTP is the acceptance run on the embedded composition, through the
// real router: submit 1,000 records of the test kind, poll GET /v1/gen/status to
// completion, check every row is there once; cancel a second task midway with
// DELETE /v1/gen/cancel; another organisation gets 404 on both.
func TestEndToEndOverHTTP(t *testing.T) {
	fast := &tasktest.Echo{Delay: time.Millisecond}
	slow := &tasktest.Echo{Delay: 20 * time.Millisecond, Prov: "slowapi"}
	a := localApp(t, t.TempDir(), fast.Kind("echo"), slow.Kind("slow"))
	ctx := context.Background()
	demo, err := a.EnsureDemo(ctx)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(a.Handler())
	t.Cleanup(srv.Close)
	c := client{t: t, url: srv.URL, key: demo.Key}

	sub, err := a.Tasks.Submit(ctx, task.Submission{OrgID: demo.Org.ID, Kind: "echo", Records: tasktest.Keys("site", 1000), Field: "domains"})
	if err != nil {
		t.Fatal(err)
	}
	done := c.poll(sub.TaskID)
	results, _ := done["results"].(map[string]any)
	if done["status"] != "completed" || done["progress"] != 100.0 || done["total_domains"] != 1000.0 || len(results) != 1000 {
		t.Fatalf("status %v, progress %v, total %v, %d results", done["status"], done["progress"], done["total_domains"], len(results))
	}
	for _, field := range []string{"task_id", "column_name", "estimated_cost", "response_format", "warnings", "cost_metadata"} {
		if _, ok := done[field]; !ok {
			t.Errorf("status answer lacks %s", field)
		}
	}
	if _, ok := done["interim_results"]; ok {
		t.Error("a completed task shows interim_results")
	}
	for i := range 1000 {
		k := fmt.Sprintf("site%d", i)
		row, _ := results[k].(map[string]any)
		if row["echo"] != k || fast.RunsOf(k) != 1 {
			t.Fatalf("row %s = %v after %d runs", k, row, fast.RunsOf(k))
		}
	}

	second, err := a.Tasks.Submit(ctx, task.Submission{OrgID: demo.Org.ID, Kind: "slow", Records: tasktest.Keys("s", 3000)})
	if err != nil {
		t.Fatal(err)
	}
	for {
		_, body := c.do("GET", "/v1/gen/status/"+second.TaskID)
		if interim, _ := body["interim_results"].(map[string]any); len(interim) >= 200 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	code, cancel := c.do("DELETE", "/v1/gen/cancel/"+second.TaskID)
	if code != 200 || cancel["success"] != true || cancel["status"] != "cancelling" || cancel["task_id"] != second.TaskID || cancel["message"] == "" {
		t.Fatalf("cancel = %d %v", code, cancel)
	}
	ended := c.poll(second.TaskID)
	kept, _ := ended["results"].(map[string]any)
	if ended["status"] != "cancelled" || len(kept) < 200 || len(kept) >= 3000 {
		t.Fatalf("after cancel: %v with %d rows", ended["status"], len(kept))
	}
	if runs := slow.Calls(); runs > len(kept)+50 {
		t.Fatalf("%d records ran for %d kept rows: records kept starting after the cancel", runs, len(kept))
	}

	other := otherOrgKey(t, a)
	for _, req := range [][2]string{{"GET", "/v1/gen/status/" + sub.TaskID}, {"DELETE", "/v1/gen/cancel/" + second.TaskID}} {
		if code, body := (client{t: t, url: srv.URL, key: other}).do(req[0], req[1]); code != 404 || body["error"].(map[string]any)["code"] != "not_found" {
			t.Errorf("%s %s from another organisation = %d %v, want 404", req[0], req[1], code, body)
		}
	}
	for _, tc := range []struct {
		method, path string
		key          string
		want         int
		field        string
	}{
		{"GET", "/v1/gen/status/not-a-uuid", demo.Key, 422, "task_id"},
		{"GET", "/v1/gen/status/" + sub.TaskID + "?verbose=1", demo.Key, 422, "verbose"},
		{"DELETE", "/v1/gen/cancel/" + strings.ToUpper(sub.TaskID), demo.Key, 200, ""}, // ids are case-insensitive
		{"GET", "/v1/gen/status/" + sub.TaskID, "", 401, ""},
		{"GET", "/v1/gen/status/3f1c2a4e-8b7d-4c1e-9a2b-5d6e7f8a9b0c", demo.Key, 404, ""},
	} {
		code, body := (client{t: t, url: srv.URL, key: tc.key}).do(tc.method, tc.path)
		if code != tc.want {
			t.Errorf("%s %s = %d %v, want %d", tc.method, tc.path, code, body, tc.want)
		}
		if tc.field != "" && body["error"].(map[string]any)["field"] != tc.field {
			t.Errorf("%s %s: error %v, want field %s", tc.method, tc.path, body["error"], tc.field)
		}
	}
}

func otherOrgKey(t *testing.T, a *allapp.App) string {
	t.Helper()
	return accounttest.OrgKey(t, a.Accounts, "Other Org", account.PlanEnterprise, "someone@other.example", account.RoleAdmin)
}
