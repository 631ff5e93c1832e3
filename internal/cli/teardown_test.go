package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/fakekas"
)

// hostDeadKubeconfig points at a port nothing listens on.
func hostDeadKubeconfig(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "kubeconfig")
	cfg := `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}
users:
- name: u
  user: {token: t}
contexts:
- name: c
  context: {cluster: c, user: u}
current-context: c
`
	if err := os.WriteFile(p, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func hostRenderedRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if code, _, stderr := runHostCmd(t, hostRenderArgs(root, "-q")...); code != 0 {
		t.Fatalf("render: exit %d: %s", code, stderr)
	}
	return root
}

func TestTeardownCommandExitCodes(t *testing.T) {
	cases := []struct {
		name   string
		args   func(root string) []string
		code   int
		stderr string
	}{
		{"files only", func(r string) []string { return []string{"teardown", "--root", r} }, 0, "not deleted, the cluster not read; they stay recorded (teardown --kubeconfig FILE deletes them)"},
		{"unreachable API server", func(r string) []string {
			return []string{"teardown", "--root", r, "--kubeconfig", hostDeadKubeconfig(t)}
		}, 0, "warning: API server unreachable"},
		{"unreachable with --strict", func(r string) []string {
			return []string{"teardown", "--root", r, "--kubeconfig", hostDeadKubeconfig(t), "--strict"}
		}, exitUnreachable, "--strict: API server unreachable"},
		{"missing kubeconfig", func(r string) []string {
			return []string{"teardown", "--root", r, "--kubeconfig", filepath.Join(r, "nope")}
		}, 1, "--kubeconfig"},
		{"missing root", func(string) []string { return []string{"teardown"} }, 2, "--root is required"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runHostCmd(t, tc.args(hostRenderedRoot(t))...)
			if code != tc.code || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d (want %d), stderr (want %q):\n%s", code, tc.code, tc.stderr, stderr)
			}
		})
	}
}

func TestTeardownCommandRemovesStaticPodFirst(t *testing.T) {
	root := hostRenderedRoot(t)
	code, out, _ := runHostCmd(t, "teardown", "--root", root)
	first := strings.SplitN(out, "\n", 2)[0]
	if code != 0 || first != "removed   "+filepath.Join(root, "etc/kubernetes/manifests/konnectivity-server-pod.yaml") {
		t.Errorf("exit %d, first line %q", code, first)
	}
	if _, err := os.Stat(filepath.Join(root, "opt/openshift/tls/konnectivity")); !os.IsNotExist(err) {
		t.Errorf("certificate directory still there: %v", err)
	}
}

// TestTeardownGatherUsage: teardown writes usage.json before it removes
// anything and prints the table after its own lines, saying why a side was
// not read; --quiet prints neither; an unusable kubeconfig fails before
// anything is written or removed.
func TestTeardownGatherUsage(t *testing.T) {
	root := hostRenderedRoot(t)
	dir := filepath.Join(t.TempDir(), "gather")
	code, _, stderr := runHostCmd(t, "teardown", "--root", root, "--gather", dir, "--kubeconfig", filepath.Join(root, "nope"))
	if _, err := os.Stat(dir); code != 1 || !strings.Contains(stderr, "--kubeconfig") || !os.IsNotExist(err) {
		t.Errorf("missing kubeconfig: exit %d, gather dir %v, stderr:\n%s", code, err, stderr)
	}
	if _, err := os.Stat(filepath.Join(root, "etc/kubernetes/manifests/konnectivity-server-pod.yaml")); err != nil {
		t.Errorf("missing kubeconfig removed the static pod: %v", err)
	}
	code, out, stderr := runHostCmd(t, "teardown", "--root", root, "--gather", dir)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "usage.json"))
	if err != nil || !strings.Contains(string(data), `"error": "no kubeconfig: none found: no --kubeconfig, $KUBECONFIG unset, no `+filepath.Join(root, "opt/openshift/auth/kubeconfig")+`"`) {
		t.Errorf("usage.json (%v):\n%s", err, data)
	}
	table := strings.Index(out, "What used the tunnel")
	if table < 0 || table < strings.Index(out, "teardown: ") || !strings.Contains(out[table:], "proxy-server metrics: not read: ") {
		t.Errorf("stdout lacks the usage table after teardown's lines, with the server's reason:\n%s", out)
	}
	if _, out, _ := runHostCmd(t, "teardown", "--root", hostRenderedRoot(t), "--quiet"); out != "" {
		t.Errorf("--quiet printed:\n%s", out)
	}
}

// TestTeardownDeadlineLeavesNoFiles: against a kube-apiserver that stalls,
// --timeout is one deadline for the usage report and the deletes, and the
// files are removed whatever it says: the objects stay recorded, the run
// ends near its deadline, not a --timeout per read.
func TestTeardownDeadlineLeavesNoFiles(t *testing.T) {
	root := hostRenderedRoot(t)
	kc := fakekas.Kubeconfig(t, "", fakekas.Hostile(t, fakekas.Stall))
	start := time.Now()
	code, stdout, stderr := runProgram(t, New(Config{}), nil, "teardown", "--root", root, "--kubeconfig", kc, "--timeout", "1s")
	took := time.Since(start)
	if code != 0 {
		t.Fatalf("exit %d, want 0 (the files removed, a warning for the cluster)\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(root, "etc/kubernetes/manifests/konnectivity-server-pod.yaml")); !os.IsNotExist(err) {
		t.Errorf("the static pod manifest is still there (%v): the deadline must not keep the files", err)
	}
	if !strings.Contains(stderr, "stay recorded") || !strings.Contains(stderr, "the command's --timeout") && !strings.Contains(stderr, "timed out: --timeout 1s passed") {
		t.Errorf("stderr does not say the deadline left the objects recorded:\n%s", stderr)
	}
	// Several reads and deletes each given --timeout would take several
	// seconds; one deadline takes about one (the slack is the machine's).
	t.Logf("teardown against a stalling kube-apiserver took %s with --timeout 1s", took)
	if took > 1*time.Second+deadlineGrace+hostileSlack {
		t.Errorf("took %s with --timeout 1s: the deadline did not bound the run", took)
	}
}

// TestTeardownLockWaitWithinTimeout: the wait for a root another run holds
// ends by --timeout when that comes before --lock-timeout, exit 6 naming
// --timeout as the flag to raise, and nothing removed.
func TestTeardownLockWaitWithinTimeout(t *testing.T) {
	root := hostRenderedRoot(t)
	d, err := os.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := syscall.Flock(int(d.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runProgram(t, New(Config{}), nil, "teardown", "--root", root, "--kubeconfig", "", "--timeout", "500ms", "--lock-timeout", "1h")
	if code != exitLocked || !strings.Contains(stderr, "--timeout") {
		t.Errorf("exit %d, want %d naming --timeout\nstdout:\n%s\nstderr:\n%s", code, exitLocked, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(root, "etc/kubernetes/manifests/konnectivity-server-pod.yaml")); err != nil {
		t.Errorf("the static pod manifest is gone (%v), want the root left to the lock's holder", err)
	}
}

// TestTeardownSaysNoKubeconfigOnce: without a kubeconfig, teardown says so
// once, in its kubeconfig line with the lookup's answer; the warning and
// the usage table only say what it means.
func TestTeardownSaysNoKubeconfigOnce(t *testing.T) {
	code, stdout, stderr := runHostCmd(t, "teardown", "--root", hostRenderedRoot(t))
	if code != 0 || strings.Count(stdout+stderr, "no kubeconfig") != 1 || !strings.Contains(stdout, "no kubeconfig: none found: ") {
		t.Errorf("exit %d; want \"no kubeconfig\" once, in the kubeconfig line\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
