// Package image tests `make image` (deploy/image/build.sh --for-kustomize)
// on each kind of host the container wiring meets: it must leave the image
// where the docker kustomize runs finds it and prove that docker runs it, or
// warn naming the cause and the fix (and still succeed, the image being
// built), or fail when it cannot build the image at all.
package image

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/podmantest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// dockerCLI is where this kind of host has a Docker CLI without a daemon.
const dockerCLI = "/usr/local/bin/docker"

// sysPath holds podman, git and the shell tools, and no docker unless
// podman-docker is installed (then /usr/bin/docker runs podman, which the
// cases below allow for).
const sysPath = "/usr/bin:/bin"

// makeImage runs build.sh --for-kustomize with PATH and extra environment.
func makeImage(t *testing.T, path string, extra ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(filepath.Join(tooltest.RepoRoot(), "deploy", "image", "build.sh"), "--for-kustomize")
	var env []string
	for _, kv := range podmantest.Env(t) {
		if !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "DOCKER_HOST=") {
			env = append(env, kv)
		}
	}
	// A fixed VERSION keeps the binary's build cached across the cases.
	cmd.Env = append(env, append([]string{"PATH=" + path, "VERSION=wiring-test"}, extra...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	t.Logf("make image with PATH=%s:\n%s", path, stderr.String())
	return stderr.String(), err
}

// goDir is the directory of the go that runs this test, for build.sh.
func goDir(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		tooltest.Missing(t, fmt.Sprintf("needs go on PATH: %v", err))
	}
	return filepath.Dir(goBin)
}

// fakeDockerNoDaemon is a docker CLI whose daemon does not answer: the real
// one on this kind of host when it is installed, else a script that answers
// as it does.
func fakeDockerNoDaemon(t *testing.T) (dir string, extra []string) {
	t.Helper()
	if _, err := os.Stat(dockerCLI); err == nil {
		return filepath.Dir(dockerCLI), []string{"DOCKER_HOST=unix://" + filepath.Join(t.TempDir(), "nothing.sock")}
	}
	dir = t.TempDir()
	script := "#!/bin/sh\ncase $1 in --version) echo 'Docker version 28.2.2';; *) echo 'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?' >&2; exit 1;; esac\n"
	if err := os.WriteFile(filepath.Join(dir, "docker"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, nil
}

func wantAll(t *testing.T, out string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(out, w) {
			t.Errorf("make image's output lacks %q", w)
		}
	}
}

// TestPodmanDocker: a docker that runs podman (podman-docker) works, and
// make image says the image was run through it as kustomize runs it.
func TestPodmanDocker(t *testing.T) {
	shim := podmantest.DockerShim(t)
	out, err := makeImage(t, shim+":"+goDir(t)+":"+sysPath)
	if err != nil {
		t.Fatalf("make image failed with podman-docker first on PATH: %v", err)
	}
	wantAll(t, out, "with "+shim+"/docker (podman): checked by running it so")
}

// TestDockerWithoutDaemon is the case of a CI image: a Docker CLI first on
// PATH with no daemon, podman installed. make image builds the image with
// podman and succeeds, warning that the container wiring cannot run it,
// naming the docker, its error and the fixes, the exact PATH one when
// podman's docker is further down PATH, preceded by CONTAINERS_CONF when
// this host's podman cannot run the image without it.
func TestDockerWithoutDaemon(t *testing.T) {
	dir, extra := fakeDockerNoDaemon(t)
	shim := podmantest.DockerShim(t)
	out, err := makeImage(t, dir+":"+goDir(t)+":"+shim+":"+sysPath, extra...)
	if err != nil {
		t.Fatalf("make image failed after building the image, when only the docker wiring check failed: %v", err)
	}
	hint := "PATH=" + shim + ":$PATH kustomize build --enable-alpha-plugins"
	conf := filepath.Join(tooltest.RepoRoot(), "deploy", "podman", "containers.conf") // what podmantest.Env sets
	if !podmanRunsWithout(t, "CONTAINERS_CONF", "localhost/konnectivity-bundle:wiring-test") {
		hint = "CONTAINERS_CONF=" + conf + " " + hint
	} else if strings.Contains(out, "CONTAINERS_CONF="+conf+" PATH=") {
		t.Errorf("the hint names CONTAINERS_CONF, which this host's podman does not need")
	}
	wantAll(t, out, "warning: localhost/konnectivity-bundle:wiring-test is built, but kustomize's container wiring cannot run it here",
		"the docker kustomize runs, "+dir+"/docker (first on PATH), reaches no daemon: Cannot connect to the Docker daemon",
		"exit status 125", "start its daemon", hint,
		"localhost/konnectivity-bundle:v1alpha1 is built in podman's store", "--enable-alpha-plugins --enable-exec")
}

// podmanRunsWithout reports whether podman runs image with the test's
// environment less the variable unset.
func podmanRunsWithout(t *testing.T, unset, image string) bool {
	t.Helper()
	cmd := exec.Command("podman", "run", "--rm", "--network", "none", "--user", "nobody", image, "version")
	for _, kv := range podmantest.Env(t) {
		if !strings.HasPrefix(kv, unset+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.CombinedOutput()
	t.Logf("podman run without %s: %v\n%s", unset, err, out)
	return err == nil
}

// TestNoDockerWithPodman: podman alone is not enough, kustomize runs docker;
// the image is built, so make image warns and succeeds.
func TestNoDockerWithPodman(t *testing.T) {
	if _, err := os.Stat("/usr/bin/docker"); err == nil {
		t.Skip("skipping: /usr/bin/docker exists (podman-docker), so PATH cannot leave docker out and keep podman")
	}
	out, err := makeImage(t, goDir(t)+":"+sysPath)
	if err != nil {
		t.Fatalf("make image failed after building the image with podman: %v", err)
	}
	wantAll(t, out, "warning: localhost/konnectivity-bundle:wiring-test is built", "there is no docker on PATH", "apt-get install podman-docker", "--enable-exec")
}

// TestNoContainerRuntime: neither docker nor podman; the message points to
// the exec wiring, and nothing is built.
func TestNoContainerRuntime(t *testing.T) {
	dir := t.TempDir()
	for _, tool := range []string{"bash", "dirname", "grep", "env", "git", "mkdir", "cp", "flock", "date", "sleep"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			tooltest.Missing(t, fmt.Sprintf("needs %s: %v", tool, err))
		}
		if err := os.Symlink(p, filepath.Join(dir, tool)); err != nil {
			t.Fatal(err)
		}
	}
	out, err := makeImage(t, dir+":"+goDir(t))
	if err == nil {
		t.Fatal("make image succeeded with no container runtime")
	}
	wantAll(t, out, "no container runtime: neither docker nor podman", "make plugins", "kustomize build --enable-alpha-plugins --enable-exec")
	if strings.Contains(out, "go build") {
		t.Error("make image built the binary although nothing can hold the image")
	}
}

// TestDockerWithDaemon: a Docker CLI whose daemon answers (here podman's
// Docker API service) gets the image through `docker build`, and the real
// kustomize then runs the overlay through it. make image warns about that
// daemon's lost exit codes (docs/kustomize.md). That same podman bug can
// leave a `docker run --rm` waiting for ever after its container exited
// (make image then says so, after 60 s); such a run, and only such a run,
// is tried again on a fresh service, at most three times in all, since it
// says nothing about the image or the wiring.
func TestDockerWithDaemon(t *testing.T) {
	if _, err := os.Stat(dockerCLI); err != nil {
		t.Skipf("skipping: no Docker CLI at %s to give a daemon", dockerCLI)
	}
	kustomize := tooltest.Bin(t, "kustomize")
	for attempt := 1; ; attempt++ {
		hung := dockerWithDaemon(t, kustomize)
		if hung == "" {
			return
		}
		if attempt == 3 {
			t.Fatalf("podman's Docker API service lost the end of docker run in all %d attempts; last: %s", attempt, hung)
		}
		t.Logf("attempt %d: podman's Docker API service lost the end of docker run (%s); trying again on a fresh service", attempt, hung)
	}
}

// dockerWithDaemon is one attempt of TestDockerWithDaemon; it returns why
// the attempt hung in podman's API service, or "" when it ran to the end.
func dockerWithDaemon(t *testing.T, kustomize string) (hung string) {
	host := "DOCKER_HOST=" + podmantest.DockerHost(t)
	path := filepath.Dir(dockerCLI) + ":" + goDir(t) + ":" + sysPath
	out, err := makeImage(t, path, host)
	if strings.Contains(out, "did not return from docker run within") {
		return "make image's check"
	}
	if err != nil {
		t.Fatalf("make image failed with a Docker daemon: %v", err)
	}
	wantAll(t, out, "docker build of", "with "+dockerCLI+" (podman-api): checked by running it so", "loses the exit code")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, kustomize, "build", "--enable-alpha-plugins", filepath.Join(tooltest.RepoRoot(), "overlays", "ipv4"))
	cmd.Env = []string{"PATH=" + path, "HOME=" + t.TempDir(), host, "KONNECTIVITY_BOOTSTRAP_IP=192.0.2.10", "KONNECTIVITY_PROXY_VERSION=v0.28"}
	// A hung docker run that kustomize started outlives kustomize's kill
	// and holds its output open: stop waiting for that output 10 s later.
	cmd.WaitDelay = 10 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	bundle, err := cmd.Output()
	if ctx.Err() != nil {
		return "kustomize build, 3 minutes"
	}
	if err != nil {
		t.Fatalf("kustomize build through the Docker daemon: %v\n%s", err, stderr.String())
	}
	// The proxy version reached the container through the wiring's envs.
	wantAll(t, string(bundle), "kind: DaemonSet", "--proxy-server-host=192.0.2.10", "bundle.konnectivity.io/proxy-version: v0.28")
	return ""
}

// TestWiringCheckEndsAHungDockerRun: a docker run that ignores SIGTERM and
// never returns, as one hung in podman's Docker API service does (docker
// run hands the signal on to the container), is killed, and the check
// fails saying so instead of hanging make image.
func TestWiringCheckEndsAHungDockerRun(t *testing.T) {
	dir := t.TempDir()
	// docker version answers as podman's API service; docker run ignores
	// SIGTERM, and exec leaves no child to hold the output open.
	script := "#!/bin/bash\ncase $1 in\n" +
		"  version) echo 'Podman Engine;' ;;\n" +
		"  run) trap '' TERM; exec sleep 600 ;;\n" +
		"  *) exit 1 ;;\nesac\n"
	if err := os.WriteFile(filepath.Join(dir, "docker"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	// Generous room on a loaded machine; the check itself gives up after
	// 0.5 s and kills the run 0.2 s later (60 s and 10 s in production,
	// where the kill path is the same, only longer): the run never returns,
	// so the test waits for both to pass.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", filepath.Join(tooltest.RepoRoot(), "deploy", "image", "check-wiring.sh"), "localhost/konnectivity-bundle:hung")
	cmd.Env = []string{"PATH=" + dir + ":" + sysPath, "KB_WIRING_TIMEOUT=0.5", "KB_WIRING_KILL_AFTER=0.2"}
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("check-wiring.sh still waited on the hung docker run after 5 minutes:\n%s", out)
	}
	if err == nil {
		t.Fatalf("check-wiring.sh passed a docker run that never returned:\n%s", out)
	}
	wantAll(t, string(out), "did not return from docker run within 0.5 s", "podman issue 18889", "exec wiring")
}
