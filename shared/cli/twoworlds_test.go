package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/firmoapi/firmo/shared/app/allapp"
	"github.com/firmoapi/firmo/shared/testkit"
)

// One `firmo serve` verifies addresses in two worlds: a demo-world address through the
// world's own DNS and mail on loopback, and addresses at a domain outside the world
// through the DNS server and SMTP port it is configured with (FIRMO_DNS_RESOLVER,
// FIRMO_SMTP_PORT: here an in-process DNS server and a private Postfix, admitted by
// FIRMO_FETCH_ALLOW_HOSTS as a real deployment's mail hosts never need to be). The
// README's email example (Michael Weber at hansen.de) gives what the README shows, and
// an error result carries its reason. The default round spells ü both ways (Sarah
// Müller is s.mueller@hansen.de).
func TestServeVerifiesTheWorldAndTheRealMail(t *testing.T) {
	if testing.Short() {
		t.Skip("starts firmo serve with a private Postfix")
	}
	pf := testkit.StartPostfix(t, testkit.PostfixConfig{Mailboxes: []string{"jane.doe@firmo-outside.com"}})
	dns := testkit.StartDNS(t, testkit.DNSZone{
		MX: map[string][]testkit.DNSMX{"firmo-outside.com": {{Pref: 10, Host: "mx.firmo-outside.com"}}},
		A:  map[string][]string{"mx.firmo-outside.com": {"127.0.0.1"}},
		// hansen.de must never be asked here: the world's domains stay in the process.
		ServFail: []string{"hansen.de", "firmo-broken.com"},
	})
	data := t.TempDir()
	vars := map[string]string{"FIRMO_DATA_DIR": data, "FIRMO_ADDR": "127.0.0.1:0", "FIRMO_SEED_COMPANIES": "12",
		"FIRMO_DNS_RESOLVER": dns.Addr, "FIRMO_SMTP_PORT": fmt.Sprint(pf.Port),
		"FIRMO_FETCH_ALLOW_HOSTS": fmt.Sprintf("mx.firmo-outside.com:%d", pf.Port)}
	srv := startServe(t, vars)
	waitFor(t, "/readyz 200", func() bool { return status(t, srv.base+"/readyz") == http.StatusOK }, srv.stderr.String)
	keyb, err := os.ReadFile(filepath.Join(data, allapp.DemoKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	key := strings.TrimSpace(string(keyb))
	queriesBefore := dns.Queries()

	for _, c := range []struct {
		req, status, email, detail string
	}{
		{`{"first_name":"Michael","last_name":"Weber","domain":"hansen.de"}`, "found", "m.weber@hansen.de", ""},
		// On hansen.de's team page; ü spelt ue, found by the default round.
		{`{"first_name":"Sarah","last_name":"Müller","domain":"hansen.de"}`, "found", "s.mueller@hansen.de", ""},
		{`{"first_name":"Jane","last_name":"Doe","domain":"firmo-outside.com"}`, "found", "jane.doe@firmo-outside.com", ""},
		{`{"first_name":"John","last_name":"Roe","domain":"firmo-outside.com"}`, "not_found", "", "rejected"},
		{`{"first_name":"Jane","last_name":"Doe","domain":"firmo-broken.com"}`, "error", "", "SERVFAIL"},
	} {
		res := findEmail(t, srv.base, key, c.req)
		found, _ := res["result"].(map[string]any)
		email, _ := found["email"].(string)
		detail, _ := res["detail"].(string)
		if res["status"] != c.status || email != c.email || !strings.Contains(detail, c.detail) {
			t.Errorf("%s: status %v, email %q, detail %q; want %s %q with a detail containing %q", c.req, res["status"], email, detail, c.status, c.email, c.detail)
		}
		if email == "m.weber@hansen.de" {
			// The README's email example shows this answer.
			if found["pattern"] != "{f}.{last}" || found["tier"] != "company_pattern" || res["provider"] != "microsoft" || res["attempts"] != float64(1) {
				t.Errorf("the README's example answers %v (provider %v, attempts %v); the README shows {f}.{last}, company_pattern, microsoft, 1 attempt", found, res["provider"], res["attempts"])
			}
		}
		if c.status == "error" && detail == "" {
			t.Errorf("%s: an error without a reason", c.req)
		}
	}
	if dns.Queries() == queriesBefore {
		t.Error("the configured DNS server was never asked about the domain outside the world")
	}
}

// findEmail submits one find and polls its job until it completes; it returns the
// job's result.
func findEmail(t *testing.T, base, key, req string) map[string]any {
	t.Helper()
	code, body := call(t, key, "POST", base+"/v1/email/find", req)
	var sub struct {
		JobID string `json:"job_id"`
	}
	if err := json.Unmarshal([]byte(body), &sub); err != nil || sub.JobID == "" || code >= 300 {
		t.Fatalf("find %s = %d %s", req, code, body)
	}
	for end := time.Now().Add(3 * time.Minute); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		_, body = call(t, key, "GET", base+"/v1/email/jobs/"+sub.JobID, "")
		var job struct {
			Status string         `json:"status"`
			Result map[string]any `json:"result"`
		}
		if err := json.Unmarshal([]byte(body), &job); err != nil {
			t.Fatal(err)
		}
		if job.Status == "completed" {
			return job.Result
		}
		if job.Status == "failed" {
			t.Fatalf("find %s failed: %s", req, body)
		}
	}
	t.Fatalf("find %s did not complete in 3 minutes", req)
	return nil
}
