package hosttxn_test

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/statetest"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// killedSyscalls are the calls a render makes to change the host: every
// file write, hard link, rename, removal and fsync.
var killedSyscalls = []string{"write", "linkat", "renameat,renameat2", "unlinkat", "fsync"}

const (
	crashIP    = "192.0.2.10"
	crashIP2   = "192.0.2.11"
	crashImage = "quay.io/openshift/origin-apiserver-network-proxy:4.20"
	podRel     = "etc/kubernetes/manifests/konnectivity-server-pod.yaml"
	certRel    = "opt/openshift/tls/konnectivity"
	secretRel  = "opt/openshift/manifests/konnectivity-agent-certs-secret.yaml"
)

// TestKillAtEveryChange kills a real render process (strace -e inject) at
// the Nth call of each changing syscall, for N = 1, 2, ... until a run
// completes, on a fresh root and for an update (new bootstrap IP: new server
// certificate and DaemonSet), and when the sno overlay disables an earlier
// bundle (every file removed). After every kill the static pod manifest, if
// present, names one consistent generation of files (issue 9 point 3a); the
// next render (or status) says it recovered and leaves no scratch file and
// a correct bundle (3b, 3c); a teardown after a kill leaves only the
// record of the cluster objects it could not delete without --kubeconfig.
func TestKillAtEveryChange(t *testing.T) {
	strace, bin := killTools(t, "render processes")
	rendered := t.TempDir()
	runOK(t, bin, "render", "--root", rendered, "--bootstrap-ip", crashIP, "--image", crashImage)
	for _, sc := range []crashScenario{
		{name: "fresh", overlay: "ipv4", final: assertFinal},
		{name: "update", base: rendered, overlay: "ipv4", final: assertFinal},
		{name: "disable", base: rendered, overlay: "sno", final: assertDisabled},
	} {
		for _, call := range killedSyscalls {
			t.Run(sc.name+"/"+strings.Split(call, ",")[0], func(t *testing.T) { sc.killEach(t, strace, bin, call) })
		}
	}
}

// crashScenario is one render killed at each call in turn.
type crashScenario struct {
	name    string
	base    string // copied into each root first; "" is a fresh root
	overlay string
	final   func(t *testing.T, root, bin string)
}

func (sc crashScenario) args(root string) []string {
	return []string{"render", "--overlay", sc.overlay, "--root", root, "--bootstrap-ip", crashIP2, "--image", crashImage}
}

// killEach kills the render at the first, second, ... call until one
// completes, checking the host after each kill and after its recovery.
func (sc crashScenario) killEach(t *testing.T, strace, bin, call string) {
	fresh := func() string { return rootFrom(t, sc.base) }
	for n := 1; ; n++ {
		root, out, err := traced(t, strace, bin, call, "signal=SIGKILL:when="+fmt.Sprint(n), fresh, sc.args)
		if err == nil {
			if n == 1 && !(sc.base == "" && call == "linkat") { // a fresh root replaces nothing
				t.Fatalf("render never made a %s call", call)
			}
			sc.final(t, root, bin)
			return
		}
		if !strings.Contains(err.Error(), "killed") && !strings.Contains(err.Error(), "137") {
			t.Fatalf("kill at %s #%d: render failed instead of dying: %v\n%s", call, n, err, out)
		}
		when := fmt.Sprintf("after a kill at %s #%d", call, n)
		assertConsistent(t, root, when)
		if n%3 == 0 {
			runOK(t, bin, "teardown", "--root", root, "-q")
			assertTornDown(t, root, "teardown "+when)
			continue
		}
		interrupted := exists(filepath.Join(root, hostlayout.JournalPath))
		if interrupted && n%3 == 1 {
			// status finds it first (its own exit code reports the absent tunnel)
			out, _ := exec.Command(bin, "status", "--root", root, "--timeout", "1s").CombinedOutput()
			if !strings.Contains(string(out), "recovered: an interrupted render was") {
				t.Errorf("%s: status did not recover the interrupted render:\n%s", when, out)
			}
			assertConsistent(t, root, "after status recovered")
			assertNoScratch(t, root)
			interrupted = false
		}
		msg := runOK(t, bin, sc.args(root)...)
		if interrupted && !strings.Contains(msg, "recovered: an interrupted render was") {
			t.Errorf("%s: the next render did not say how it recovered:\n%s", when, msg)
		}
		sc.final(t, root, bin)
	}
}

// assertDisabled: the sno overlay left none of the earlier bundle's files,
// and a further run has nothing to remove.
func assertDisabled(t *testing.T, root, bin string) {
	t.Helper()
	assertNoScratch(t, root)
	for _, rel := range []string{podRel, secretRel, certRel + "/ca.key", certRel + "/server.crt"} {
		if exists(filepath.Join(root, rel)) {
			t.Errorf("%s survived disabling", rel)
		}
	}
	out := runOK(t, bin, "render", "--overlay", "sno", "--root", root, "--bootstrap-ip", crashIP2, "--image", crashImage)
	if !strings.Contains(out, "nothing written") {
		t.Errorf("a second disabled render did something:\n%s", out)
	}
}

func runOK(t *testing.T, bin string, args ...string) string {
	t.Helper()
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(bin), strings.Join(args, " "), err, out)
	}
	return string(out)
}

// assertFinal: a complete bundle for crashIP2, no scratch file, and a
// further render changes nothing.
func assertFinal(t *testing.T, root, bin string) {
	t.Helper()
	assertNoScratch(t, root)
	if !exists(filepath.Join(root, podRel)) {
		t.Fatalf("no static pod manifest after the recovery")
	}
	assertConsistent(t, root, "after the recovery")
	server := readCert(t, filepath.Join(root, certRel, "server.crt"))
	if len(server.IPAddresses) != 1 || server.IPAddresses[0].String() != crashIP2 {
		t.Errorf("server certificate is for %v, want %s", server.IPAddresses, crashIP2)
	}
	if out := runOK(t, bin, "render", "--overlay", "ipv4", "--root", root, "--bootstrap-ip", crashIP2, "--image", crashImage); !strings.Contains(out, "up to date") {
		t.Errorf("render after the recovery is not up to date:\n%s", out)
	}
}

// assertConsistent checks point 3a: while the static pod manifest exists,
// every certificate and key it mounts is present and of one generation,
// and the agent Secret carries the same CA and agent pair.
func assertConsistent(t *testing.T, root, when string) {
	t.Helper()
	if !exists(filepath.Join(root, podRel)) {
		return
	}
	dir := filepath.Join(root, certRel)
	ca := readCert(t, filepath.Join(dir, "ca.crt"))
	for _, leaf := range []string{"server", "agent"} {
		crt, key := filepath.Join(dir, leaf+".crt"), filepath.Join(dir, leaf+".key")
		if _, err := tls.LoadX509KeyPair(crt, key); err != nil {
			t.Fatalf("%s: the manifest exists but %s.crt and %s.key do not match: %v", when, leaf, leaf, err)
		}
		if err := readCert(t, crt).CheckSignatureFrom(ca); err != nil {
			t.Fatalf("%s: the manifest exists but %s.crt is not signed by the ca.crt on disk: %v", when, leaf, err)
		}
	}
	if _, err := tls.LoadX509KeyPair(filepath.Join(dir, "ca.crt"), filepath.Join(dir, "ca.key")); err != nil {
		t.Fatalf("%s: ca.crt and ca.key do not match: %v", when, err)
	}
	secret := secretData(t, filepath.Join(root, secretRel))
	for key, file := range map[string]string{"ca.crt": "ca.crt", "tls.crt": "agent.crt", "tls.key": "agent.key"} {
		want, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(secret[key], want) {
			t.Fatalf("%s: the Secret's %s is not the %s on disk", when, key, file)
		}
	}
}

func readCert(t *testing.T, p string) *x509.Certificate {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("the static pod manifest names %s: %v", p, err)
	}
	block, _ := pem.Decode(data)
	if block == nil {
		t.Fatalf("%s is not PEM (partial?)", p)
	}
	c, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return c
}

func secretData(t *testing.T, p string) map[string][]byte {
	t.Helper()
	node, err := yaml.ReadFile(p)
	if err != nil {
		t.Fatalf("the agent Secret: %v", err)
	}
	out := map[string][]byte{}
	for _, k := range []string{"ca.crt", "tls.crt", "tls.key"} {
		v, err := node.Pipe(yaml.Lookup("data", k))
		if err != nil || v == nil {
			t.Fatalf("the agent Secret has no data.%s", k)
		}
		if out[k], err = base64.StdEncoding.DecodeString(yaml.GetValue(v)); err != nil {
			t.Fatalf("the agent Secret's data.%s: %v", k, err)
		}
	}
	return out
}

func assertNoScratch(t *testing.T, root string) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		n := d.Name()
		if strings.Contains(n, ".kb-") || strings.HasSuffix(n, ".bak") || n == "txn.json" {
			t.Errorf("left behind: %s", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// assertTornDown: without --kubeconfig teardown keeps only a state file
// listing the cluster objects still to delete (when a render got as far as
// recording them); nothing else is left.
func assertTornDown(t *testing.T, root, when string) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() && (rel == "." || strings.HasPrefix(hostlayout.StatePath, rel+"/")) {
			return nil
		}
		if rel != hostlayout.StatePath {
			t.Errorf("%s: %s is left under the root", when, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !exists(filepath.Join(root, hostlayout.StatePath)) {
		return // the kill came before anything was recorded: nothing may be left
	}
	st, err := statetest.Read(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Files) != 0 || len(st.ClusterObjects) == 0 {
		t.Errorf("%s: the state left lists files %v and cluster objects %v, want only cluster objects", when, st.Files, st.ClusterObjects)
	}
}

// rootFrom is a new temporary root holding a copy of base ("": empty).
func rootFrom(t *testing.T, base string) string {
	t.Helper()
	root := t.TempDir()
	if base != "" {
		copyTree(t, base, root)
	}
	return root
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	if out, err := exec.Command("cp", "-a", from+"/.", to).CombinedOutput(); err != nil {
		t.Fatalf("copy %s: %v\n%s", from, err, out)
	}
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
