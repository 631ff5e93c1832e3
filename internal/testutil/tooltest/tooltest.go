// Package tooltest finds the real binaries the tests compare against (built by
// tools/build.sh) and the repository root, and writes the kustomizations tests
// build from the repository's bases (WriteOverlay, ConfigPatch, ExecWiredTree) and the
// kustomizations naming remote entries every build refuses (WriteRemoteTree, with
// RecordRuns and Listen to see that nothing was run or dialled).
package tooltest

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// RepoRoot is the repository's top directory, three levels above this
// file (internal/testutil/tooltest).
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", ".."))
}

// Bin returns the path of a tool built by tools/build.sh. A real binary
// makes an integration test (skipped under -short); a missing tool is
// Missing, with the command that builds it.
func Bin(tb testing.TB, name string) string {
	tb.Helper()
	Integration(tb, "runs the real "+name)
	dir := os.Getenv("KB_TOOLS_BIN")
	if dir == "" {
		dir = filepath.Join(RepoRoot(), "_output", "bin")
	}
	path := filepath.Join(dir, name)
	if _, err := os.Stat(path); err != nil {
		Missing(tb, name+" is not built ("+path+"): run `make tools` or `tools/build.sh "+name+"`")
	}
	return path
}

// System returns the path of a command from the machine's packages (strace,
// openssl); a missing one is Missing, naming the Debian package tools/deps.sh
// installs. A quick command (openssl verify, sh -n) keeps a test pure; a
// caller that runs something slow with it calls Integration itself.
func System(tb testing.TB, name, debianPackage string) string {
	tb.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		Missing(tb, name+" is not on PATH (tools/deps.sh installs it: apt-get install "+debianPackage+")")
	}
	return path
}

// BuildSelf compiles cmd/konnectivity-bundle into dir and returns its path,
// for tests that must run the binary the way kustomize does.
func BuildSelf(tb testing.TB, dir string) string {
	tb.Helper()
	Integration(tb, "builds and runs the command")
	out := filepath.Join(dir, "konnectivity-bundle")
	cmd := exec.Command("go", "build", "-o", out, "./cmd/konnectivity-bundle")
	cmd.Dir = RepoRoot()
	if b, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("building konnectivity-bundle: %v\n%s", err, b)
	}
	return out
}

// ProxyBin returns the path of proxy-server or proxy-agent of version v, as
// tools/build.sh names them (proxy-server-v0.28, proxy-agent-v0.36, ...).
func ProxyBin(tb testing.TB, v *proxyversion.Version, name string) string {
	tb.Helper()
	return Bin(tb, name+"-"+v.Name)
}
