package contactsearch

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/contactsearch/contactworld"
	"github.com/firmoapi/firmo/shared/query"
	"github.com/firmoapi/firmo/shared/vector"
)

// fixture is a demo world seeded into a store, the service over it, and the truth the
// brute-force filters run on: every contact derived again, independently of the
// service's snapshot, with its employer's profile.
type fixture struct {
	svc     *Service
	queries *query.Service
	truth   []truthRow
}

type truthRow struct {
	c   contact.Contact
	raw contact.Raw
	p   company.Profile
}

var (
	fixOnce sync.Once
	fix     *fixture
	fixErr  error
)

const testOrg = "org-test"

func demo(t *testing.T) *fixture {
	t.Helper()
	fixOnce.Do(func() { fix, fixErr = newFixture() })
	if fixErr != nil {
		t.Fatal(fixErr)
	}
	return fix
}

func newFixture() (*fixture, error) {
	w, err := contactworld.Build()
	if err != nil {
		return nil, err
	}
	svc := New(Deps{Contacts: w.Contacts, Companies: w.Companies, Embedder: w.Embedder, Scopes: w.Queries, Saver: w.Queries, Dir: filepath.Join(w.Dir, "index")})
	if err := svc.Refresh(context.Background()); err != nil {
		return nil, err
	}
	f := &fixture{svc: svc, queries: w.Queries}
	for _, r := range w.Truth {
		f.truth = append(f.truth, truthRow{c: r.C, raw: r.Raw, p: r.P})
	}
	return f, nil
}

func ids(resp Response) []int64 {
	var out []int64
	for _, e := range resp.Results {
		for _, c := range e.Contacts {
			out = append(out, c.PersonaID)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func ptr[T any](v T) *T { return &v }

// demoSnapshot is the package's demo fixture and its current snapshot.
func demoSnapshot(t *testing.T) (*fixture, *snapshot) {
	t.Helper()
	f := demo(t)
	sn, err := f.svc.current(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return f, sn
}

// uncapped asks for everything: the sets compared are those before any result cap.
func uncapped(p Params) Params {
	p.MaxCompanies, p.ResultsByCompany = ptr(MaxMaxCompanies), ptr(0)
	return p
}

func industriesOf(p company.Profile) []string {
	var out []string
	for k := range p.IndustryGroups {
		out = append(out, k)
	}
	return out
}

func hasAny(have []string, want ...string) bool {
	for _, h := range have {
		for _, w := range want {
			if strings.EqualFold(h, w) {
				return true
			}
		}
	}
	return false
}

func equal(a, b []int64) bool {
	sort.Slice(b, func(i, j int) bool { return b[i] < b[j] })
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func minus(a, b []int64) []int64 {
	in := map[int64]bool{}
	for _, v := range b {
		in[v] = true
	}
	var out []int64
	for _, v := range a {
		if !in[v] {
			out = append(out, v)
		}
		if len(out) == 5 {
			break
		}
	}
	return out
}

func TestRecallAgainstExact(t *testing.T) {
	_, sn := demoSnapshot(t)
	ctx := context.Background()
	exact := vector.NewExact(sn.graph().Dims())
	for i, e := range sn.entries {
		exact.Upsert(ctx, e.C.PersonaID, sn.vecs[i])
	}
	r := rand.New(rand.NewPCG(1, 2))
	var sum float64
	const queries = 100
	for q := 0; q < queries; q++ {
		// Half the queries are contacts' own vectors, half lie between two contacts.
		v := append([]float32(nil), sn.vecs[r.IntN(len(sn.vecs))]...)
		if q%2 == 1 {
			for d, x := range sn.vecs[r.IntN(len(sn.vecs))] {
				v[d] += x
			}
			vector.Normalize(v)
		}
		got, err := sn.graph().Search(ctx, v, 10, vector.Filter{})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := exact.Search(ctx, v, 10, vector.Filter{})
		// ann-benchmarks' tie rule (as shared/hnswindex's benchmark): half-precision storage
		// rounds scores by about 1e-4, which reorders exact ties.
		sum += vector.RecallByScore(got, want, 1e-3)
	}
	if recall := sum / queries; recall < 0.95 {
		t.Fatalf("recall@10 = %.3f, want >= 0.95", recall)
	} else {
		t.Logf("recall@10 = %.3f over %d contacts", recall, len(sn.entries))
	}
}

// TestRecordShapeEveryMode: every contact record carries similarity (0-100 in
// similarity mode, 0 outside it) and a company entry's unknown employees bucket is
// null, as the company profile gives it, never "".
func TestRecordShapeEveryMode(t *testing.T) {
	f := demo(t)
	for _, tt := range []struct {
		name string
		p    Params
		sim  bool
	}{
		{"filter", Params{MaxCompanies: ptr(200), ResultsByCompany: ptr(2)}, false},
		{"similarity", Params{IcpText: "software engineering lead, kubernetes and go", MaxCompanies: ptr(30)}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req, err := Validate(tt.p)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := f.svc.Search(context.Background(), testOrg, req)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := json.Marshal(resp)
			var got struct {
				Results map[string]map[string]json.RawMessage `json:"results"`
			}
			if err := json.Unmarshal(raw, &got); err != nil || len(got.Results) == 0 {
				t.Fatalf("%v: %s", err, raw[:min(len(raw), 300)])
			}
			positive, unknown := 0, 0
			for dom, e := range got.Results {
				emp, ok := e["employees"]
				if !ok || string(emp) == `""` {
					t.Errorf("%s: employees %s (present %v), want a bucket or null", dom, emp, ok)
				}
				if string(emp) == "null" {
					unknown++
				}
				var contacts []map[string]any
				if err := json.Unmarshal(e["contacts"], &contacts); err != nil {
					t.Fatal(err)
				}
				for _, c := range contacts {
					s, ok := c["similarity"].(float64)
					if !ok || s < 0 || s > 100 || s != float64(int(s)) || (!tt.sim && s != 0) {
						t.Fatalf("%s persona %v: similarity %v (present %v)", dom, c["persona_id"], c["similarity"], ok)
					}
					if s > 0 {
						positive++
					}
				}
			}
			if tt.sim && positive == 0 {
				t.Error("no contact has a similarity above 0 in similarity mode")
			}
			t.Logf("%d companies, %d with employees unknown (null)", len(got.Results), unknown)
		})
	}
	for bucket, want := range map[string]string{"": `null`, "11-50": `"11-50"`} {
		b, _ := json.Marshal(entryOf(&companyInfo{Domain: "x.com", Employees: bucket}))
		if !strings.Contains(string(b), `"employees":`+want) {
			t.Errorf("entry with employees %q: %s", bucket, b)
		}
	}
}
