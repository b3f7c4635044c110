package company_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/company"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestReprocessRescoresDailyAndResumes(t *testing.T) {
	ctx := context.Background()
	clk := &clock{t: now}
	s := company.NewService(company.NewKVStore(newBolt(t)), company.NewDeriver(company.DeriverDeps{Now: clk.now}))

	var rows, certs strings.Builder
	for i := 0; i < 9; i++ {
		fmt.Fprintf(&rows, `{"domain":"co%d.com","name":"Co %d"}`+"\n", i, i)
		from := now.AddDate(0, 0, -80) // valid for 90 days: expires in 10 days
		fmt.Fprintf(&certs, `{"sha1_fingerprint":"%040d","fqdn":"co%d.com","date_from":%q,"date_to":%q}`+"\n", i, i, from.Format(time.RFC3339), from.AddDate(0, 0, 90).Format(time.RFC3339))
	}
	if _, err := s.IngestCompanies(ctx, strings.NewReader(rows.String()), company.FormatJSONL, company.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.IngestCertificates(ctx, strings.NewReader(certs.String()), company.FormatJSONL, company.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	first, _ := s.Profile(ctx, "co3.com")

	// Everything was derived today: the first pass only walks, the second is idle.
	rep, err := s.Reprocess(ctx, company.JobOptions{PageSize: 4})
	if err != nil || !rep.Complete || rep.Visited != 9 || rep.Rescored+rep.Refreshed != 0 {
		t.Fatalf("first pass = %+v, %v", rep, err)
	}
	if rep, _ := s.Reprocess(ctx, company.JobOptions{}); !rep.Idle {
		t.Fatalf("second call the same day = %+v, want idle", rep)
	}

	// Twenty days later the certificates have expired: rescoring must close them. The
	// run is cut short after five records and resumed by the next call.
	clk.t = now.AddDate(0, 0, 20)
	cut, cancel := context.WithCancel(ctx)
	seen := 0
	part, err := s.Reprocess(cut, company.JobOptions{PageSize: 2, OnRecord: func() {
		if seen++; seen == 5 {
			cancel()
		}
	}})
	if err != nil || part.Complete || part.Visited < 5 || part.Visited >= 9 {
		t.Fatalf("interrupted run = %+v, %v", part, err)
	}
	rest, err := s.Reprocess(ctx, company.JobOptions{PageSize: 2})
	if err != nil || !rest.Complete {
		t.Fatalf("resumed run = %+v, %v", rest, err)
	}
	if total := part.Visited + rest.Visited; total != 9 {
		t.Fatalf("visited %d records over two runs, want 9 (each once)", total)
	}
	if part.Rescored+rest.Rescored != 9 {
		t.Fatalf("rescored %d, want 9", part.Rescored+rest.Rescored)
	}
	later, _ := s.Profile(ctx, "co3.com")
	if first.Status.Status != company.StatusActive || later.Status.Status != company.StatusActive || later.Score != 1 {
		t.Fatalf("status %v -> %v, score %d -> %d", first.Status, later.Status, first.Score, later.Score)
	}
	if later.UpdateDate != company.Date(clk.t) {
		t.Fatalf("update_date = %s", later.UpdateDate)
	}
	clk.t = now.AddDate(0, 0, 60)
	if _, err := s.Reprocess(ctx, company.JobOptions{}); err != nil {
		t.Fatal(err)
	}
	closed, _ := s.Profile(ctx, "co3.com")
	if closed.Status.Status != company.StatusClosed || closed.EndDate == nil {
		t.Fatalf("after 50 days without a certificate: %+v", closed.Status)
	}
}

func TestReprocessFinishesInterruptedIngest(t *testing.T) {
	ctx := context.Background()
	clk := &clock{t: now}
	s := company.NewService(company.NewKVStore(newBolt(t)), company.NewDeriver(company.DeriverDeps{Now: clk.now}))
	// An ingest that stored its inputs and stopped before deriving: a new domain with a
	// certificate, and a known domain that got one more certificate.
	if _, err := s.IngestCompanies(ctx, strings.NewReader(`{"domain":"known.com","name":"Known"}`), company.FormatJSONL, company.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	c := company.Certificate{SHA1Fingerprint: strings.Repeat("e", 40), FQDN: "x.com", DateFrom: now.AddDate(0, -1, 0), DateTo: now.AddDate(0, 2, 0)}
	if err := s.EnsureRecord(ctx, "new.com"); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"new.com", "known.com"} {
		if _, err := s.AddCertificates(ctx, d, []company.Certificate{c}); err != nil {
			t.Fatal(err)
		}
	}
	clk.t = now.Add(time.Hour) // same day
	rep, err := s.Reprocess(ctx, company.JobOptions{})
	if err != nil || rep.Refreshed != 1 {
		t.Fatalf("same-day pass = %+v, %v; want the dirty record refreshed", rep, err)
	}
	clk.t = now.AddDate(0, 0, 1)
	rep, err = s.Reprocess(ctx, company.JobOptions{})
	if err != nil || rep.Refreshed != 1 || rep.Rescored != 1 {
		t.Fatalf("next-day pass = %+v, %v; want known.com refreshed (certificate count changed), new.com rescored", rep, err)
	}
	for _, d := range []string{"new.com", "known.com"} {
		p, _ := s.Profile(ctx, d)
		if p.StartDate == nil || p.Score == 0 {
			t.Errorf("%s not derived from its certificate: %+v", d, p)
		}
	}
}

func TestProfileOfAnUnderivedRecordIsDerivedOnRead(t *testing.T) {
	ctx := context.Background()
	s := newService(t)
	if err := s.EnsureRecord(ctx, "half.com"); err != nil {
		t.Fatal(err)
	}
	c := company.Certificate{SHA1Fingerprint: strings.Repeat("f", 40), FQDN: "half.com", DateFrom: now.AddDate(0, -2, 0), DateTo: now.AddDate(0, 1, 0)}
	if _, err := s.AddCertificates(ctx, "half.com", []company.Certificate{c}); err != nil {
		t.Fatal(err)
	}
	p, err := s.Profile(ctx, "www.half.com")
	if err != nil || p.Domain != "half.com" || p.StartDate == nil || p.UpdateDate == "" {
		t.Fatalf("profile = %+v, %v", p, err)
	}
}
