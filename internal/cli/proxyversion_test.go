package cli

import (
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// TestProxyVersionList: --list prints every supported version, one a line,
// oldest first with the newest last, which tools/build.sh and the Makefile
// read (the older-version e2e pass runs all but the last line).
func TestProxyVersionList(t *testing.T) {
	code, stdout, stderr := runHostCmd(t, "proxy-version", "--list")
	if code != 0 {
		t.Fatalf("exit %d, want 0\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if want := proxyversion.VersionNames(); strings.Join(lines, ",") != strings.Join(want, ",") {
		t.Errorf("--list printed %q, want %q one a line", stdout, want)
	}
	if last := lines[len(lines)-1]; last != proxyversion.Newest.Name {
		t.Errorf("--list's last line is %q, want the newest, %s", last, proxyversion.Newest.Name)
	}
}

// TestProxyVersionListUsage: --list with an input flag or an argument is a
// usage error, and the help says what --list prints.
func TestProxyVersionListUsage(t *testing.T) {
	for _, args := range [][]string{
		{"proxy-version", "--list", "--from-image", hostTestImage},
		{"proxy-version", "--list", "--from-help", "-"},
		{"proxy-version", "--list", "v0.28"},
	} {
		code, stdout, stderr := runHostCmd(t, args...)
		if code != exitUsage || stdout != "" {
			t.Errorf("%q: exit %d, stdout %q; want %d and nothing printed\n%s", args, code, stdout, exitUsage, stderr)
		}
	}
	code, stdout, _ := runHostCmd(t, "proxy-version", "--help")
	if code != 0 || !strings.Contains(stdout, "--list prints every supported") {
		t.Errorf("proxy-version --help (exit %d) does not say what --list prints:\n%s", code, stdout)
	}
}
