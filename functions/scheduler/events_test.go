package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/firmoapi/firmo/shared/app/companyapp"
	"github.com/firmoapi/firmo/shared/app/localbackend"
	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/config"
	"github.com/firmoapi/firmo/shared/world"
)

// TestScheduleEvent feeds the sample EventBridge event through the scheduler's
// handler, composed as functions/scheduler composes it (the company family; without an
// OpenSearch cluster, so no name-index sync) on the embedded backend, over a small
// world loaded with its text-derived fields left to reprocessing: the first tick
// completes every company, the second finds the day's pass done.
func TestScheduleEvent(t *testing.T) {
	ctx := context.Background()
	raw, err := os.ReadFile("../../events/scheduler-schedule.json")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.DisallowUnknownFields()
	var ev events.EventBridgeEvent
	if err := dec.Decode(&ev); err != nil || ev.DetailType != "Scheduled Event" || ev.Source != "aws.events" {
		t.Fatalf("events/scheduler-schedule.json is not a scheduled event: %+v, %v", ev, err)
	}
	cfg, err := config.Load(func(k string) string { return map[string]string{"FIRMO_DATA_DIR": t.TempDir()}[k] })
	if err != nil {
		t.Fatal(err)
	}
	f := &companyapp.Composer{}
	core, err := localbackend.Build(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), f)
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	const companies = 12
	if _, err := world.Seed(ctx, f.Pipeline().Service, world.New(world.Options{Seed: 1, Companies: companies, AsOf: time.Now()}), company.LoadOptions{DeferText: true}, nil); err != nil {
		t.Fatal(err)
	}
	first, err := f.HandleEvent(ctx, ev)
	if err != nil {
		t.Fatal(err)
	}
	if r := first.Reprocess; r.Visited != companies || r.Refreshed != companies || r.Failed != 0 || !r.Complete || first.Names != nil {
		t.Fatalf("first tick = %+v (names %v), want every company refreshed, the pass complete, no name sync", r, first.Names)
	}
	second, err := f.HandleEvent(ctx, ev)
	if err != nil {
		t.Fatal(err)
	}
	if !second.Reprocess.Idle || second.Reprocess.Visited != 0 {
		t.Fatalf("second tick = %+v, want idle (today's pass is done)", second.Reprocess)
	}
}
