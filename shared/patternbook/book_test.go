package patternbook

import (
	"context"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/contact"
	"github.com/firmoapi/firmo/shared/emailpattern"
	"github.com/firmoapi/firmo/shared/kv/boltkv"
	"github.com/firmoapi/firmo/shared/patternstore"
)

func openBook(t *testing.T) (*Book, *contact.Store) {
	t.Helper()
	store, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	cs := contact.NewStore(store)
	return New(Deps{Contacts: cs, Store: store}), cs
}

func putContacts(t *testing.T, cs *contact.Store, domain string, emails map[string]string) {
	t.Helper()
	id := int64(1)
	for name, email := range emails {
		if _, err := cs.Put(context.Background(), contact.Raw{PersonaID: id, Name: name, Domain: domain, Email: email}); err != nil {
			t.Fatal(err)
		}
		id++
	}
}

// TestReadOnceWhateverTheCallers: concurrent first callers share one read of the
// contact store; a caller whose context ends first does not spoil it for the others,
// and the pattern learned from the store's addresses is the one answered.
func TestReadOnceWhateverTheCallers(t *testing.T) {
	b, cs := openBook(t)
	putContacts(t, cs, "acme.com", map[string]string{"jane doe": "jane.doe@acme.com", "john smith": "john.smith@acme.com", "ann lee": "ann.lee@acme.com"})
	ctx := context.Background()
	gone, cancel := context.WithCancel(ctx)
	cancel() // this caller has already given up
	if _, _, err := b.CompanyPattern(gone, "acme.com"); err == nil {
		t.Fatal("a cancelled caller got an answer before the read could end")
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			p, ok, err := b.CompanyPattern(wctx, "acme.com")
			if err != nil || !ok || p.Template != "{first}.{last}" || p.Matches != 3 {
				t.Errorf("pattern = %+v, %v, %v; want {first}.{last} from 3 addresses", p, ok, err)
			}
		}()
	}
	wg.Wait()
}

// TestRecordedAddressesCount: addresses recorded from pages and finds are evidence
// with their sources, alongside the contacts', and the same answer reaches both forms.
func TestRecordedAddressesCount(t *testing.T) {
	b, cs := openBook(t)
	putContacts(t, cs, "beta.de", map[string]string{"jörg müller": "jmueller@beta.de"})
	ctx := context.Background()
	if err := b.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	before, ok := b.Pattern(ctx, "beta.de")
	if !ok || before.Evidence.Fit != 1 {
		t.Fatalf("before = %+v, %v", before, ok)
	}
	for _, o := range []emailpattern.Observation{
		{Domain: "beta.de", Name: "Sven Olsen", Email: "solsen@beta.de", Source: "page:https://beta.de/team"},
		{Domain: "beta.de", Name: "Eva Kühn", Email: "ekuehn@beta.de", Source: "found:job-1"},
		{Domain: "beta.de", Name: "", Email: "info@beta.de", Source: "page:https://beta.de/"}, // no name: ignored
	} {
		if err := b.Record(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	after, ok := b.Pattern(ctx, "beta.de")
	if !ok || after.Template != "{f}{last}" || after.Evidence.Fit != 3 || after.Evidence.Contradict != 0 {
		t.Fatalf("after = %+v, %v; want {f}{last} from 3 addresses", after, ok)
	}
	if after.Confidence <= before.Confidence {
		t.Fatalf("confidence %v -> %v with two more fitting addresses", before.Confidence, after.Confidence)
	}
	sources := map[string]bool{}
	for _, e := range after.Evidence.Examples {
		sources[e.Source] = true
	}
	if !sources["page:https://beta.de/team"] || !sources["found:job-1"] {
		t.Fatalf("examples %+v lack the recorded sources", after.Evidence.Examples)
	}
	p, ok, err := b.CompanyPattern(ctx, "beta.de")
	if err != nil || !ok || p.Template != after.Template || p.Confidence != after.Confidence {
		t.Fatalf("CompanyPattern = %+v; Pattern = %+v: the two forms disagree", p, after)
	}
	if _, ok := b.Pattern(ctx, "unknown.example"); ok {
		t.Fatal("a pattern for a domain with no address")
	}
}

// TestPublishedPatternsAnswerAsTheBook: after Publish, patternstore.Reader answers every
// domain's pattern exactly as the book does, and nothing for a domain without one.
func TestPublishedPatternsAnswerAsTheBook(t *testing.T) {
	ctx := context.Background()
	b, cs := openBook(t)
	putContacts(t, cs, "acme.com", map[string]string{"Jane Doe": "jane.doe@acme.com", "John Smith": "john.smith@acme.com", "Ann Lee": "ann.lee@acme.com"})
	if _, err := cs.Put(ctx, contact.Raw{PersonaID: 10, Name: "Max Mustermann", Domain: "beta.de", Email: "mmustermann@beta.de"}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.Put(ctx, contact.Raw{PersonaID: 11, Name: "Erika Muster", Domain: "beta.de", Email: "emuster@beta.de"}); err != nil {
		t.Fatal(err)
	}
	n, err := b.Publish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st := patternstore.Reader{Store: b.store}
	if got := sameAnswers(t, b, st, "acme.com", "beta.de", "none.org"); got != 2 || n != 2 {
		t.Fatalf("%d published, %d answered; want 2", n, got)
	}
	if l, _ := st.Pattern(ctx, "ACME.com"); l.Template != "{first}.{last}" {
		t.Fatalf("acme.com: %+v", l)
	}
}

// sameAnswers checks that the reader answers each domain as the book (refreshed) does,
// and returns how many have a pattern.
func sameAnswers(t *testing.T, b *Book, st patternstore.Reader, domains ...string) int {
	t.Helper()
	ctx := context.Background()
	if err := b.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	got := 0
	for _, dom := range domains {
		want, wok := b.Pattern(ctx, dom)
		have, hok := st.Pattern(ctx, dom)
		if wok != hok || !reflect.DeepEqual(want, have) {
			t.Fatalf("%s: stored %+v %v, book %+v %v", dom, have, hok, want, wok)
		}
		if hok {
			got++
		}
	}
	return got
}

// storeAddresses reads a domain's contacts from the contact store (the deployment reads
// them from the contacts index: shared/company/oscontactfields).
type storeAddresses struct{ cs *contact.Store }

func (s storeAddresses) DomainAddresses(ctx context.Context, domain string) ([]emailpattern.Observation, error) {
	var out []emailpattern.Observation
	err := s.cs.List(ctx, func(r contact.Raw) error {
		if r.Email != "" && strings.EqualFold(r.Domain, domain) {
			out = append(out, emailpattern.Observation{Domain: r.Domain, Name: r.Name, Email: r.Email, Source: "contact:" + strconv.FormatInt(r.PersonaID, 10)})
		}
		return nil
	})
	return out, err
}

// TestDomainPublishesKeepTheBooksAnswer: after a full Publish, each change (contacts
// that flip a domain's pattern, a new domain, an address recorded elsewhere) is followed
// by publishing only the changed domain (directly or through its dirty mark), and the
// published answer of every domain, the unchanged ones included (the model moved), stays
// the book's.
func TestDomainPublishesKeepTheBooksAnswer(t *testing.T) {
	ctx := context.Background()
	store, err := boltkv.Open(filepath.Join(t.TempDir(), "kv.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	cs := contact.NewStore(store)
	b := New(Deps{Contacts: cs, Store: store, MarkDirty: true})
	st := patternstore.Reader{Store: store}
	pub := patternstore.Publisher{Store: store, Contacts: storeAddresses{cs}}
	id := int64(0)
	put := func(domain string, people ...string) {
		for k := 0; k+1 < len(people); k += 2 {
			id++
			if _, err := cs.Put(ctx, contact.Raw{PersonaID: id, Name: people[k], Domain: domain, Email: people[k+1]}); err != nil {
				t.Fatal(err)
			}
		}
	}
	put("acme.com", "Jane Doe", "jane.doe@acme.com", "John Smith", "john.smith@acme.com", "Ann Lee", "ann.lee@acme.com", "Bob Stone", "bstone@acme.com")
	put("beta.de", "Max Mustermann", "mmustermann@beta.de", "Erika Muster", "emuster@beta.de", "Jörg Müller", "jmueller@beta.de")
	put("gamma.io", "Li Wei", "li@gamma.io")
	if _, err := b.Publish(ctx); err != nil {
		t.Fatal(err)
	}
	all := []string{"acme.com", "beta.de", "gamma.io", "delta.fr"}
	sameAnswers(t, b, st, all...)
	before, _ := st.Pattern(ctx, "acme.com")

	// acme.com's new people write {f}{last}: its pattern flips.
	put("acme.com", "Carl Berg", "cberg@acme.com", "Dana Holt", "dholt@acme.com", "Eve Marsh", "emarsh@acme.com", "Finn Roe", "froe@acme.com")
	if after, _ := st.Pattern(ctx, "acme.com"); !reflect.DeepEqual(after, before) {
		t.Fatal("the published pattern changed before any publish")
	}
	if err := pub.PublishDomain(ctx, "acme.com"); err != nil {
		t.Fatal(err)
	}
	sameAnswers(t, b, st, all...)
	if after, _ := st.Pattern(ctx, "acme.com"); after.Template != "{f}{last}" || before.Template != "{first}.{last}" {
		t.Fatalf("acme.com went from %q to %q; want {first}.{last} to {f}{last}", before.Template, after.Template)
	}

	// A new domain, and an address recorded elsewhere: published through their marks.
	put("delta.fr", "Paul Dumas", "paul.dumas@delta.fr", "Marc Petit", "marc.petit@delta.fr")
	if err := patternstore.MarkDirty(ctx, store, "delta.fr"); err != nil {
		t.Fatal(err)
	}
	if err := b.Record(ctx, emailpattern.Observation{Domain: "gamma.io", Name: "Ming Zhao", Email: "ming@gamma.io", Source: "found:job-1"}); err != nil {
		t.Fatal(err)
	}
	n, err := pub.PublishDirty(ctx)
	if err != nil || n != 2 {
		t.Fatalf("PublishDirty = %d, %v; want 2 domains", n, err)
	}
	if got := sameAnswers(t, b, st, all...); got != 4 {
		t.Fatalf("%d domains answered; want 4", got)
	}
	if n, err := pub.PublishDirty(ctx); err != nil || n != 0 {
		t.Fatalf("a second PublishDirty published %d (%v); the marks were not cleared", n, err)
	}
}
