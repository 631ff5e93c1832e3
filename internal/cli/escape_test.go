package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/hostiletext"
)

// TestErrorsAreEscaped: an error quoting a hostile value (a bundle file's
// name here) reaches stderr escaped; only the error's own line breaks stay.
func TestErrorsAreEscaped(t *testing.T) {
	dir := t.TempDir()
	name := dir + "/bundle\x1b]0;pwned\x07\r\u2028.yaml"
	code, _, stderr := runHostCmd(t, "check", name)
	if code == 0 || !strings.Contains(stderr, `bundle\x1b]0;pwned\a\r\u2028.yaml`) {
		t.Errorf("exit %d, stderr does not name the file escaped:\n%q", code, stderr)
	}
	hostiletext.AssertInert(t, "check's error", stderr)
}

// TestLegacyPluginErrorsAreEscaped: the legacy exec plugin's error names
// its config file as typed (here one that does not parse, and one that is
// missing): escaped like every other error, not raw on the terminal.
func TestLegacyPluginErrorsAreEscaped(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "config\x1b[2J\u202e"+hostiletext.Forged+"\n"+hostiletext.Forged+".yaml")
	if err := os.WriteFile(bad, []byte("x: [\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, config := range []string{bad, filepath.Join(dir, "missing\x1b]0;pwned\x07\u2028"+hostiletext.Forged)} {
		var out, errb bytes.Buffer
		io := IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
		code := New(Config{}).Main([]string{"/plugins/KonnectivityBundle", config}, io)
		if code != exitFailure || !strings.Contains(errb.String(), "KonnectivityBundle plugin") {
			t.Errorf("exit %d, want %d, stderr:\n%q", code, exitFailure, errb.String())
		}
		hostiletext.AssertInert(t, "the legacy plugin's error", errb.String())
	}
}

// TestNewlineInAPathForgesNoLine: a path typed with a newline in it, quoted
// by an os error (open PATH: ...) or by render's --root check, stays on the
// error's line, escaped: errorText keeps an error's own line breaks, so a
// value's newline used to start a line the value wrote.
func TestNewlineInAPathForgesNoLine(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "x\n"+hostiletext.Forged)
	for _, args := range [][]string{
		{"proxy-version", "--from-help", missing},
		{"check", "--cert-dir", missing, "ipv4", "--bootstrap-ip", hostTestIP, "--image", hostTestImage},
		hostRenderArgs(missing),
		{"certs", "--root", missing, "--dir", missing, "--bootstrap-ip", hostTestIP},
		{"teardown", "--root", missing},
	} {
		code, _, stderr := runHostCmd(t, args...)
		if code == 0 || !strings.Contains(stderr, `x\n`+hostiletext.Forged) {
			t.Errorf("%s: exit %d, stderr does not name the path escaped:\n%s", args[0], code, stderr)
		}
		hostiletext.AssertInert(t, args[0]+"'s error", stderr)
	}
}

// TestNewlineInABundleArgumentForgesNoLine: a bundle argument typed with a
// newline in it (a directory with nothing to build, a file with error
// findings or not YAML at all) is named on the error's line, escaped: the
// messages bundlesource and check write around it quoted it raw, and
// errorText keeps an error's own line breaks.
func TestNewlineInABundleArgumentForgesNoLine(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "d\n"+hostiletext.Forged)
	if err := os.Mkdir(empty, 0o700); err != nil {
		t.Fatal(err)
	}
	notBundle := filepath.Join(dir, "f\n"+hostiletext.Forged)
	junk := filepath.Join(dir, "j\n"+hostiletext.Forged)
	unknown := filepath.Join(dir, "u\n"+hostiletext.Forged)
	for path, data := range map[string]string{notBundle: "root:x:0:0\n", junk: "\xff\xfe\x00",
		unknown: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\nnosuchfield: 1\n"} {
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"check", empty}, {"ports", empty}, {"diff", empty, notBundle},
		{"check", notBundle}, {"check", junk}, {"ports", notBundle}, {"ports", junk}, {"diff", junk, notBundle}, {"diff", notBundle, junk},
		{"ports", unknown}, {"diff", unknown, notBundle},
	} {
		code, _, stderr := runHostCmd(t, args...)
		if code == 0 || !strings.Contains(stderr, `\n`+hostiletext.Forged) {
			t.Errorf("%s %s: exit %d, stderr does not name the path escaped:\n%s", args[0], args[1], code, stderr)
		}
		hostiletext.AssertInert(t, args[0]+"'s error", stderr)
	}
}
