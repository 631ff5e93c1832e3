package bootkube

import (
	"context"
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/podmantest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tunneltest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/render"
)

// gatherDir is the stage's default GATHER_DIR, under the scratch root.
const gatherDir = "/var/log/bootstrap-control-plane/konnectivity"

// waitVerdict is the part of wait.json the tests read.
type waitVerdict struct {
	Ready  bool   `json:"ready"`
	Cause  string `json:"cause"`
	Agents int    `json:"agents"`
}

// gathered reads the verdict the wait stage left in the gather directory.
func gathered(t *testing.T, root string) waitVerdict {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, gatherDir, "wait.json"))
	if err != nil {
		t.Fatalf("the wait stage left no verdict for the log bundle: %v", err)
	}
	var v waitVerdict
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("wait.json is not the JSON verdict: %v\n%s", err, data)
	}
	return v
}

func waitMarker(root string) string {
	return filepath.Join(root, "opt", "openshift", "konnectivity-wait.done")
}

// TestStageWaitNotReady runs the wait stage with the real podman and image
// on a rendered root whose server is not running: strict fails the stage
// and leaves no marker (a restarted bootkube.service waits again); the
// default logs the verdict, writes it and goes on. Both leave wait.json.
func TestStageWaitNotReady(t *testing.T) {
	image := podmantest.BundleImage(t)
	root := scratchRoot(t)
	if _, err := render.Run(context.Background(), render.Options{Overlay: "ipv4", Root: root, BootstrapIP: netip.MustParseAddr("192.0.2.10"), Image: taggedProxyImage}); err != nil {
		t.Fatal(err)
	}
	env := []string{"KONNECTIVITY_WAIT_TIMEOUT=2s"}

	_, stderr, err := stage(t, root, image, append(env, "KONNECTIVITY_WAIT_STRICT=true"), "wait")
	if err == nil {
		t.Fatal("strict wait stage passed with no server running")
	}
	for _, want := range []string{"NOT ready after", "server-not-running", "KONNECTIVITY_WAIT_STRICT=true: failing the stage"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("strict stage log lacks %q", want)
		}
	}
	if v := gathered(t, root); v.Ready || v.Cause != "server-not-running" {
		t.Errorf("strict: wait.json says %+v, want not ready, cause server-not-running", v)
	}
	if _, err := os.Stat(waitMarker(root)); !os.IsNotExist(err) {
		t.Errorf("the failed strict stage left its .done marker: %v", err)
	}

	if err := os.Remove(filepath.Join(root, gatherDir, "wait.json")); err != nil {
		t.Fatal(err)
	}
	_, stderr, err = stage(t, root, image, env, "wait")
	if err != nil {
		t.Fatalf("default wait stage failed the install on a verdict: %v", err)
	}
	for _, want := range []string{"NOT ready after", "server-not-running", "going on, as KONNECTIVITY_WAIT_STRICT=false"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("default stage log lacks %q", want)
		}
	}
	if v := gathered(t, root); v.Ready || v.Cause != "server-not-running" {
		t.Errorf("default: wait.json says %+v, want not ready, cause server-not-running", v)
	}
	if _, err := os.Stat(waitMarker(root)); err != nil {
		t.Errorf("no .done marker after the default stage: %v", err)
	}

	// A restarted bootkube.service: the marker skips the wait, no podman runs.
	podman := "PODMAN=" + filepath.Join(t.TempDir(), "no-podman")
	if _, _, err := stage(t, root, image, append(env, podman), "wait"); err != nil {
		t.Errorf("second wait stage: %v; want the marker to skip it", err)
	}
}

// TestStageWaitSettings: a strict value that is neither true nor false is
// refused, naming the variable, before anything runs.
func TestStageWaitSettings(t *testing.T) {
	image := podmantest.BundleImage(t)
	root := scratchRoot(t)
	_, stderr, err := stage(t, root, image, []string{"KONNECTIVITY_WAIT_STRICT=yes"}, "wait")
	if err == nil || !strings.Contains(stderr, "KONNECTIVITY_WAIT_STRICT=yes: set it to true") {
		t.Errorf("KONNECTIVITY_WAIT_STRICT=yes: %v, log %q; want a failure naming the setting", err, stderr)
	}
}

// TestStageWaitReady runs the strict wait stage against the real
// proxy-server and proxy-agent started from a rendered root: podman runs in
// the bootstrap namespace (a PODMAN wrapper), so the container's host
// network is the one the server's health port is on, as on a bootstrap
// node. The wrapper enters only the network namespace (nsenter --net):
// `ip netns exec` also remounts /sys, hiding the cgroup mount runc needs.
// The stage passes and wait.json says ready with the agent counted.
func TestStageWaitReady(t *testing.T) {
	image := podmantest.BundleImage(t)
	h := tunneltest.New(t, "ipv4")
	h.StartServer(t)
	h.StartAgent(t)
	real, err := exec.LookPath("podman")
	if err != nil {
		t.Fatal(err)
	}
	nsenter, err := exec.LookPath("nsenter")
	if err != nil {
		tooltest.Missing(t, fmt.Sprintf("needs nsenter (util-linux) to run podman in the bootstrap namespace: %v", err))
	}
	wrapper := filepath.Join(t.TempDir(), "podman")
	script := "#!/bin/sh\nexec " + nsenter + " --net=/run/netns/" + h.Boot + " " + real + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{"PODMAN=" + wrapper, "KONNECTIVITY_WAIT_STRICT=true", "KONNECTIVITY_WAIT_TIMEOUT=2m", "CLUSTER_KUBECONFIG="}
	_, stderr, err := stage(t, h.Root, image, env, "wait")
	if err != nil {
		t.Fatalf("strict wait stage with the server and an agent running: %v", err)
	}
	if !strings.Contains(stderr, "ready after") {
		t.Errorf("the stage did not log the ready verdict")
	}
	if v := gathered(t, h.Root); !v.Ready || v.Agents != 1 {
		t.Errorf("wait.json says %+v, want ready with 1 agent", v)
	}
	if _, err := os.Stat(waitMarker(h.Root)); err != nil {
		t.Errorf("no .done marker after the stage passed: %v", err)
	}
}
