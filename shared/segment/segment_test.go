package segment

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/embed/ppmiembed"
)

// TestSegmentOmitsAndIsDeterministic: closed companies and unknown domains are left out
// and counted; every other company is assigned (probability in [0, 1], 0 exactly when
// unclustered); the same input gives the same segmentation; descriptions are distinct.
func TestSegmentOmitsAndIsDeterministic(t *testing.T) {
	companies, domains := newWorldCompanies(t, 400)
	closed := 0
	for _, d := range domains {
		if companies[d].Profile.Status.Status == company.StatusClosed {
			closed++
		}
	}
	input := append(append([]string(nil), domains...), "unknown-one.example", "unknown-two.example")
	s := New(Deps{Companies: companies, Embedder: ppmiembed.New()})
	sum, assigned, err := s.segment(context.Background(), input, 0)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Closed != closed || sum.Unindexed != 2 || sum.Assigned != len(domains)-closed || len(assigned) != sum.Assigned {
		t.Errorf("closed %d unindexed %d assigned %d (%d rows); want %d, 2, %d", sum.Closed, sum.Unindexed, sum.Assigned, len(assigned), closed, len(domains)-closed)
	}
	if len(sum.Segments) < 2 {
		t.Fatalf("%d segments of %d companies", len(sum.Segments), sum.Assigned)
	}
	seen := map[string]bool{}
	for _, sg := range sum.Segments {
		if sg.Description == "" || seen[sg.Description] || sg.Description == Unclustered {
			t.Errorf("segment %d description %q: empty, repeated or reserved", sg.ID, sg.Description)
		}
		seen[sg.Description] = true
		t.Logf("segment %d (%d): %s", sg.ID, sg.Size, sg.Description)
	}
	for _, a := range assigned {
		if a.Probability < 0 || a.Probability > 1 || (a.Segment < 0) != (a.Probability == 0) {
			t.Errorf("%s: segment %d probability %v", a.Domain, a.Segment, a.Probability)
		}
	}
	sum2, assigned2, err := s.segment(context.Background(), input, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(sum, sum2) || !reflect.DeepEqual(assigned, assigned2) {
		t.Error("the same input segmented twice differs")
	}
	capped, _, err := s.segment(context.Background(), input, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(capped.Segments) > 2 {
		t.Errorf("max_segments 2 gave %d segments", len(capped.Segments))
	}
}

// TestDescribeLabels: labels name the segment's industry, its distinguishing keywords
// and its country when most members share one, and stay distinct when two segments
// share an industry.
func TestDescribeLabels(t *testing.T) {
	mk := func(ind, country string, kws ...string) company.Profile {
		k := map[string]float64{}
		for i, w := range kws {
			k[w] = float64(10 - i)
		}
		return company.Profile{IndustryGroups: map[string]float64{ind: 1}, Keywords: k, Address: company.Address{Country: country}}
	}
	var profiles []company.Profile
	var labels []int
	for range 10 {
		profiles = append(profiles, mk("FINANCIAL_SERVICES", "DE", "payments", "checkout"))
		labels = append(labels, 0)
		profiles = append(profiles, mk("FINANCIAL_SERVICES", "FR", "insurance", "claims"))
		labels = append(labels, 1)
		profiles = append(profiles, mk("HEALTHCARE", "US", "clinic", "dental"))
		labels = append(labels, 2)
	}
	got := describe(profiles, labels, 3)
	t.Logf("%q", got)
	want := [][]string{{"payments", "Germany"}, {"insurance", "France"}, {"clinic", "United States"}}
	for c, words := range want {
		for _, w := range words {
			if !strings.Contains(got[c], w) {
				t.Errorf("segment %d label %q lacks %q", c, got[c], w)
			}
		}
	}
	if got[0] == got[1] {
		t.Errorf("two segments labelled %q", got[0])
	}
}

// TestDescribeMixedSegment: a segment no industry dominates is described by its
// distinctive terms, without an industry, and neither stop words nor size words ever
// label a segment.
func TestDescribeMixedSegment(t *testing.T) {
	mk := func(ind, desc string, kws ...string) company.Profile {
		k := map[string]float64{}
		for i, w := range kws {
			k[w] = float64(10 - i)
		}
		return company.Profile{IndustryGroups: map[string]float64{ind: 1}, Keywords: k, Description: desc}
	}
	var profiles []company.Profile
	var labels []int
	for i := range 12 {
		ind := "REAL_ESTATE"
		if i%2 == 1 {
			ind = "HOSPITALITY"
		}
		profiles = append(profiles, mk(ind, "Every small apartment, through every season.", "every", "small", "apartments", "stays", "booking"))
		labels = append(labels, 0)
		profiles = append(profiles, mk("LOGISTICS", "Large freight forwarding already.", "large", "freight", "trucks", "already"))
		labels = append(labels, 1)
	}
	got := describe(profiles, labels, 2)
	t.Logf("%q", got)
	if strings.Contains(got[0], "Real estate") || strings.Contains(got[0], "Hospitality") || !strings.Contains(got[0], "apartments") {
		t.Errorf("mixed segment labelled %q: want its terms, no industry", got[0])
	}
	if !strings.HasPrefix(got[1], "Logistics (") {
		t.Errorf("a one-industry segment labelled %q: want the industry first", got[1])
	}
	for _, l := range got {
		for _, w := range []string{"every", "small", "large", "through", "already"} {
			if strings.Contains(strings.ToLower(l), w) {
				t.Errorf("label %q shows %q", l, w)
			}
		}
	}
}
