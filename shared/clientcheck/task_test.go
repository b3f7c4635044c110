package clientcheck_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/client"
)

// TestRunTask submits tasks before the server's task workers start, so that they stay
// in progress: RunTask with a short deadline returns the interim answer and
// ErrNotFinished, and once the workers run ResumeTask returns the completed result. A
// task cancelled while waiting ends with ErrTaskFailed; a bulk match run to its end
// returns every row, and its delivery is charged.
func TestRunTask(t *testing.T) {
	s := newServer(t, 60, nil)
	c := s.client(t)
	ctx := context.Background()
	w := s.world()
	var domains []string
	for i := range w.Len() {
		domains = append(domains, w.Domain(i))
	}
	opts := client.WaitOptions{Interval: 100 * time.Millisecond, MaxInterval: 300 * time.Millisecond}

	// A short deadline: the interim answer and ErrNotFinished.
	short, cancel := context.WithTimeout(ctx, 700*time.Millisecond)
	var polls []string
	opts.OnPoll = func(st *client.TaskStatus) { polls = append(polls, st.Status) }
	run, err := c.SegmentAndWait(short, client.SegmentRequest{Domains: domains}, opts)
	cancel()
	if !errors.Is(err, client.ErrNotFinished) {
		t.Fatalf("err = %v, want ErrNotFinished", err)
	}
	if run == nil || run.ID == "" || run.Result == nil || run.Result.TaskID != run.ID || run.Result.Status != "in_progress" || run.Polls < 2 {
		t.Fatalf("interim run %+v", run)
	}
	if len(polls) != run.Polls || polls[0] != "in_progress" {
		t.Fatalf("OnPoll saw %q, run counted %d polls", polls, run.Polls)
	}
	opts.OnPoll = nil

	// An ICP validation cancelled before it starts.
	icp, _, err := c.ValidateICP(ctx, client.ValidateICPRequest{ICPText: "Mandatory: B2B\nReject if: agencies\nNice-to-have: US", Domains: domains[:3], IntegrationID: "native-icp"})
	if err != nil {
		t.Fatal(err)
	}
	cn, _, err := c.CancelTask(ctx, icp.TaskID)
	if err != nil || !cn.Success || cn.Status != "cancelling" {
		t.Fatalf("cancel: %v %+v", err, cn)
	}

	s.start(t)

	// Resumed by its id: the completed result.
	done, err := client.ResumeTask[client.SegmentStatus](ctx, c, run.ID, client.SegmentStatusPath, opts)
	if err != nil {
		t.Fatal(err)
	}
	if done.Result.Status != "completed" || done.Result.TotalDomains != len(domains) || len(done.Result.Results) == 0 || done.Result.Progress != 100 {
		t.Fatalf("segment: %s at %d%%, %d of %d domains", done.Result.Status, done.Result.Progress, len(done.Result.Results), done.Result.TotalDomains)
	}

	cancelled, err := client.ResumeTask[client.GenerationTask](ctx, c, icp.TaskID, client.GenStatusPath, opts)
	if !errors.Is(err, client.ErrTaskFailed) || cancelled.Result == nil || cancelled.Result.Status != "cancelled" {
		t.Fatalf("cancelled task: %v %+v", err, cancelled)
	}

	// A bulk match to its end: every row, the delivery charged.
	var csv strings.Builder
	csv.WriteString("Company,Country\n")
	for i := range 40 {
		fmt.Fprintf(&csv, "%q,%s\n", w.Company(i).Row.Name, w.Company(i).Row.Country)
	}
	bm, err := c.BulkMatchAndWait(ctx, client.BulkMatchRequest{File: strings.NewReader(csv.String()), FileName: "names.csv", NameColumn: "Company", CountryColumn: "Country"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if bm.Result.Status != "completed" || bm.Result.TotalRows != 40 || len(bm.Result.Results) != 40 || bm.Submitted == nil || bm.Credits <= 0 {
		t.Fatalf("bulk match: %s, %d rows, %d results, %d credits", bm.Result.Status, bm.Result.TotalRows, len(bm.Result.Results), bm.Credits)
	}
	// The answer that delivered the rows is the one charged; the run sums every answer.
	if bm.Status.Credits <= 0 || bm.Credits < bm.Status.Credits {
		t.Fatalf("run credits %d, the delivering answer's %d", bm.Credits, bm.Status.Credits)
	}
}
