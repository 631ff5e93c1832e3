package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// v036Help is a proxy-server --help of v0.36 whose flags v0.28 lacks come
// after pad bytes of usage text: cut anywhere inside the padding, it reads
// as v0.28's.
func v036Help(pad int) string {
	var b strings.Builder
	var late []string
	for name := range proxyversion.V036.Server.Flags {
		if _, old := proxyversion.V028.Server.Flags[name]; old {
			b.WriteString("      --" + name + " string   usage\n")
		} else {
			late = append(late, name)
		}
	}
	slices.Sort(late)
	for b.Len() < pad {
		b.WriteString("        a long usage text that continues the flag above, as some do\n")
	}
	for _, name := range late {
		b.WriteString("      --" + name + " string   usage\n")
	}
	return b.String()
}

// TestProxyVersionHelpCap: the --help text is read whole up to its cap and
// refused over it, from stdin and from a file; it is never cut and read as
// an older version.
func TestProxyVersionHelpCap(t *testing.T) {
	dir := t.TempDir()
	padded := v036Help(int(inputread.HelpText.Cap) + 4096)
	file := filepath.Join(dir, "help.txt")
	if err := os.WriteFile(file, []byte(padded), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		stdin  string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"v0.36 help on stdin", v036Help(0), []string{"-"}, 0, "v0.36\n", ""},
		{"v0.36 help under the cap, padded", v036Help(int(inputread.HelpText.Cap) - 64<<10), []string{"-"}, 0, "v0.36\n", ""},
		{"padded past the cap on stdin", padded, []string{"-"}, 1, "", "--from-help: stdin is larger than the 1 MiB cap for a proxy-server --help text"},
		{"padded past the cap in a file", "", []string{file}, 1, "", "--from-help: " + file + " is larger than the 1 MiB cap"},
		{"a directory", "", []string{dir}, 1, "", "--from-help: " + dir + " is a directory"},
		{"/dev/zero", "", []string{"/dev/zero"}, 1, "", "--from-help: /dev/zero is larger than the 1 MiB cap"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.stdin, append([]string{"proxy-version", "--from-help"}, tc.args...)...)
			if code != tc.code || stdout != tc.stdout || !strings.Contains(stderr, tc.stderr) {
				t.Fatalf("exit %d stdout %q stderr %q; want exit %d stdout %q stderr with %q", code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
			}
		})
	}
}

// TestBundleInputCap: every command that reads a bundle FILE or - refuses
// one over the cap with the cap error, at the exit code of its other bad
// input, and names the input.
func TestBundleInputCap(t *testing.T) {
	dir := t.TempDir()
	big := "# padding\n" + strings.Repeat("#", int(inputread.Bundle.Cap))
	file := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(file, []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	const capMsg = " is larger than the 8 MiB cap for a bundle stream"
	cases := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"check -", big, []string{"check", "-"}, 2, "stdin" + capMsg},
		{"check FILE", "", []string{"check", file}, 2, file + capMsg},
		{"check /dev/zero", "", []string{"check", "/dev/zero"}, 2, "/dev/zero" + capMsg},
		{"diff - FILE", big, []string{"diff", "-", golden("ipv4")}, 2, "A: stdin" + capMsg},
		{"diff FILE FILE", "", []string{"diff", golden("ipv4"), file}, 2, "B: read bundle file: " + file + capMsg},
		{"ports FILE", "", []string{"ports", file}, 1, file + capMsg},
		{"ports -", big, []string{"ports", "-"}, 1, "stdin" + capMsg},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, tc.stdin, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, want %d with %q; stderr:\n%s", code, tc.code, tc.want, stderr)
			}
		})
	}
}

// TestFunctionInputCap: the KRM function's ResourceList on stdin and the
// legacy plugin's resources and config file are read up to their cap and
// refused over it (exit 1, the function's exit for any error).
func TestFunctionInputCap(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("#", int(inputread.FunctionInput.Cap)+1)
	config := filepath.Join(dir, "config.yaml")
	bigConfig := filepath.Join(dir, "big.yaml")
	for path, data := range map[string]string{
		config:    "apiVersion: bundle.konnectivity.io/v1alpha1\nkind: KonnectivityBundle\nmetadata: {name: b}\n",
		bigConfig: big,
	} {
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const capMsg = " is larger than the 8 MiB cap for a KRM function's input"
	cases := []struct {
		name  string
		argv  []string
		stdin string
		want  string
	}{
		{"fn: the ResourceList", []string{ProgramName, "fn"}, big, "the ResourceList on stdin" + capMsg},
		{"legacy plugin: the resources", []string{"KonnectivityBundle", config}, big, "the resources on stdin" + capMsg},
		{"legacy plugin: the config", []string{"KonnectivityBundle", bigConfig}, "", "reading plugin config: " + bigConfig + capMsg},
		{"legacy plugin: a config from /dev/zero", []string{"KonnectivityBundle", "/dev/zero"}, "", "reading plugin config: /dev/zero" + capMsg},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			io := IO{Stdin: strings.NewReader(tc.stdin), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
			code := New(Config{}).Main(tc.argv, io)
			if code != 1 || !strings.Contains(errb.String(), tc.want) {
				t.Fatalf("exit %d, want 1 with %q; stderr:\n%s", code, tc.want, errb.String())
			}
		})
	}
}
