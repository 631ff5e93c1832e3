// Package podmantest runs the real podman for tests: with the repository's
// containers.conf, a private image store under _output/podman (the host's
// store is never touched), the konnectivity-bundle image built from this
// checkout, and a Docker API service for the docker CLI kustomize runs.
package podmantest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/shortroot"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// Require makes the test an integration test (skipped under -short) that
// needs podman, installed and run as root; without them it is
// tooltest.Missing (a failure under KB_REQUIRE_TOOLS=1, as in CI).
func Require(tb testing.TB) {
	tb.Helper()
	tooltest.Integration(tb, "runs podman")
	if _, err := exec.LookPath("podman"); err != nil {
		tooltest.Missing(tb, "podman is not installed: run tools/deps.sh (as root)")
	} else if os.Geteuid() != 0 {
		tooltest.Missing(tb, "podman tests run as root (the CI configuration is for root podman)")
	}
}

var (
	envOnce sync.Once
	env     []string
	envErr  error
)

// Env is the environment for podman, and for every script or tool that
// runs it: the process environment with CONTAINERS_CONF and
// CONTAINERS_STORAGE_CONF pointing at the repository's settings.
func Env(tb testing.TB) []string {
	tb.Helper()
	Require(tb)
	envOnce.Do(func() {
		root := tooltest.RepoRoot()
		dir := filepath.Join(root, "_output", "podman")
		conf := filepath.Join(dir, "storage.conf")
		storage := fmt.Sprintf("[storage]\ndriver = \"overlay\"\ngraphroot = %q\nrunroot = %q\n",
			filepath.Join(dir, "storage"), filepath.Join(dir, "run"))
		if envErr = os.MkdirAll(dir, 0o755); envErr != nil {
			return
		}
		if envErr = writeIfChanged(conf, []byte(storage)); envErr != nil {
			return
		}
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "CONTAINERS_CONF=") && !strings.HasPrefix(kv, "CONTAINERS_STORAGE_CONF=") {
				env = append(env, kv)
			}
		}
		env = append(env,
			"CONTAINERS_CONF="+filepath.Join(root, "deploy", "podman", "containers.conf"),
			"CONTAINERS_STORAGE_CONF="+conf)
	})
	if envErr != nil {
		tb.Fatalf("configuring podman: %v", envErr)
	}
	return env
}

// writeIfChanged keeps the file stable while parallel test processes read it.
func writeIfChanged(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	tmp := fmt.Sprintf("%s.%d", path, os.Getpid())
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// Podman runs podman with Env and returns its stdout; stderr goes into the error.
func Podman(tb testing.TB, args ...string) (string, error) {
	tb.Helper()
	cmd := exec.Command("podman", args...)
	cmd.Env = Env(tb)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("podman %s: %w\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String(), nil
}

// MustPodman is Podman that fails the test on error.
func MustPodman(tb testing.TB, args ...string) string {
	tb.Helper()
	out, err := Podman(tb, args...)
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

var (
	imageOnce sync.Once
	imageRef  string
	imageErr  error
)

// WiringTag is the image tag base/container's function config names, which
// kustomize's docker runs.
const WiringTag = "localhost/konnectivity-bundle:v1alpha1"

// BundleImage builds the konnectivity-bundle image from this checkout once
// per test process with podman, as `make image` does (deploy/image/build.sh;
// make image also checks the docker kustomize runs, which the tests replace
// with their own), and returns its versioned reference. It is also tagged
// WiringTag, the tag base/container names.
func BundleImage(tb testing.TB) string {
	tb.Helper()
	e := Env(tb)
	imageOnce.Do(func() {
		cmd := exec.Command(filepath.Join(tooltest.RepoRoot(), "deploy", "image", "build.sh"))
		cmd.Env = e
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			imageErr = fmt.Errorf("deploy/image/build.sh: %w\n%s", err, stderr.String())
			return
		}
		imageRef = strings.TrimSpace(string(out))
	})
	if imageErr != nil {
		tb.Fatal(imageErr)
	}
	return imageRef
}

// DockerHost starts `podman system service` on a socket in a short
// temporary directory (shortroot: a long TMPDIR cannot push it over the
// limit), so a docker CLI has a daemon, and returns the DOCKER_HOST value.
// The service keeps its containers in a store of its own in that same short
// directory, not in _output/podman: under a deep checkout (a CI runner's
// /home/runner/work/...) podman 4.3's API service never ends a `docker run
// -i` whose container exited. images are copied in from the tests' store
// first. The service is stopped, by its process id, and its store unmounted
// and removed when the test ends.
func DockerHost(tb testing.TB, images ...string) string {
	tb.Helper()
	dir := shortroot.Dir(tb, "kbp", "podman.sock")
	sock := filepath.Join(dir, "podman.sock")
	store := []string{"--root", filepath.Join(dir, "storage"), "--runroot", filepath.Join(dir, "run"), "--tmpdir", filepath.Join(dir, "tmp")}
	tb.Cleanup(func() { unmountUnder(tb, dir) }) // before shortroot removes dir
	for _, image := range images {
		copyImage(tb, image, store)
	}
	cmd := exec.Command("podman", append(store, "system", "service", "--time=0", "unix://"+sock)...)
	cmd.Env = Env(tb)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		tb.Fatalf("podman system service: %v", err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	tb.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	for deadline := time.Now().Add(60 * time.Second); ; {
		if c, err := net.Dial("unix", sock); err == nil {
			c.Close()
			return "unix://" + sock
		}
		select {
		case <-done:
			tb.Fatalf("podman system service exited: %s", stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			tb.Fatalf("podman system service did not listen on %s within a minute: %s", sock, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// copyImage copies image from the tests' store into the store that the
// podman flags store name.
func copyImage(tb testing.TB, image string, store []string) {
	tb.Helper()
	tar := filepath.Join(tb.TempDir(), "image.tar")
	MustPodman(tb, "save", "--quiet", "--output", tar, image)
	MustPodman(tb, append(store, "load", "--quiet", "--input", tar)...)
}

// unmountUnder detaches every mount at or below dir (the overlay mounts a
// podman store leaves), deepest first, so that dir can be removed.
func unmountUnder(tb testing.TB, dir string) {
	tb.Helper()
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		tb.Logf("reading mounts to clean %s: %v", dir, err)
		return
	}
	var points []string
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) > 4 && (f[4] == dir || strings.HasPrefix(f[4], dir+"/")) {
			points = append(points, f[4])
		}
	}
	slices.SortFunc(points, func(a, b string) int { return len(b) - len(a) })
	for _, p := range points {
		if err := syscall.Unmount(p, syscall.MNT_DETACH); err != nil {
			tb.Logf("unmounting %s: %v", p, err)
		}
	}
}

// DockerShim returns a directory holding a `docker` that runs podman
// directly, exactly what Debian's podman-docker installs as /usr/bin/docker.
// kustomize runs container functions with it. (A docker CLI talking to
// `podman system service` is not used: podman 4.3's Docker API loses the
// exit code of `docker run --rm`, so kustomize would take a failing
// function for a successful one; see TestDockerAPIServiceLosesFailures.)
func DockerShim(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	podman, err := exec.LookPath("podman")
	if err != nil {
		tb.Fatal(err)
	}
	script := "#!/bin/sh\nexec " + podman + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "docker"), []byte(script), 0o755); err != nil {
		tb.Fatal(err)
	}
	return dir
}
