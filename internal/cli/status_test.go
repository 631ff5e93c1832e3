package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// The status and probe scenarios against the real server and agent are in
// internal/diagnostics/hoststatus and internal/diagnostics/egressprobe; these cover the command's
// own contract: arguments, formats and exit codes.
func TestStatusAndProbeCommands(t *testing.T) {
	empty := t.TempDir()
	runCLICases(t, []cliCase{
		{"status of an unrendered root", []string{"status", "--root", empty}, 1, []string{"render has not written this root"}, ""},
		{"status json", []string{"status", "--root", empty, "-o", "json"}, 1, []string{`"usable": false`}, ""},
		{"status bad output", []string{"status", "-o", "yaml"}, 2, nil, "--output"},
		{"status takes no args", []string{"status", "x"}, 2, nil, "takes no arguments"},
		{"probe unrendered root", []string{"probe", "--root", empty, "192.0.2.1:443"}, 1, []string{"failed: no state file"}, ""},
		{"probe json", []string{"probe", "--root", empty, "-o", "json", "https://192.0.2.1/"}, 1, []string{`"stage": "config"`}, ""},
		{"probe needs a target", []string{"probe"}, 2, nil, "exactly one TARGET"},
		{"probe bad target", []string{"probe", "--root", empty, "nohost"}, 2, nil, "give host:port"},
	})
}

// TestStatusGather: --gather writes the JSON report and the usage report
// even when the tunnel is unusable, and no metrics file when there were no
// metrics to read; the usage report says why each side was not read.
func TestStatusGather(t *testing.T) {
	empty := t.TempDir()
	dir := filepath.Join(t.TempDir(), "bootstrap-control-plane", "konnectivity")
	code, stdout, stderr := runCLI(t, "", "status", "--root", empty, "--gather", dir)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (unusable)\n%s%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "status.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Root   string `json:"root"`
		Usable bool   `json:"usable"`
	}
	if err := json.Unmarshal(data, &rep); err != nil || rep.Root != empty || rep.Usable {
		t.Errorf("status.json = %s (%v), want root %s and usable false", data, err, empty)
	}
	if _, err := os.Stat(filepath.Join(dir, "metrics.txt")); !os.IsNotExist(err) {
		t.Errorf("metrics.txt written without metrics: %v", err)
	}
	var use struct {
		KubeAPIServer, ProxyServer struct {
			Read  bool
			Error string
		}
	}
	data, err = os.ReadFile(filepath.Join(dir, "usage.json"))
	if err != nil || json.Unmarshal(data, &use) != nil {
		t.Fatalf("usage.json: %v\n%s", err, data)
	}
	noKube := "no kubeconfig: none found: no --kubeconfig, $KUBECONFIG unset, no " + filepath.Join(empty, "opt/openshift/auth/kubeconfig")
	if use.KubeAPIServer.Read || use.KubeAPIServer.Error != noKube || use.ProxyServer.Read || use.ProxyServer.Error == "" {
		t.Errorf("usage.json = %s, want both sides unread with the reason (%s; no server)", data, noKube)
	}
	// the reason in the kubeconfig line; the usage table points at it
	if !strings.Contains(stdout, "kube-apiserver metrics: not read, without a kubeconfig (the kubeconfig line says why)") ||
		!strings.Contains(stdout, "\n"+noKube+"\n") {
		t.Errorf("stdout lacks the usage table's reason:\n%s", stdout)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("gather left %d entries, want only status.json and usage.json (no temporary files)", len(entries))
	}
}

// TestStatusRecoveryWaitsOnlyTimeout: with a journal to recover and the
// root's lock held by another run, status waits for the lock no longer than
// its --timeout, says so and names that flag as the fix, exits locked as
// render, certs and teardown do, and leaves the journal to the run that
// holds the lock.
func TestStatusRecoveryWaitsOnlyTimeout(t *testing.T) {
	root := t.TempDir()
	journal := filepath.Join(root, hostlayout.JournalPath)
	if err := os.MkdirAll(filepath.Dir(journal), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(journal, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := os.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := syscall.Flock(int(d.Fd()), syscall.LOCK_EX); err != nil { // another open file: flock conflicts with it
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "", "status", "--root", root, "--timeout", "300ms")
	if code != exitLocked {
		t.Fatalf("exit %d, want %d (locked)\n%s%s", code, exitLocked, stdout, stderr)
	}
	for _, want := range []string{"an interrupted run waits to be recovered", "still held after waiting 300ms", "raise --timeout"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if _, err := os.Stat(journal); err != nil {
		t.Errorf("the journal is gone, want it left to the lock's holder: %v", err)
	}
}
