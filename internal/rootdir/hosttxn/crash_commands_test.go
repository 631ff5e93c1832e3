package hosttxn_test

import (
	"crypto/tls"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// TestKillCertsAtEveryChange kills a real certs process at the Nth call of
// each changing syscall, on a fresh root and when a new bootstrap IP
// refreshes the server pair (issue 19 point 1). After every kill the
// certificate directory holds no set a server could load that does not
// match; the next status or certs says it finished or undid the run, and
// leaves no scratch file (no key copy) and no state directory, since certs
// records nothing there.
func TestKillCertsAtEveryChange(t *testing.T) {
	strace, bin := killTools(t, "certs processes")
	old := t.TempDir()
	runOK(t, bin, certsArgs(old, crashIP)...)
	for _, base := range []struct{ name, dir string }{{"fresh", ""}, {"refresh", old}} {
		for _, call := range killedSyscalls {
			t.Run(base.name+"/"+strings.Split(call, ",")[0], func(t *testing.T) {
				killEachCall(t, strace, bin, call, base.dir, certsArgs, func(t *testing.T, root string, n int) {
					when := fmt.Sprintf("after a kill at %s #%d", call, n)
					assertLoadableMatches(t, root, when)
					interrupted := exists(filepath.Join(root, hostlayout.JournalPath))
					next := certsArgs(root, crashIP2)
					if n%2 == 1 {
						next = []string{"status", "--root", root, "--timeout", "1s"}
					}
					out, _ := exec.Command(bin, next...).CombinedOutput()
					if interrupted && !strings.Contains(string(out), "recovered: an interrupted certs was") {
						t.Errorf("%s: %s did not say how it recovered:\n%s", when, next[0], out)
					}
					assertCertsFinal(t, bin, root)
				})
			})
		}
	}
}

// TestKillTeardownAtEveryChange kills a real teardown of a rendered root at
// each changing syscall; the next teardown leaves only the record of the
// cluster objects (no --kubeconfig), and no scratch file (issue 19 point 2).
func TestKillTeardownAtEveryChange(t *testing.T) {
	strace, bin := killTools(t, "teardown processes")
	rendered := t.TempDir()
	runOK(t, bin, "render", "--root", rendered, "--bootstrap-ip", crashIP, "--image", crashImage)
	args := func(root, _ string) []string { return []string{"teardown", "--root", root, "-q"} }
	for _, call := range killedSyscalls {
		t.Run(strings.Split(call, ",")[0], func(t *testing.T) {
			killEachCall(t, strace, bin, call, rendered, args, func(t *testing.T, root string, n int) {
				runOK(t, bin, args(root, "")...)
				when := fmt.Sprintf("teardown after a kill at %s #%d", call, n)
				assertTornDown(t, root, when)
				assertNoScratch(t, root)
			})
		})
	}
}

func certsArgs(root, ip string) []string {
	return []string{"certs", "--root", root, "--dir", filepath.Join(root, certRel), "--bootstrap-ip", ip}
}

// killEachCall runs args(root, crashIP2) under strace, killing it at the
// first, second, ... call until one completes; after each kill it calls
// recovered, which runs the next command and checks the host.
func killEachCall(t *testing.T, strace, bin, call, base string, args func(root, ip string) []string, recovered func(t *testing.T, root string, n int)) {
	t.Helper()
	fresh := func() string { return rootFrom(t, base) }
	withIP := func(root string) []string { return args(root, crashIP2) }
	for n := 1; ; n++ {
		root, out, err := traced(t, strace, bin, call, "signal=SIGKILL:when="+fmt.Sprint(n), fresh, withIP)
		if err == nil {
			if n == 1 && call != "linkat" {
				t.Fatalf("%s never made a %s call", args(root, "")[0], call)
			}
			return
		}
		if !strings.Contains(err.Error(), "killed") && !strings.Contains(err.Error(), "137") {
			t.Fatalf("kill at %s #%d: the command failed instead of dying: %v\n%s", call, n, err, out)
		}
		recovered(t, root, n)
	}
}

// assertLoadableMatches: every key pair present in the certificate
// directory matches, and every leaf present is signed by the ca.crt there.
func assertLoadableMatches(t *testing.T, root, when string) {
	t.Helper()
	dir := filepath.Join(root, certRel)
	for _, pair := range []string{"ca", "server", "agent"} {
		crt, key := filepath.Join(dir, pair+".crt"), filepath.Join(dir, pair+".key")
		if !exists(crt) || !exists(key) {
			continue
		}
		if _, err := tls.LoadX509KeyPair(crt, key); err != nil {
			t.Fatalf("%s: %s.crt and %s.key are both there and do not match: %v", when, pair, pair, err)
		}
		if pair != "ca" && exists(filepath.Join(dir, "ca.crt")) {
			if err := readCert(t, crt).CheckSignatureFrom(readCert(t, filepath.Join(dir, "ca.crt"))); err != nil {
				t.Fatalf("%s: %s.crt is not signed by the ca.crt beside it: %v", when, pair, err)
			}
		}
	}
}

// assertCertsFinal: after the recovery a certs run leaves a complete set
// for crashIP2, nothing scratch, and no state directory.
func assertCertsFinal(t *testing.T, bin, root string) {
	t.Helper()
	runOK(t, bin, certsArgs(root, crashIP2)...)
	assertNoScratch(t, root)
	assertLoadableMatches(t, root, "after the recovery")
	server := readCert(t, filepath.Join(root, certRel, "server.crt"))
	if len(server.IPAddresses) != 1 || server.IPAddresses[0].String() != crashIP2 {
		t.Errorf("server certificate is for %v, want %s", server.IPAddresses, crashIP2)
	}
	if exists(filepath.Join(root, "var")) {
		t.Errorf("certs left %s", filepath.Join(root, "var"))
	}
	if out := runOK(t, bin, certsArgs(root, crashIP2)...); !strings.Contains(out, "reused") {
		t.Errorf("certs after the recovery is not reused:\n%s", out)
	}
}

// TestKillCertsFunctionAtEveryChange kills the KonnectivityCerts function
// with spec.generate (internal/writers/certset.EnsureDir) at the Nth call of each
// changing syscall, run as kustomize's exec wiring runs it: `fn` in the
// kustomization's directory with a ResourceList on stdin, on a fresh
// directory and when a new bootstrap IP refreshes the server pair. After
// every kill no pair in the directory mismatches and no leaf lacks its CA;
// the next run leaves the whole set for the new IP and no temporary file
// (no key copy).
func TestKillCertsFunctionAtEveryChange(t *testing.T) {
	strace, bin := killTools(t, "function runs")
	dir := t.TempDir()
	fn := filepath.Join(dir, "fn")
	script := "#!/bin/sh\n# $1: the kustomization's directory, $2: the ResourceList\ncd \"$1\" && exec " + bin + " fn < \"$2\"\n"
	if err := os.WriteFile(fn, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	lists := map[string]string{}
	for _, ip := range []string{crashIP, crashIP2} {
		lists[ip] = filepath.Join(dir, ip+".yaml")
		if err := os.WriteFile(lists[ip], []byte(certsFunctionList(ip)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := func(root, ip string) []string { return []string{root, lists[ip]} }
	old := t.TempDir()
	runOK(t, fn, args(old, crashIP)...)
	for _, base := range []struct{ name, dir string }{{"fresh", ""}, {"refresh", old}} {
		for _, call := range killedSyscalls {
			t.Run(base.name+"/"+strings.Split(call, ",")[0], func(t *testing.T) {
				killEachCall(t, strace, fn, call, base.dir, args, func(t *testing.T, root string, n int) {
					assertLoadableMatches(t, root, fmt.Sprintf("after a kill at %s #%d", call, n))
					runOK(t, fn, args(root, crashIP2)...)
					assertLoadableMatches(t, root, "after the next run")
					if left, _ := filepath.Glob(filepath.Join(root, certRel, ".*")); len(left) > 0 {
						t.Errorf("after a kill at %s #%d the next run left %v", call, n, left)
					}
					server := readCert(t, filepath.Join(root, certRel, "server.crt"))
					if len(server.IPAddresses) != 1 || server.IPAddresses[0].String() != crashIP2 {
						t.Errorf("server certificate is for %v, want %s", server.IPAddresses, crashIP2)
					}
				})
			})
		}
	}
}

// certsFunctionList is a ResourceList for the KonnectivityCerts function
// that generates into certRel, relative to the working directory.
func certsFunctionList(ip string) string {
	return `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items: []
functionConfig:
  apiVersion: bundle.konnectivity.io/v1alpha1
  kind: KonnectivityCerts
  metadata:
    name: konnectivity-certs
  spec:
    certDir: ` + certRel + `
    bootstrapIP: ` + ip + `
    generate: true
`
}
