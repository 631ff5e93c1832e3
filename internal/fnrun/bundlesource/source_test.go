package bundlesource

import (
	"bytes"
	"context"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/fifotest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/ptytest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/render"
)

// dupKeys is YAML the guard refuses (yamlguard): a key given twice.
const dupKeys = "a: 1\na: 2\n"

const configMap = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: once\n  namespace: kube-system\n"

var buildOpts = kustbuild.Options{BootstrapIP: netip.MustParseAddr("192.0.2.10"), Image: "registry.test.invalid/anp:4.23", Getenv: func(string) string { return "" }}

// TestLoad: each kind of argument Load and ForCheck resolve, what they
// read it as, or the error they say, byte for byte where it is ours.
func TestLoad(t *testing.T) {
	root := t.TempDir()
	if _, err := render.Run(context.Background(), render.Options{Root: root, BootstrapIP: netip.MustParseAddr("192.0.2.10"), Image: "registry.test.invalid/anp:4.23"}); err != nil {
		t.Fatal(err)
	}
	kust := t.TempDir()
	writeFile(t, filepath.Join(kust, "cm.yaml"), configMap)
	writeFile(t, filepath.Join(kust, "kustomization.yaml"), "resources:\n- cm.yaml\n")
	bare := t.TempDir()
	badYAML := filepath.Join(t.TempDir(), "bad.yaml")
	writeFile(t, badYAML, dupKeys)
	missing := filepath.Join(t.TempDir(), "gone.yaml")
	for _, tc := range []struct {
		name, arg, stdin string
		forCheck         bool
		label            string // what the source is named; "" when an error is wanted
		root, read       bool
		err              string // the error begins so
	}{
		{name: "stdin", arg: "-", stdin: configMap, label: "stdin", read: true},
		{name: "a FIFO opened once", arg: fifotest.Once(t, configMap), read: true},
		{name: "a kustomization directory", arg: kust, label: kust},
		{name: "a kustomization directory, for check", arg: kust, label: kust, forCheck: true},
		{name: "a rendered root", arg: root, label: "the host root " + root, root: true},
		{name: "a rendered root, for check", arg: root, label: "the host root " + root, root: true, forCheck: true},
		{name: "a missing path naming an overlay", arg: "ipv4", label: "overlay ipv4"},
		{name: "a missing path naming no overlay", arg: "nosuch",
			err: `"nosuch" is not a file, a directory or an overlay (dualstack, ipv4, ipv6, sno, upi); give a bundle file, a kustomization directory, an overlay name or -`},
		{name: "a missing path, for check", arg: missing, forCheck: true, err: "reading bundle: open " + missing + ": no such file or directory"},
		{name: "a dir with no kustomization", arg: bare,
			err: bare + ": nothing rendered here (no var/lib/konnectivity-bundle/state.json) and no kustomization to build (no kustomization.yaml): run konnectivity-bundle render --root " + bare + " first, or give a bundle file, a kustomization directory or an overlay name"},
		{name: "a dir with no kustomization, for check", arg: bare, forCheck: true,
			err: bare + ": nothing to check here: no kustomization to build (no kustomization.yaml) and nothing render wrote (no var/lib/konnectivity-bundle/state.json); give a bundle file, a kustomization directory, or a root render wrote"},
		{name: "bad YAML in a file", arg: badYAML, err: "read bundle file: " + badYAML + ": "},
		{name: "bad YAML on stdin", arg: "-", stdin: dupKeys, err: "stdin: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			load := Load
			if tc.forCheck {
				load = ForCheck
			}
			src, err := load(Stdin{Reader: strings.NewReader(tc.stdin), Command: "test"}, tc.arg, buildOpts)
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("error %v, want one beginning %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			label := tc.label
			if label == "" {
				label = tc.arg
			}
			if src.Label != label || src.Root != tc.root || src.Read != tc.read || len(src.Stream) == 0 {
				t.Errorf("source %q (root %v, read %v, %d bytes), want %q (root %v, read %v)", src.Label, src.Root, src.Read, len(src.Stream), label, tc.root, tc.read)
			}
			if tc.read && string(src.Stream) != configMap {
				t.Errorf("read %q, want %q", src.Stream, configMap)
			}
		})
	}
}

// TestModel: ports' reading refuses what is no bundle and a FILE with a
// field its type lacks, naming the input; a rendered root is read as
// render left it.
func TestModel(t *testing.T) {
	root := t.TempDir()
	if _, err := render.Run(context.Background(), render.Options{Root: root, BootstrapIP: netip.MustParseAddr("192.0.2.10"), Image: "registry.test.invalid/anp:4.23"}); err != nil {
		t.Fatal(err)
	}
	const fix = "; give ports a bundle: the output of konnectivity-bundle build or kustomize build, an overlay name, a kustomization directory, or a root render wrote"
	for _, tc := range []struct {
		name, arg, stdin, err string
	}{
		{name: "a rendered root", arg: root},
		{name: "an empty stream (bootstrap-in-place)", arg: "-"},
		{name: "text", arg: "-", stdin: "root:x:0:0:root:/root:/bin/bash\n",
			err: `stdin: not a bundle: none of its 1 YAML document(s) is a Kubernetes object (apiVersion and kind); the first is plain text (a YAML scalar), beginning "root:x:0:0:root:/root:/bin/bash"` + fix},
		{name: "an unknown field", arg: "-", stdin: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata: {}\nbogus: 1\n",
			err: "stdin has fields its Kubernetes types do not"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			label, b, err := Model(Stdin{Reader: strings.NewReader(tc.stdin), Command: "ports"}, tc.arg, buildOpts)
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("error %v, want one beginning %q", err, tc.err)
				}
				return
			}
			if err != nil || b == nil || label == "" {
				t.Fatalf("label %q, bundle %v, error %v", label, b, err)
			}
		})
	}
}

// TestTerminalNote: - read from a terminal is said first, with the
// command's name; from anything else, nothing is said.
func TestTerminalNote(t *testing.T) {
	tty, controller := ptytest.Open(t)
	if _, err := controller.Write([]byte{4}); err != nil { // Ctrl-D: the end of what was typed
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		stdin interface{ Read([]byte) (int, error) }
		want  string
	}{
		{"a terminal", tty, "diff: reading a bundle from the terminal; end it with Ctrl-D\n"},
		{"a pipe", strings.NewReader(configMap), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var notes bytes.Buffer
			if _, err := Load(Stdin{Reader: tc.stdin, Notes: &notes, Command: "diff"}, "-", buildOpts); err != nil {
				t.Fatal(err)
			}
			if notes.String() != tc.want {
				t.Errorf("notes %q, want %q", notes.String(), tc.want)
			}
		})
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRenderedCertFiles: a rendered root's certificates are read from the
// root the bundle was read from; any other bundle has none.
func TestRenderedCertFiles(t *testing.T) {
	root := t.TempDir()
	if _, err := render.Run(context.Background(), render.Options{Root: root, BootstrapIP: netip.MustParseAddr("192.0.2.10"), Image: "registry.test.invalid/anp:4.23"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, arg, stdin string
		certs            bool
	}{
		{name: "a rendered root", arg: root, certs: true},
		{name: "stdin", arg: "-", stdin: configMap},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := ForCheck(Stdin{Reader: strings.NewReader(tc.stdin), Command: "check"}, tc.arg, buildOpts)
			if err != nil {
				t.Fatal(err)
			}
			files, err := src.RenderedCertFiles()
			if err != nil {
				t.Fatal(err)
			}
			if got := len(files["ca.crt"]) > 0; got != tc.certs {
				t.Errorf("ca.crt read: %v, want %v (%d files)", got, tc.certs, len(files))
			}
		})
	}
}
