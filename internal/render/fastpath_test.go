package render

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/kustbuild"
)

// countingDeps counts builds, so a test can tell the fast path was taken.
func countingDeps(builds *int) *deps {
	d := realDeps()
	build := d.build
	d.build = func(target string, opts kustbuild.Options) (*kustbuild.Model, error) {
		*builds++
		return build(target, opts)
	}
	return d
}

func TestFastPathAgreesWithFullPath(t *testing.T) {
	root := t.TempDir()
	mustRun(t, baseOpts(root))
	before := snapshot(t, root)

	var builds int
	fast := baseOpts(root)
	fast.deps = countingDeps(&builds)
	fastRep := mustRun(t, fast)
	if builds != 0 {
		t.Errorf("unchanged re-run built the overlay %d time(s); the fast path was not taken", builds)
	}
	full := baseOpts(root)
	full.noFastPath = true
	fullRep := mustRun(t, full)

	if len(fastRep.Files) != len(fullRep.Files) {
		t.Fatalf("fast path reports %d files, full path %d", len(fastRep.Files), len(fullRep.Files))
	}
	byPath := map[string]FileReport{}
	for _, f := range fullRep.Files {
		byPath[f.Path] = f
	}
	for _, f := range fastRep.Files {
		if g, ok := byPath[f.Path]; !ok || g != f {
			t.Errorf("fast path %+v, full path %+v", f, g)
		}
	}
	assertSameHost(t, before, snapshot(t, root))
}

func TestFastPathNotTakenWhenAFileDrifted(t *testing.T) {
	cases := []struct {
		name  string
		rel   string
		drift func(p string) error
	}{
		{"bytes", daemonSetRel, func(p string) error { return os.WriteFile(p, []byte("edited by hand\n"), 0o644) }},
		// A loosened key is not repaired but replaced (TestUnsafeCertificatesAreReplaced).
		{"mode", podRel, func(p string) error { return os.Chmod(p, 0o600) }},
		{"deleted", podRel, os.Remove},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			mustRun(t, baseOpts(root))
			want := snapshot(t, root)[tc.rel]
			p := filepath.Join(root, tc.rel)
			if err := tc.drift(p); err != nil {
				t.Fatal(err)
			}
			rep := mustRun(t, baseOpts(root))
			if !rep.Changed() {
				t.Fatalf("drift in %s not repaired: %+v", tc.rel, rep.Files)
			}
			got := snapshot(t, root)[tc.rel]
			if got.sha != want.sha || got.mode != want.mode {
				t.Errorf("%s after repair: %+v, want bytes and mode %+v", tc.rel, got, want)
			}
		})
	}
}
