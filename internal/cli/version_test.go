package cli

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
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
	first, _, _ := strings.Cut(string(out), "\n")
	want := "konnectivity-bundle " + strings.TrimSpace(string(desc))
	if first != want || strings.Contains(string(out), "devel") {
		t.Errorf("version printed %q, want %q on its first line", out, want)
	}
}

// TestVersionPrintsBuildInfo: version's first line is the version, the
// second the revision Go's build info holds; -o json has both; --version
// on the program prints what version does, and -v there points to it
// instead of to a command that looks like it.
func TestVersionPrintsBuildInfo(t *testing.T) {
	rev := "4f7fd453f060bc01e51527e84c6ca80091d9a5ca"
	bi := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: "2026-11-22T21:02:43Z"}, {Key: "vcs.modified", Value: "true"}}}
	var text, js strings.Builder
	info := buildInfoFrom("", bi)
	if err := output.Write(&text, output.Text, info); err != nil {
		t.Fatal(err)
	}
	want := "konnectivity-bundle v0.0.0-20261122210243-4f7fd453f060+dirty\nrevision " + rev + " (modified), committed 2026-11-22T21:02:43Z, built with go1.26.0\n"
	if text.String() != want {
		t.Errorf("text:\n%q\nwant\n%q", text.String(), want)
	}
	if err := output.Write(&js, output.JSON, buildInfoFrom("v1.2.3", bi)); err != nil {
		t.Fatal(err)
	}
	var got buildInfo
	if err := json.Unmarshal([]byte(js.String()), &got); err != nil || got.Version != "v1.2.3" || got.Revision != rev || !got.Modified {
		t.Errorf("-o json: %s (%v); want the link-time version and the revision", js.String(), err)
	}

	_, version, _ := runCLI(t, "", "version")
	code, flag, stderr := runCLI(t, "", "--version")
	if code != 0 || flag != version {
		t.Errorf("--version: exit %d, %q (stderr %q); want what version prints, %q", code, flag, stderr, version)
	}
	code, _, stderr = runCLI(t, "", "-v")
	if code != exitUsage || !strings.Contains(stderr, "--version") || strings.Contains(stderr, `"fn"`) {
		t.Errorf("-v: exit %d, stderr %q; want a usage error pointing to --version", code, stderr)
	}
}

// TestVersionTextIsEscaped: the link-time version is whatever -ldflags -X
// put there, and the build info's settings are the toolchain's record of
// a checkout; the text output escapes their controls as every other line
// the program prints does (JSON escapes them itself).
func TestVersionTextIsEscaped(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.0", Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc\x1b]0;owned\a"}}}
	var text strings.Builder
	if err := output.Write(&text, output.Text, buildInfoFrom("v1\x1b[2Jx", bi)); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(text.String(), "\x1b\a") {
		t.Errorf("version printed raw controls: %q", text.String())
	}
	if !strings.HasPrefix(text.String(), "konnectivity-bundle v1") {
		t.Errorf("version text %q does not start with the program and version", text.String())
	}
}
