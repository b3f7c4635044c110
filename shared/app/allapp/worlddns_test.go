package allapp_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/company"
	"github.com/firmoapi/firmo/shared/dnsmx"
	"github.com/firmoapi/firmo/shared/world"
)

// askedZone is a DNS server's zone that answers nothing (REFUSED) and records every
// name it is asked about: the resolver outside the process.
type askedZone struct {
	mu    sync.Mutex
	names map[string]bool
}

func (z *askedZone) Answer(name string) (dnsmx.Answer, bool) {
	z.mu.Lock()
	defer z.mu.Unlock()
	z.names[name] = true
	return dnsmx.Answer{}, false
}

func (z *askedZone) asked() map[string]bool {
	z.mu.Lock()
	defer z.mu.Unlock()
	out := map[string]bool{}
	for n := range z.names {
		out[n] = true
	}
	return out
}

// TestWorldDomainsStayOnTheMachine runs contact generation (website mode, so the
// crawl follows the homepages' links, some to pages the store does not hold) on the
// local composition over demo-world domains and one domain outside the world, with
// both DNS settings (MX and page fetching) pointed at a recording server standing for
// the resolvers outside the process. The outside domain must reach it (the crawl
// does resolve through the setting); no world domain, nor a host under one, may.
func TestWorldDomainsStayOnTheMachine(t *testing.T) {
	outside := &askedZone{names: map[string]bool{}}
	srv, err := dnsmx.Serve("127.0.0.1:0", outside)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	e := newEnv(t, map[string]string{"FIRMO_DNS_RESOLVER": srv.Addr(), "FIRMO_FETCH_DNS_RESOLVER": srv.Addr()})
	ctx := context.Background()
	opts := world.Options{Seed: 5, Companies: 30, AsOf: time.Now()}.Normalized()
	if _, err := e.app.SeedWorld(ctx, opts, company.LoadOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if err := e.app.StartTasks(ctx); err != nil {
		t.Fatal(err)
	}
	k := key(e.demoKey)
	if sp := e.do(t, "POST", "/v1/search-providers", k, `{"provider":"native","name":"Firmo pages"}`); sp.status != 200 && sp.status != 201 {
		t.Fatalf("create search provider: %d %s", sp.status, sp.raw)
	}
	w := world.New(opts)
	doms := []string{"outside-the-world-firmo.com"}
	for i := 0; i < w.Len(); i++ {
		doms = append(doms, w.Domain(i))
	}
	body, _ := json.Marshal(map[string]any{"icp_text": "Leadership", "domains": doms, "context_mode": "website", "search_context_size": "high"})
	sub := e.do(t, "POST", "/v1/contacts/discover/generate", k, string(body))
	if sub.status != 200 {
		t.Fatalf("submit: %d %s", sub.status, sub.raw)
	}
	taskID := sub.body["task_id"].(string)
	for deadline := time.Now().Add(2 * time.Minute); ; {
		a := e.do(t, "GET", "/v1/gen/status/"+url.PathEscape(taskID), k, "")
		if a.status != 200 {
			t.Fatalf("status: %d %s", a.status, a.raw)
		}
		if a.body["status"] == "completed" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not completed in time: %v", a.body["progress"])
		}
		time.Sleep(100 * time.Millisecond)
	}
	asked := outside.asked()
	if !asked["outside-the-world-firmo.com"] {
		t.Errorf("the domain outside the world never reached the configured resolver (asked: %v): the test would not see a leak", asked)
	}
	for _, d := range doms[1:] {
		for n := range asked {
			if n == d || strings.HasSuffix(n, "."+d) {
				t.Errorf("world domain %s reached a resolver outside the process as %q", d, n)
			}
		}
	}
}
