package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/statefile"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/planttest"
)

// socketPath is where the rendered server listens, under the root.
const socketPath = "etc/kubernetes/bootstrap-configs/konnectivity-server.socket"

// readerPaths says, per reader command, which root-relative paths of a
// rendered root it opens: the state file, the recorded files (by
// placement) and the server's socket.
type readerPaths struct {
	placements map[string]bool // recorded files it reads; nil: every one
	socket     bool
}

// TestEveryReaderIsConfined: every command that reads a rendered root (its
// trait, command.Reads.RenderedRoot) is
// given, at each path it opens, a link to a valid copy of the file (or a
// listening socket) outside the root, a FIFO and a dangling link. Each
// fails naming the path and what is there, returns (a FIFO must not block
// it: the guard fails the test if it hangs), and never opens what is
// outside.
func TestEveryReaderIsConfined(t *testing.T) {
	rendered := renderRoot(t)
	st := readState(t, rendered)
	bundleFiles := map[string]bool{
		hostlayout.PlacementStaticPod: true, hostlayout.PlacementClusterManifest: true,
		hostlayout.PlacementKASEgressConfig: true, hostlayout.PlacementKASConfigOverride: true,
	}
	commands := []struct {
		name  string
		args  func(root string) []string
		paths readerPaths
	}{
		{"status", func(r string) []string { return []string{"status", "--root", r, "--timeout", "2s"} }, readerPaths{socket: true}},
		// wait polls at least once and gives up once its timeout has
		// passed: 1ms ends it after that first poll, whose verdict is
		// what it prints, instead of polling a refused root for longer.
		{"wait", func(r string) []string { return []string{"wait", "--root", r, "--timeout", "1ms"} }, readerPaths{socket: true}},
		{"probe", func(r string) []string { return []string{"probe", "--root", r, "--timeout", "2s", "192.0.2.1:443"} },
			readerPaths{placements: map[string]bool{hostlayout.PlacementKASEgressConfig: true, hostlayout.PlacementKASConfigOverride: true}, socket: true}},
		{"check ROOT", func(r string) []string { return []string{"check", r} }, readerPaths{}},
		{"ports ROOT", func(r string) []string { return []string{"ports", r} }, readerPaths{placements: bundleFiles}},
		{"diff ROOT", func(r string) []string { return []string{"diff", r, rendered} }, readerPaths{placements: bundleFiles}},
	}
	covered := map[string]bool{}
	for _, cmd := range commands {
		covered[strings.Fields(cmd.name)[0]] = true
	}
	for _, spec := range New(Config{}).commands {
		if spec.Reads.RenderedRoot != covered[spec.Name] {
			t.Errorf("%s declares Reads.RenderedRoot %v, but this test's list says %v: give every command that reads a rendered root a row here, and only those", spec.Name, spec.Reads.RenderedRoot, covered[spec.Name])
		}
	}
	for _, cmd := range commands {
		rels := []string{hostlayout.StatePath}
		for _, f := range st.Files {
			if cmd.paths.placements == nil || cmd.paths.placements[f.Placement] {
				rels = append(rels, f.Path)
			}
		}
		if cmd.paths.socket {
			rels = append(rels, socketPath)
		}
		for _, rel := range rels {
			for _, kind := range planttest.Kinds {
				t.Run(cmd.name+"/"+rel+"/"+string(kind), func(t *testing.T) {
					root := t.TempDir()
					if err := os.CopyFS(root, os.DirFS(rendered)); err != nil {
						t.Fatal(err)
					}
					path := filepath.Join(root, rel)
					plant := planttest.Plant
					if rel == socketPath {
						plant = planttest.PlantSocket
					}
					out := plant(t, path, kind)
					assertRefused(t, cmd.args(root), path, kind, out)
				})
			}
		}
	}
}

// TestCheckCertDirIsConfined: check --cert-dir reads each certificate file
// of the directory it is given the same way.
func TestCheckCertDirIsConfined(t *testing.T) {
	rendered := renderRoot(t)
	bundle := filepath.Join(t.TempDir(), "bundle.yaml")
	code, stdout, stderr := runCLI(t, "", "build", "--bootstrap-ip", "192.0.2.10", "--image", goldenImage)
	if code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	if err := os.WriteFile(bundle, []byte(stdout), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range hostlayout.CertFileNames {
		for _, kind := range planttest.Kinds {
			t.Run(name+"/"+string(kind), func(t *testing.T) {
				dir := t.TempDir()
				if err := os.CopyFS(dir, os.DirFS(filepath.Join(rendered, "opt/openshift/tls/konnectivity"))); err != nil {
					t.Fatal(err)
				}
				path := filepath.Join(dir, name)
				out := planttest.Plant(t, path, kind)
				assertRefused(t, []string{"check", "--cert-dir", dir, bundle}, path, kind, out)
			})
		}
	}
}

// assertRefused runs the command and wants it to fail naming path and
// what was planted there, without touching what is outside.
func assertRefused(t *testing.T, args []string, path string, kind planttest.Kind, out *planttest.Outside) {
	t.Helper()
	var code int
	var stdout, stderr string
	planttest.NoHang(t, strings.Join(args, " "), 2*time.Minute, func() {
		code, stdout, stderr = runCLI(t, "", args...)
	})
	all := stdout + stderr
	want := "is a symbolic link"
	if kind == planttest.FIFO {
		want = "is " + inputread.KindName(os.ModeNamedPipe)
	}
	if code == 0 || !strings.Contains(all, path+" "+want) {
		t.Errorf("exit %d; want a failure naming %q and %q:\n%s", code, path, want, all)
	}
	if out.Touched(t) {
		t.Errorf("%s was opened outside the root", out.Path)
	}
}

func readState(t *testing.T, root string) *hostlayout.State {
	t.Helper()
	h, err := hostfs.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	st, err := statefile.Read(h)
	if err != nil {
		t.Fatal(err)
	}
	return st
}
