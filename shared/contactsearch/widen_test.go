package contactsearch

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

// TestExactScanWidensOnlyWhenShort: a search the index scans exactly first asks for the
// page's own length and widens to need only when the caps leave that list short. Its
// answer must be the one a single scan for need gives (the previous path), contact for
// contact with the same similarity, under max_records, results_by_company, offset and
// max_companies; the cases must include pages the short list settles and pages that need
// the wide one.
func TestExactScanWidensOnlyWhenShort(t *testing.T) {
	fx, sn := demoSnapshot(t)
	svc, ctx := fx.svc, context.Background()
	g := sn.graph()
	if g == nil {
		t.Fatal("the demo snapshot has no graph")
	}
	filters := map[string]Params{
		"executive":    {Seniority: Strings{"executive", "director"}},
		"has-phone":    {HasPhone: ptr(true)},
		"technology":   {Department: Strings{"Technology"}},
		"has-email-vp": {HasEmail: ptr(true), Seniority: Strings{"vp", "director", "manager"}},
		"has-linkedin": {HasLinkedin: ptr(true)},
	}
	limits := map[string]Params{
		"default":            {},
		"rbc1":               {ResultsByCompany: ptr(1), MaxRecords: ptr(40)},
		"rbc2-200":           {ResultsByCompany: ptr(2), MaxRecords: ptr(200)},
		"rbc0-offset":        {ResultsByCompany: ptr(0), MaxRecords: ptr(30), Offset: 20},
		"max-companies-3x2":  {MaxCompanies: ptr(3), ResultsByCompany: ptr(2)},
		"max-companies-8x1":  {MaxCompanies: ptr(8), ResultsByCompany: ptr(1)},
		"max-companies-50":   {MaxCompanies: ptr(50), ResultsByCompany: ptr(3)},
		"max-companies-rbc0": {MaxCompanies: ptr(4), ResultsByCompany: ptr(0)},
	}
	texts := []string{"software engineer cloud infrastructure", "sales director enterprise accounts", "chief financial officer"}
	settled, widened := 0, 0
	for fname, fp := range filters {
		for lname, lp := range limits {
			for ti, text := range texts {
				p := fp
				p.IcpText = text
				p.MaxRecords, p.MaxCompanies, p.ResultsByCompany, p.Offset = lp.MaxRecords, lp.MaxCompanies, lp.ResultsByCompany, lp.Offset
				name := fmt.Sprintf("%s/%s/%d", fname, lname, ti)
				req, err := Validate(p)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				f, err := svc.filtersOf(sn, req)
				if err != nil {
					t.Fatal(err)
				}
				q, skip, err := svc.queryVector(ctx, sn, req)
				if err != nil {
					t.Fatal(err)
				}
				filter, allowed, release := sn.vectorFilter(&f, nil, skip, svc.embedder.Dims())
				sizes := exactSizes(req.Limits)
				full := sizes[len(sizes)-1]
				exact := filter.Active() && g.ScansExactly(filter, sizes[0]) && g.ScansExactly(filter, full)
				var wide []Ranked
				var wideScores []float32
				if exact {
					hits, err := svc.nearestExcept(ctx, sn, q, min(allowed, full), filter, skip)
					if err != nil {
						t.Fatal(err)
					}
					for _, h := range hits {
						i := sn.byID[h.ID]
						wide = append(wide, Ranked{Index: i, Domain: sn.entries[i].C.Domain})
						wideScores = append(wideScores, h.Score)
					}
				}
				release()
				if !exact {
					continue
				}
				if len(sizes) > 1 && len(wide) > sizes[0] {
					if pageSettled(wide[:sizes[0]], req.Limits) {
						settled++
					} else {
						widened++
					}
				}
				ranked, scores, err := svc.rank(ctx, sn, testOrg, req)
				if err != nil {
					t.Fatal(err)
				}
				want, got := Select(wide, req.Limits), Select(ranked, req.Limits)
				if !slices.EqualFunc(want, got, func(a, b Group) bool { return a.Domain == b.Domain && slices.Equal(a.Members, b.Members) }) {
					t.Fatalf("%s: page differs from the single wide scan's:\n got %v\nwant %v", name, got, want)
				}
				for k, r := range wide {
					for _, g := range want {
						if slices.Contains(g.Members, r.Index) && scores[r.Index] != wideScores[k] {
							t.Fatalf("%s: contact %d scores %v, the wide scan %v", name, r.Index, scores[r.Index], wideScores[k])
						}
					}
				}
				resp, err := svc.Search(ctx, testOrg, req)
				if err != nil {
					t.Fatal(err)
				}
				if len(resp.Results) != len(want) {
					t.Fatalf("%s: Search gives %d companies, the wide scan's page %d", name, len(resp.Results), len(want))
				}
			}
		}
	}
	t.Logf("exact-plan cases: %d settled by the short scan, %d widened", settled, widened)
	if settled == 0 || widened == 0 {
		t.Fatalf("the cases must include pages the short list settles (%d) and pages that widen (%d)", settled, widened)
	}
}
