//go:build e2e

package e2e

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"

	bundlefn "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/podmantest"
)

// proxyImage is the apiserver-network-proxy image the container cases give
// render: built FROM scratch from the built proxy-server and proxy-agent,
// each at the path the rendered pods' command names.
const proxyImage = "localhost/apiserver-network-proxy:e2e"

// restrictedUID is the UID OpenShift's restricted-v2 SCC assigns to a pod
// that says runAsNonRoot without runAsUser (the first of a namespace's range).
const restrictedUID = "1000680000"

var proxyImageOnce sync.Once

// buildProxyImage builds proxyImage once per run; nothing is pulled.
func buildProxyImage(t *testing.T) {
	t.Helper()
	proxyImageOnce.Do(func() {
		buildScratchImage(t, proxyImage, map[string]string{
			bundlefn.ServerCommand: tool(t, "proxy-server"),
			bundlefn.AgentCommand:  tool(t, "proxy-agent"),
		}, "")
	})
}

// buildScratchImage builds tag FROM scratch with podman from static
// binaries (image path -> host path) and an optional entrypoint line;
// nothing is pulled.
func buildScratchImage(t *testing.T, tag string, bins map[string]string, entrypoint string) {
	t.Helper()
	ctx := t.TempDir()
	file := "FROM scratch\n"
	for _, dst := range slices.Sorted(maps.Keys(bins)) {
		data, err := os.ReadFile(bins[dst])
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(dst)
		if err := os.WriteFile(filepath.Join(ctx, name), data, 0o755); err != nil {
			t.Fatal(err)
		}
		file += fmt.Sprintf("COPY %s %s\n", name, dst)
	}
	file += entrypoint
	if err := os.WriteFile(filepath.Join(ctx, "Containerfile"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	podmantest.MustPodman(t, "build", "--quiet", "--pull=never", "-t", tag, ctx)
}

// playStaticPod runs the static pod manifest render wrote with
// `podman kube play`, in the bootstrap host's network namespace. The
// manifest's hostPath volumes name host paths (/etc/kubernetes/...); podman
// runs in a private mount namespace where those paths are the scratch
// root's directories, bind-mounted over an overlay of the real parents, so
// the real host's /etc and /opt are never written. The pod is removed when
// owner ends.
func playStaticPod(t, owner *testing.T, netns, root string, pod *corev1.Pod, manifest string) {
	t.Helper()
	upper := t.TempDir()
	var script []string
	tops := map[string]bool{}
	for _, v := range pod.Spec.Volumes {
		if v.HostPath == nil {
			t.Fatalf("static pod volume %s is not a hostPath", v.Name)
		}
		top := "/" + strings.Split(strings.TrimPrefix(v.HostPath.Path, "/"), "/")[0]
		if !tops[top] {
			tops[top] = true
			up, work := filepath.Join(upper, "up"+top), filepath.Join(upper, "work"+top)
			script = append(script, fmt.Sprintf("mkdir -p %s %s && mount -t overlay overlay -o lowerdir=%s,upperdir=%s,workdir=%s %s", up, work, top, up, work, top))
		}
		script = append(script, fmt.Sprintf("mkdir -p %s && mount --bind %s %s", v.HostPath.Path, filepath.Join(root, v.HostPath.Path), v.HostPath.Path))
	}
	script = append(script, fmt.Sprintf("exec nsenter --net=/run/netns/%s podman kube play --build=false %s", netns, manifest))
	removePod := func() { podmantest.Podman(t, "pod", "rm", "--force", "--time", "2", pod.Name) }
	removePod() // a previous run killed before its cleanup
	cmd := exec.Command("unshare", "--mount", "--propagation", "private", "sh", "-ec", strings.Join(script, "\n"))
	cmd.Env = podmantest.Env(t)
	out, err := cmd.CombinedOutput()
	owner.Cleanup(func() {
		if owner.Failed() {
			logs, _ := podmantest.Podman(t, "pod", "logs", "--tail", "30", pod.Name)
			t.Logf("--- last lines of the static pod %s:\n%s", pod.Name, logs)
		}
		removePod()
	})
	if err != nil {
		t.Fatalf("podman kube play %s: %v\n%s", manifest, err, out)
	}
	t.Logf("podman kube play %s:\n%s", manifest, out)
}

// agentRun turns the rendered DaemonSet's pod template into `podman run`
// arguments: the container's image, command and args exactly as rendered,
// the Secret volume's files (mode 0644, the Secret volume default) mounted
// where the template mounts them, the security context, and the node's
// network namespace. Anything the template asks for that this does not
// translate is an error rather than silently dropped.
func agentRun(spec corev1.PodSpec, name, netns, secretBase string, secrets map[string]*corev1.Secret) ([]string, error) {
	if len(spec.Containers) != 1 || len(spec.InitContainers) != 0 {
		return nil, fmt.Errorf("want one container and no init containers, got %d and %d", len(spec.Containers), len(spec.InitContainers))
	}
	c := spec.Containers[0]
	if len(c.Command) == 0 || len(c.Env) != 0 || len(c.EnvFrom) != 0 {
		return nil, fmt.Errorf("container %s: want a command and no environment", c.Name)
	}
	args := []string{"run", "--detach", "--name", name, "--network", "ns:/run/netns/" + netns,
		"--pull=never", "--entrypoint", c.Command[0]}
	for _, m := range c.VolumeMounts {
		src, err := secretVolume(spec, m.Name, secretBase, secrets)
		if err != nil {
			return nil, err
		}
		opt := ""
		if m.ReadOnly {
			opt = ":ro"
		}
		args = append(args, "--volume", src+":"+m.MountPath+opt)
	}
	sec, err := securityArgs(spec.SecurityContext, c.SecurityContext)
	if err != nil {
		return nil, err
	}
	args = append(args, sec...)
	args = append(args, c.Image)
	args = append(args, c.Command[1:]...)
	return append(args, c.Args...), nil
}

// secretVolume writes a Secret volume's files as the kubelet would.
func secretVolume(spec corev1.PodSpec, vol, base string, secrets map[string]*corev1.Secret) (string, error) {
	for _, v := range spec.Volumes {
		if v.Name != vol {
			continue
		}
		if v.Secret == nil {
			return "", fmt.Errorf("volume %s: only Secret volumes are expected in the agent pod", vol)
		}
		s, ok := secrets[v.Secret.SecretName]
		if !ok {
			return "", fmt.Errorf("volume %s: Secret %s was not rendered", vol, v.Secret.SecretName)
		}
		dir := filepath.Join(base, "secret-volume-"+vol)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
		for k, data := range s.Data {
			if err := os.WriteFile(filepath.Join(dir, k), data, 0o644); err != nil {
				return "", err
			}
		}
		return dir, os.Chmod(dir, 0o755)
	}
	return "", fmt.Errorf("no volume %q in the pod template", vol)
}

// securityArgs maps the pod's and container's security context to podman.
func securityArgs(pod *corev1.PodSecurityContext, c *corev1.SecurityContext) ([]string, error) {
	var args []string
	nonRoot, uid := false, ""
	if pod != nil {
		nonRoot = pod.RunAsNonRoot != nil && *pod.RunAsNonRoot
		if pod.RunAsUser != nil {
			uid = fmt.Sprint(*pod.RunAsUser)
		}
	}
	if c != nil {
		if c.RunAsNonRoot != nil {
			nonRoot = *c.RunAsNonRoot
		}
		if c.RunAsUser != nil {
			uid = fmt.Sprint(*c.RunAsUser)
		}
		if c.ReadOnlyRootFilesystem != nil && *c.ReadOnlyRootFilesystem {
			args = append(args, "--read-only")
		}
		if c.AllowPrivilegeEscalation != nil && !*c.AllowPrivilegeEscalation {
			args = append(args, "--security-opt", "no-new-privileges")
		}
		if c.Privileged != nil && *c.Privileged {
			return nil, fmt.Errorf("the agent must not be privileged")
		}
		if c.Capabilities != nil {
			for _, d := range c.Capabilities.Drop {
				args = append(args, "--cap-drop", string(d))
			}
			for _, a := range c.Capabilities.Add {
				args = append(args, "--cap-add", string(a))
			}
		}
	}
	switch {
	case uid == "0" && nonRoot:
		return nil, fmt.Errorf("runAsNonRoot with runAsUser 0 never starts")
	case uid == "" && nonRoot:
		uid = restrictedUID
	}
	if uid != "" {
		args = append(args, "--user", uid)
	}
	return args, nil
}
