package bootkube

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/podmantest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// TestStageStopReachesTheCommand stops the render stage the way stopping
// bootkube.service does, with SIGTERM to every process of the stage (bash
// and podman), while render waits in the container for the root's lock,
// which the test holds. The real podman must pass the signal into the
// container, render must stop there with nothing changed (exit 8), and the
// stage must show render's message, write no .done marker and fail.
func TestStageStopReachesTheCommand(t *testing.T) {
	image := podmantest.BundleImage(t)
	root := scratchRoot(t)
	lock, err := os.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	before := listing(t, root)
	cmd := exec.Command(filepath.Join(tooltest.RepoRoot(), "deploy", "bootkube", "konnectivity.sh"), "render")
	cmd.Env = append(podmantest.Env(t), "HOST_ROOT="+root, "KONNECTIVITY_BUNDLE_IMAGE="+image,
		"KONNECTIVITY_IMAGE="+taggedProxyImage, "KONNECTIVITY_PROXY_VERSION=v0.28", "OPENSHIFT_INSTALL_BOOTSTRAP_NODE_IP=192.0.2.10")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForRender(t, cmd)
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	t.Logf("konnectivity.sh render:\n%s", stderr.String())
	if code := cmd.ProcessState.ExitCode(); err == nil || code != 8 {
		t.Errorf("the stage exited %d (%v), want render's 8", code, err)
	}
	if want := "interrupted by SIGTERM before the render changed anything: the host is as before"; !strings.Contains(stderr.String(), want) {
		t.Errorf("the stage did not pass on render's %q", want)
	}
	if after := listing(t, root); after != before {
		t.Errorf("the root changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// waitForRender waits until render runs inside the container (its process
// is visible from here) and has had time to install its signal handler.
func waitForRender(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if cmd.ProcessState != nil {
			t.Fatal("the stage ended before render started")
		}
		procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
		for _, p := range procs {
			if b, err := os.ReadFile(p); err == nil && bytes.HasPrefix(b, []byte("/usr/bin/konnectivity-bundle\x00render\x00--root\x00/host")) {
				time.Sleep(time.Second) // render waits up to 30s for the lock
				return
			}
		}
	}
	t.Fatal("render never started in the container")
}

// listing is every path under root with its size, one a line.
func listing(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		b.WriteString(rel + " " + fi.Mode().String() + "\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
