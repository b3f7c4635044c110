package testkit

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// PostfixConfig describes a private Postfix instance: the mail domains it answers for
// and how it treats their recipients. Nothing is ever delivered (the virtual transport
// is discard); the instance exists to hold real SMTP conversations.
type PostfixConfig struct {
	// Mailboxes are the accepted recipients: "user@domain", or "@domain" to accept any
	// recipient of a catch-all domain. Their domains are the instance's mail domains;
	// an unlisted recipient of those domains is rejected with 550 5.1.1.
	Mailboxes []string
	// Domains adds mail domains that have no mailbox (every recipient is unknown).
	Domains []string
	// Access maps a recipient or a domain to a fixed reply, e.g.
	// "busy.example.com": "452 4.5.3 Too many recipients" (check_recipient_access).
	Access map[string]string
	// Greylist lists domains whose recipients go through a greylisting policy service:
	// the first attempt of a (client, sender, recipient) triplet is deferred with
	// 450 4.7.1 and retries are deferred until GreylistDelay has passed.
	Greylist      []string
	GreylistDelay time.Duration
	// TLS offers STARTTLS with a fresh self-signed certificate.
	TLS bool
}

// Postfix is a running private Postfix instance. It logs nowhere: a maillog_file
// makes the master wait seconds for its log daemon at start-up, and tests assert on
// the SMTP conversation itself.
type Postfix struct {
	Addr string // 127.0.0.1:port of its SMTP server
	Port int
	dir  string
}

// StartPostfix runs a private Postfix (its own configuration, queue and data
// directories under a temporary directory) listening on 127.0.0.1 on a free port other
// than 25, for the life of the test. Postfix must run as root, as it does in
// production; when it is not installed the test kit installs the Debian package when
// running as root, else it skips the test, or fails it under FIRMO_REQUIRE_STANDINS=1.
func StartPostfix(t testing.TB, cfg PostfixConfig) *Postfix {
	t.Helper()
	daemonDir := postfixDaemonDir(t)
	dir, err := os.MkdirTemp("", "firmo-postfix-")
	if err != nil {
		t.Fatalf("postfix: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	// Postfix daemons run as the postfix user and must traverse the tree.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatalf("postfix: %v", err)
	}
	p := &Postfix{dir: dir}
	policy := ""
	if len(cfg.Greylist) > 0 {
		policy = startGreylistPolicy(t, cfg.GreylistDelay)
	}
	p.Addr = startOnFreePort(t, "postfix", filepath.Join(dir, "master.out"), func(port int, addr string) error {
		if port == 25 {
			return errors.New("got port 25, the one real mail goes to")
		}
		if err := writePostfixConfig(dir, port, cfg, policy); err != nil {
			t.Fatalf("postfix: write configuration: %v", err)
		}
		p.Port = port
		return startPostfixMaster(t, daemonDir, dir, addr)
	})
	return p
}

var postfixInstall sync.Mutex

// postfixDaemonDir finds (or installs) Postfix and returns its daemon directory.
func postfixDaemonDir(t testing.TB) string {
	t.Helper()
	postfixInstall.Lock()
	defer postfixInstall.Unlock()
	if _, err := exec.LookPath("postconf"); err != nil {
		if _, err := os.Stat("/usr/sbin/postconf"); err != nil {
			installPostfix(t)
		}
	}
	postconf := "/usr/sbin/postconf"
	if p, err := exec.LookPath("postconf"); err == nil {
		postconf = p
	}
	if os.Geteuid() != 0 {
		standinMissing(t, "postfix must run as root for the SMTP integration tests; run them as root (make test in CI does)")
	}
	out, err := exec.Command(postconf, "-h", "daemon_directory").Output()
	if err != nil {
		t.Fatalf("postconf -h daemon_directory: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	if _, err := os.Stat(filepath.Join(dir, "master")); err != nil {
		t.Fatalf("postfix master not found in %s: %v", dir, err)
	}
	if _, err := user.Lookup("postfix"); err != nil {
		t.Fatalf("the postfix user does not exist (a broken postfix install?): %v", err)
	}
	return dir
}

func installPostfix(t testing.TB) {
	t.Helper()
	if os.Geteuid() != 0 {
		standinMissing(t, "postfix is not installed and installing it needs root: apt-get install postfix")
	}
	if _, err := exec.LookPath("apt-get"); err != nil {
		standinMissing(t, "postfix is not installed and apt-get is not available")
	}
	// One install at a time across test processes.
	unlock, err := lockFile(filepath.Join(os.TempDir(), "firmo-postfix-install.lock"))
	if err != nil {
		t.Fatalf("lock: %v", err)
	}
	defer unlock()
	if _, err := os.Stat("/usr/sbin/postconf"); err == nil {
		return
	}
	env := append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
	run := func(args ...string) ([]byte, error) {
		cmd := exec.Command("apt-get", args...)
		cmd.Env = env
		return cmd.CombinedOutput()
	}
	out, err := run("install", "-y", "-qq", "postfix")
	if err != nil {
		if upd, uerr := run("update", "-qq"); uerr != nil {
			standinMissing(t, "apt-get update failed (%v):\n%s", uerr, upd)
		}
		out, err = run("install", "-y", "-qq", "postfix")
	}
	if err != nil {
		standinMissing(t, "apt-get install postfix failed (%v):\n%s", err, out)
	}
}

func writePostfixConfig(dir string, port int, cfg PostfixConfig, policy string) error {
	if err := makePostfixDirs(dir); err != nil {
		return err
	}
	conf := filepath.Join(dir, "conf")

	domains := map[string]bool{}
	var mailboxes strings.Builder
	for _, m := range cfg.Mailboxes {
		at := strings.LastIndexByte(m, '@')
		if at < 0 {
			return fmt.Errorf("mailbox %q has no @", m)
		}
		domains[strings.ToLower(m[at+1:])] = true
		fmt.Fprintf(&mailboxes, "%s ok\n", strings.ToLower(m))
	}
	for _, d := range cfg.Domains {
		domains[strings.ToLower(d)] = true
	}
	var access strings.Builder
	for _, k := range sortedKeys(cfg.Access) {
		fmt.Fprintf(&access, "%s %s\n", strings.ToLower(k), cfg.Access[k])
	}
	for _, d := range cfg.Greylist {
		domains[strings.ToLower(d)] = true
		fmt.Fprintf(&access, "%s greylisting\n", strings.ToLower(d))
	}
	for d := range cfg.Access {
		if !strings.Contains(d, "@") {
			domains[strings.ToLower(d)] = true
		}
	}
	var domainList []string
	for d := range domains {
		domainList = append(domainList, d)
	}
	sort.Strings(domainList)
	if len(domainList) == 0 {
		domainList = []string{"none.invalid"}
	}

	main := fmt.Sprintf(`compatibility_level = 3.6
queue_directory = %[1]s/queue
data_directory = %[1]s/data
mail_owner = postfix
setgid_group = postdrop
myhostname = mx.firmo.test
mydomain = firmo.test
myorigin = $mydomain
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_banner = $myhostname ESMTP firmo-test
biff = no
virtual_mailbox_domains = %[2]s
virtual_mailbox_maps = texthash:%[1]s/conf/mailboxes
virtual_transport = discard
unknown_virtual_mailbox_reject_code = 550
smtpd_relay_restrictions = reject_unauth_destination
smtpd_restriction_classes = greylisting
greylisting = %[3]s
smtpd_recipient_restrictions = check_recipient_access texthash:%[1]s/conf/access, reject_unlisted_recipient, permit
smtpd_recipient_limit = 1000
smtpd_client_connection_count_limit = 0
smtpd_client_connection_rate_limit = 0
default_process_limit = 200
smtpd_error_sleep_time = 0
# Every RCPT-only session opens a queue file that RSET aborts, taking a flow-control
# token that no delivery gives back; once the tokens are spent each session would
# wait in_flow_delay (1s) at RCPT. Real MTAs do the same under verification load.
in_flow_delay = 0
smtpd_soft_error_limit = 1000
smtpd_hard_error_limit = 1000
`, dir, strings.Join(domainList, " "), policyRestriction(policy))
	if cfg.TLS {
		if err := writeSelfSigned(conf); err != nil {
			return err
		}
		main += fmt.Sprintf("smtpd_tls_cert_file = %[1]s/cert.pem\nsmtpd_tls_key_file = %[1]s/key.pem\nsmtpd_tls_security_level = may\n", conf)
	} else {
		main += "smtpd_tls_security_level = none\n"
	}
	master := fmt.Sprintf(`127.0.0.1:%d inet n - n - - smtpd
cleanup unix n - n - 0 cleanup
qmgr unix n - n 300 1 qmgr
rewrite unix - - n - - trivial-rewrite
bounce unix - - n - 0 bounce
defer unix - - n - 0 bounce
trace unix - - n - 0 bounce
verify unix - - n - 1 verify
proxymap unix - - n - - proxymap
error unix - - n - - error
retry unix - - n - - error
discard unix - - n - - discard
anvil unix - - n - 1 anvil
scache unix - - n - 1 scache
tlsmgr unix - - n 1000? 1 tlsmgr
`, port)
	files := map[string]string{
		"main.cf": main, "master.cf": master,
		"mailboxes": mailboxes.String(), "access": access.String(),
	}
	// Postfix waits, polling, until a just-written main.cf is a few seconds old (it
	// might still be being edited); back-dating the files skips that wait.
	old := time.Now().Add(-time.Hour)
	for name, content := range files {
		path := filepath.Join(conf, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			return err
		}
		if err := os.Chtimes(path, old, old); err != nil {
			return err
		}
	}
	return nil
}

// makePostfixDirs creates the configuration, data and queue directories with the
// owners and modes of Debian's postfix-files, which is what `postfix check` would do,
// in milliseconds instead of seconds.
func makePostfixDirs(dir string) error {
	pf, err := user.Lookup("postfix")
	if err != nil {
		return err
	}
	uid, _ := strconv.Atoi(pf.Uid)
	postdrop := 0
	if g, err := user.LookupGroup("postdrop"); err == nil {
		postdrop, _ = strconv.Atoi(g.Gid)
	}
	dirs := []struct {
		path     string
		uid, gid int
		mode     os.FileMode
	}{
		{"conf", 0, 0, 0o755},
		{"data", uid, 0, 0o700},
		{"queue", 0, 0, 0o755},
		{"queue/pid", 0, 0, 0o755},
		{"queue/public", uid, postdrop, 0o710},
		{"queue/maildrop", uid, postdrop, 0o730},
	}
	for _, q := range []string{"active", "bounce", "corrupt", "defer", "deferred", "flush", "hold", "incoming", "saved", "trace", "private"} {
		dirs = append(dirs, struct {
			path     string
			uid, gid int
			mode     os.FileMode
		}{"queue/" + q, uid, 0, 0o700})
	}
	for _, d := range dirs {
		p := filepath.Join(dir, d.path)
		if err := os.MkdirAll(p, d.mode); err != nil {
			return err
		}
		if err := os.Chmod(p, d.mode); err != nil {
			return err
		}
		if err := os.Chown(p, d.uid, d.gid); err != nil {
			return err
		}
	}
	return nil
}

func policyRestriction(policy string) string {
	if policy == "" {
		return "permit"
	}
	return "check_policy_service inet:" + policy
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// startPostfixMaster runs the master daemon in the foreground as a child of the test,
// so cleanup stops it and its children (SIGTERM lets master stop its children; the
// group kill catches stragglers).
func startPostfixMaster(t testing.TB, daemonDir, dir, addr string) error {
	cmd := exec.Command(filepath.Join(daemonDir, "master"), "-c", filepath.Join(dir, "conf"), "-d")
	return runProcess(t, cmd, filepath.Join(dir, "master.out"), func(exited <-chan struct{}) error {
		return waitGreeting(addr, exited, 20*time.Second)
	}, syscall.SIGTERM)
}

// waitGreeting waits until addr answers with an SMTP 220 greeting.
func waitGreeting(addr string, exited <-chan struct{}, timeout time.Duration) error {
	return poll(exited, timeout, "no SMTP greeting on "+addr, func() bool {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err != nil {
			return false
		}
		c.SetDeadline(time.Now().Add(2 * time.Second))
		line, _ := bufio.NewReader(c).ReadString('\n')
		c.Write([]byte("QUIT\r\n"))
		c.Close()
		return strings.HasPrefix(line, "220")
	})
}

// writeSelfSigned writes a fresh self-signed certificate and key for STARTTLS.
func writeSelfSigned(dir string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "mx.firmo.test"},
		DNSNames:     []string{"mx.firmo.test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return err
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "cert.pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644); err != nil {
		return err
	}
	// A throwaway test key; postfix reads it as root before dropping privileges.
	return os.WriteFile(filepath.Join(dir, "key.pem"), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600)
}

// startGreylistPolicy runs a Postfix policy service (SMTPD_POLICY_README) that
// greylists: a (client, sender, recipient) triplet is deferred until delay has passed
// since it was first seen, then permitted.
func startGreylistPolicy(t testing.TB, delay time.Duration) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("greylist policy: %v", err)
	}
	var mu sync.Mutex
	first := map[string]time.Time{}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					attrs, err := readPolicyRequest(r)
					if err != nil {
						return
					}
					triplet := attrs["client_address"] + "/" + attrs["sender"] + "/" + attrs["recipient"]
					mu.Lock()
					seen, ok := first[triplet]
					if !ok {
						seen = time.Now()
						first[triplet] = seen
					}
					mu.Unlock()
					action := "DUNNO"
					if time.Since(seen) < delay {
						action = "DEFER_IF_PERMIT Greylisted, please try again later"
					}
					if _, err := fmt.Fprintf(c, "action=%s\n\n", action); err != nil {
						return
					}
				}
			}()
		}
	}()
	t.Cleanup(func() { l.Close() })
	return l.Addr().String()
}

func readPolicyRequest(r *bufio.Reader) (map[string]string, error) {
	attrs := map[string]string{}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			return attrs, nil
		}
		k, v, _ := strings.Cut(line, "=")
		attrs[k] = v
	}
}
