package certs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// TestWriteLeavesOnlyTheSet: Write journals in the certificate directory
// itself (nothing gives it another root); once a set is in place, fresh, a
// refresh or a reuse, the directory holds the six files and nothing of the
// journal, and each file has its mode.
func TestWriteLeavesOnlyTheSet(t *testing.T) {
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
			if err != nil || fi.Mode().Perm() != ModeOf(name) {
				t.Errorf("%s: %s: %v, mode %v, want %v", st.name, name, err, fi.Mode().Perm(), ModeOf(name))
			}
		}
	}
}

// TestWriteWaitsForTheDirectory: a second writer of the same directory
// waits for the first's lock and, when it is still held, says so and
// changes nothing.
func TestWriteWaitsForTheDirectory(t *testing.T) {
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
	r, err := Plan(Options{Dir: opts.Dir, BootstrapIP: options(t, "192.0.2.11").BootstrapIP, Now: at(t0)})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(opts.Dir, hostlayout.ServerCertFile))
	_, err = writeWithin(opts.Dir, r, 0)
	if err == nil || !strings.Contains(err.Error(), "is in use by") {
		t.Fatalf("Write beside a held lock: %v, want an in-use error", err)
	}
	if after, _ := os.ReadFile(filepath.Join(opts.Dir, hostlayout.ServerCertFile)); string(after) != string(before) {
		t.Error("Write changed the directory without its lock")
	}
}
