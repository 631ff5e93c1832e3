//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/podmantest"
)

// TestTunnelInContainers is TestTunnel's flow with a real container runtime
// instead of the mapper: proxy-server runs from exactly the static pod
// manifest render wrote (`podman kube play`), proxy-agent from the rendered
// DaemonSet's pod template and Secret (`podman run` in the node's network
// namespace), both from an image built FROM scratch and named by
// `render --image`, in the mode the version renders by default. The
// bootstrap kube-apiserver's webhook calls go through these containers.
func TestTunnelInContainers(t *testing.T) {
	podmantest.Require(t)
	buildProxyImage(t)
	for _, fam := range []family{ipv4, ipv6} {
		t.Run(proxyVersion.DefaultMode+"-"+fam.name, func(t *testing.T) { runContainerTunnel(t, fam) })
	}
}

func runContainerTunnel(t *testing.T, fam family) {
	e := newContainerEnv(t, fam)
	t.Run("bootstrap host has no route to the pod network", e.noRouteToPods)
	t.Run("webhook fails before the server runs", e.failsBeforeServer)

	manifest := filepath.Join(e.root, bundle.DefaultStaticPodManifest)
	playStaticPod(t, t, e.tp.boot, e.root, e.h.b.serverPod, manifest)
	waitForSocket(t, e.h.socket)
	// A fixed name, so a run killed before its cleanup leaves nothing the next run keeps.
	const agent = "kbe2e-agent"
	run, err := agentRun(e.h.b.daemonSet.Spec.Template.Spec, agent, e.tp.node, testDir(t), e.h.b.secrets)
	if err != nil {
		t.Fatalf("the rendered DaemonSet template: %v", err)
	}
	podmantest.Podman(t, "rm", "--force", agent)
	t.Cleanup(func() {
		if t.Failed() {
			logs, _ := podmantest.Podman(t, "logs", "--tail", "30", agent)
			t.Logf("--- last lines of the agent container:\n%s", logs)
		}
		podmantest.Podman(t, "rm", "--force", "--time", "2", agent)
	})
	podmantest.MustPodman(t, run...)
	first, err := eventually(60*time.Second, 20*time.Millisecond, func() error { return admit(e.kas.client, false) })
	if err != nil {
		t.Fatalf("no webhook call through the containers: %v", err)
	}
	e.figure("first webhook call after the agent container starts", first.Round(time.Millisecond))

	t.Run("allowed and denied through the containers", e.admitsThroughTunnel)
	t.Run("containers run the rendered command lines", func(t *testing.T) { e.sameCommandLines(t, agent) })
	t.Run("podman took the server's probe as rendered", func(t *testing.T) { e.probeAsRendered(t) })
	t.Run("status sees the server container and its agent", func(t *testing.T) { statusUsable(t, e.tp.boot, e.root) })
	t.Run("webhook fails when the server container stops", func(t *testing.T) {
		podmantest.MustPodman(t, "pod", "stop", "--time", "2", e.h.b.serverPod.Name)
		if _, err := eventually(15*time.Second, 50*time.Millisecond, func() error {
			if admit(e.kas.client, false) == nil {
				return fmt.Errorf("still admitted")
			}
			return nil
		}); err != nil {
			t.Fatalf("the webhook call did not depend on the server container: %v", err)
		}
	})
}

// newContainerEnv is newEnv with the bundle rendered for proxyImage.
func newContainerEnv(t *testing.T, fam family) *env {
	t.Helper()
	e := &env{name: "containers/" + fam.name, mode: proxyVersion.DefaultMode, fam: fam, tp: newTopology(t, fam), root: shortRoot(t)}
	out, err := exec.Command(cli(t), "render", "--overlay", fam.name, "--root", e.root,
		"--bootstrap-ip", fam.bootIP, "--image", proxyImage, "--proxy-version", proxyVersion.Name).CombinedOutput()
	if err != nil {
		t.Fatalf("render: %v\n%s", err, out)
	}
	e.startCluster(t)
	return e
}

// waitForSocket waits for the server container's socket on the host.
func waitForSocket(t *testing.T, socket string) {
	t.Helper()
	if _, err := eventually(30*time.Second, 20*time.Millisecond, func() error {
		_, err := os.Stat(socket)
		return err
	}); err != nil {
		t.Fatalf("the server container made no socket at %s: %v", socket, err)
	}
}

// sameCommandLines: what the runtime started is the rendered container
// exactly (image, entrypoint and args), and the mapper's cross-check reads
// the same args.
func (e *env) sameCommandLines(t *testing.T, agent string) {
	server := mustContainer(t, e.h.b.serverPod.Spec, hostlayout.ServerPodName)
	tmpl := mustContainer(t, e.h.b.daemonSet.Spec.Template.Spec, hostlayout.AgentName)
	for _, c := range []struct {
		name        string
		image, args []string
		mapped      int
	}{
		{e.h.b.serverPod.Name + "-" + server.Name, []string{server.Image}, append(server.Command, server.Args...), len(e.h.server.argv)},
		{agent, []string{tmpl.Image}, append(tmpl.Command, tmpl.Args...), len(e.h.agent.argv)},
	} {
		out := podmantest.MustPodman(t, "inspect", "--format", "{{.ImageName}}\n{{json .Config.Entrypoint}}\n{{json .Config.Cmd}}", c.name)
		lines := strings.SplitN(strings.TrimSpace(out), "\n", 3)
		if len(lines) != 3 {
			t.Fatalf("podman inspect %s: %q, want the image, the entrypoint and the command", c.name, out)
		}
		if lines[0] != c.image[0] {
			t.Errorf("%s runs image %s, want the rendered %s", c.name, lines[0], c.image[0])
		}
		// Read as JSON: an argument may hold a comma (--cipher-suites=A,B).
		got := strings.Join(append(jsonWords(t, lines[1]), jsonWords(t, lines[2])...), " ")
		if want := strings.Join(c.args, " "); got != want {
			t.Errorf("%s runs\n  %s\nwant the rendered\n  %s", c.name, got, want)
		}
		if c.mapped != len(c.args) {
			t.Errorf("%s: the mapper has %d arguments, the container %d", c.name, c.mapped, len(c.args))
		}
	}
}

// probeAsRendered: kube play turns the liveness probe into the container's
// healthcheck. Podman runs healthchecks from systemd timers, which this
// host lacks, and an httpGet probe becomes a curl the scratch image lacks,
// so the endpoint itself is checked by status (server health).
func (e *env) probeAsRendered(t *testing.T) {
	c := mustContainer(t, e.h.b.serverPod.Spec, hostlayout.ServerPodName)
	p := c.LivenessProbe.HTTPGet
	want := fmt.Sprintf("%s:%s%s", p.Host, p.Port.String(), p.Path)
	got := podmantest.MustPodman(t, "inspect", "--format", "{{json .Config.Healthcheck}}", e.h.b.serverPod.Name+"-"+c.Name)
	if !strings.Contains(got, want) {
		t.Errorf("the server container's healthcheck %s does not probe %s", got, want)
	}
}

// statusUsable runs `status --gather` against the rendered root from the
// namespace the server runs in: usable, one agent, and the server's metrics saved.
func statusUsable(t *testing.T, ns, root string) {
	dir := filepath.Join(testDir(t), "gather")
	out, err := exec.Command("ip", "netns", "exec", ns, cli(t), "status", "--root", root, "--gather", dir).CombinedOutput()
	if err != nil {
		t.Fatalf("status: %v\n%s", err, out)
	}
	t.Logf("status:\n%s", out)
	var rep struct {
		Usable bool `json:"usable"`
		Agents int  `json:"agents"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "status.json"))
	if err == nil {
		err = json.Unmarshal(data, &rep)
	}
	if err != nil || !rep.Usable || rep.Agents != 1 {
		t.Errorf("gathered status.json %s (%v): want usable with 1 agent", data, err)
	}
	metrics, err := os.ReadFile(filepath.Join(dir, "metrics.txt"))
	if err != nil || !strings.Contains(string(metrics), proxyVersion.Metrics.AgentStreams) {
		t.Errorf("gathered metrics.txt lacks the server's %s metric (%v)", proxyVersion.Metrics.AgentStreams, err)
	}
}

// jsonWords reads an entrypoint or command podman inspect printed as JSON:
// a list of words, or one string (podman 4 prints Config.Entrypoint so), or
// null.
func jsonWords(t *testing.T, text string) []string {
	t.Helper()
	var words []string
	if err := json.Unmarshal([]byte(text), &words); err == nil {
		return words
	}
	var word string
	if err := json.Unmarshal([]byte(text), &word); err != nil {
		t.Fatalf("podman inspect printed %q, neither a JSON list nor a string: %v", text, err)
	}
	return []string{word}
}
