package cli

import (
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

func TestVersionFrom(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	rev := "4f7fd453f060bc01e51527e84c6ca80091d9a5ca"
	cases := []struct {
		name   string
		linked string
		bi     *debug.BuildInfo
		want   string
	}{
		{"link-time value wins", "v1.2.3", &debug.BuildInfo{Main: debug.Module{Version: "v0.9.0"}}, "v1.2.3"},
		{"module version from the toolchain", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261122210243-4f7fd453f060"}}, "v0.0.0-20261122210243-4f7fd453f060"},
		{"devel with vcs data", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: vcs("vcs.revision", rev, "vcs.time", "2026-11-22T21:02:43Z", "vcs.modified", "false")}, "v0.0.0-20261122210243-4f7fd453f060"},
		{"modified tree", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"},
			Settings: vcs("vcs.revision", rev, "vcs.time", "2026-11-22T21:02:43Z", "vcs.modified", "true")}, "v0.0.0-20261122210243-4f7fd453f060+dirty"},
		{"revision without time", "", &debug.BuildInfo{Settings: vcs("vcs.revision", "abc")}, "v0.0.0-00000000000000-abc"},
		{"devel without vcs data", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "unknown"},
		{"no build info", "", nil, "unknown"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := versionFrom(tc.linked, tc.bi); got != tc.want {
				t.Errorf("versionFrom = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestMakeBuildVersion builds the binary as `make build` does and checks
// that `version` prints what git describes for this checkout, not (devel).
func TestMakeBuildVersion(t *testing.T) {
	tooltest.Integration(t, "builds the binary with make")
	root := tooltest.RepoRoot()
	desc, err := exec.Command("git", "-C", root, "describe", "--tags", "--always", "--dirty", "--abbrev=12").Output()
	if err != nil {
		t.Skipf("skipping: not a git checkout (%v); the version comes from git describe", err)
	}
	bin := filepath.Join(t.TempDir(), "konnectivity-bundle")
	mk := exec.Command("make", "-s", "build", "BIN="+bin)
	mk.Dir = root
	if out, err := mk.CombinedOutput(); err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	want := "konnectivity-bundle " + strings.TrimSpace(string(desc)) + "\n"
	if string(out) != want || strings.Contains(string(out), "devel") {
		t.Errorf("version printed %q, want %q", out, want)
	}
}
