package certset

import (
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// t0 is the tests' fixed clock.
var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func at(t time.Time) func() time.Time { return func() time.Time { return t } }

// options is a certificate directory under a fresh temp dir, made at t0.
func options(t testing.TB, ip string) certs.Options {
	return certs.Options{Dir: filepath.Join(t.TempDir(), "tls", "konnectivity"), BootstrapIP: netip.MustParseAddr(ip), Now: at(t0)}
}

// ensure is EnsureDir, failing the test on an error.
func ensure(t testing.TB, opts certs.Options) *certs.Result {
	t.Helper()
	r, err := EnsureDir(opts)
	if err != nil {
		t.Fatalf("EnsureDir(%+v): %v", opts, err)
	}
	return r
}

// mtimes returns every file's modification time in dir.
func mtimes(t *testing.T, dir string) map[string]time.Time {
	t.Helper()
	out := map[string]time.Time{}
	for _, n := range hostlayout.CertFileNames {
		fi, err := os.Stat(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		out[n] = fi.ModTime()
	}
	return out
}

// TestWriteDirLeavesOnlyTheSet: writeDir journals in the certificate directory
// itself (nothing gives it another root); once a set is in place, fresh, a
// refresh or a reuse, the directory holds the six files and nothing of the
// journal, and each file has its mode.
func TestWriteDirLeavesOnlyTheSet(t *testing.T) {
	opts := options(t, "192.0.2.10")
	steps := []struct {
		name string
		ip   string
	}{
		{"fresh", "192.0.2.10"},
		{"reuse", "192.0.2.10"},
		{"refresh for another IP", "192.0.2.11"},
	}
	for _, st := range steps {
		o := opts
		o.BootstrapIP = options(t, st.ip).BootstrapIP
		ensure(t, o)
		entries, err := os.ReadDir(opts.Dir)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		want := slices.Sorted(slices.Values(hostlayout.CertFileNames))
		if !slices.Equal(names, want) {
			t.Errorf("%s: directory holds %v, want %v", st.name, names, want)
		}
		for _, name := range hostlayout.CertFileNames {
			fi, err := os.Stat(filepath.Join(opts.Dir, name))
			if err != nil || fi.Mode().Perm() != certs.ModeOf(name) {
				t.Errorf("%s: %s: %v, mode %v, want %v", st.name, name, err, fi.Mode().Perm(), certs.ModeOf(name))
			}
		}
	}
}

// TestWriteDirWaitsForTheDirectory: a second writer of the same directory
// waits for the first's lock and, when it is still held, says so and
// changes nothing.
func TestWriteDirWaitsForTheDirectory(t *testing.T) {
	opts := options(t, "192.0.2.10")
	ensure(t, opts)
	h, err := hostfs.Open(opts.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	lock, err := h.Lock(t.Context(), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Unlock()
	r, err := certs.Plan(certs.Options{Dir: opts.Dir, BootstrapIP: options(t, "192.0.2.11").BootstrapIP, Now: at(t0)})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(opts.Dir, hostlayout.ServerCertFile))
	_, err = writeWithin(opts.Dir, r, 0)
	if err == nil || !strings.Contains(err.Error(), "is in use by") {
		t.Fatalf("writeDir beside a held lock: %v, want an in-use error", err)
	}
	if after, _ := os.ReadFile(filepath.Join(opts.Dir, hostlayout.ServerCertFile)); string(after) != string(before) {
		t.Error("writeDir changed the directory without its lock")
	}
}

// TestDirIsAFile: a file where the directory should be is an error, and
// nothing is written.
func TestDirIsAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "konnectivity")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := EnsureDir(certs.Options{Dir: file, BootstrapIP: netip.MustParseAddr("192.0.2.1")})
	if err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Fatalf("EnsureDir into a file: %v, want a 'not a directory' error", err)
	}
	if b, _ := os.ReadFile(file); string(b) != "x" {
		t.Errorf("the file was changed: %q", b)
	}
}

// TestModes: the set, its directory and the directory's parent get their
// modes, a loosened place is regenerated and repaired, and a reuse rewrites
// nothing and leaves no temporary file.
func TestModes(t *testing.T) {
	opts := options(t, "192.0.2.10")
	ensure(t, opts)
	checkModes(t, opts.Dir)
	if fi, err := os.Stat(filepath.Dir(opts.Dir)); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("parent directory: %v %v, want 0755", fi.Mode(), err)
	}
	// Loosened modes make the place unsafe (TrustReason): everything is
	// regenerated and the modes repaired; then the files are reused as they are.
	os.Chmod(opts.Dir, 0o755)
	os.Chmod(filepath.Join(opts.Dir, hostlayout.CAKeyFile), 0o644)
	if r := ensure(t, opts); !r.Generated {
		t.Fatal("certificates reused from a directory open to others")
	}
	checkModes(t, opts.Dir)
	before := mtimes(t, opts.Dir)
	if r := ensure(t, opts); r.Generated {
		t.Fatalf("regenerated after the repair: %s", r.Reason)
	}
	for n, m := range mtimes(t, opts.Dir) {
		if !m.Equal(before[n]) {
			t.Errorf("%s rewritten on reuse", n)
		}
	}
	if entries, _ := os.ReadDir(opts.Dir); len(entries) != len(hostlayout.CertFileNames) {
		t.Errorf("directory holds %d entries, want exactly the %d files (no temporaries)", len(entries), len(hostlayout.CertFileNames))
	}
}

func checkModes(t *testing.T, dir string) {
	t.Helper()
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != certs.DirMode {
		t.Errorf("%s: mode %v (%v), want %v", dir, fi.Mode().Perm(), err, certs.DirMode)
	}
	for _, n := range hostlayout.CertFileNames {
		fi, err := os.Stat(filepath.Join(dir, n))
		want := certs.CertMode
		if strings.HasSuffix(n, ".key") {
			want = 0o600
		}
		if err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %v", n, fi.Mode().Perm(), err, want)
		}
	}
}

// BenchmarkEnsureDirReuse is the KonnectivityCerts function's idempotent
// re-run with spec.generate: plan, lock, compare six files, write none.
func BenchmarkEnsureDirReuse(b *testing.B) {
	opts := options(b, "192.0.2.10")
	ensure(b, opts)
	for b.Loop() {
		r, err := EnsureDir(opts)
		if err != nil || r.Generated {
			b.Fatalf("reuse run: %v %+v", err, r)
		}
	}
}
