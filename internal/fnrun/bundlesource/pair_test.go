package bundlesource

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
)

// TestPair: diff's two sides, each read as Load or Overlay reads it and
// parsed, and an error that names the side it is about.
func TestPair(t *testing.T) {
	cm := filepath.Join(t.TempDir(), "cm.yaml")
	writeFile(t, cm, configMap)
	noKind := filepath.Join(t.TempDir(), "nokind.yaml")
	writeFile(t, noKind, "hello: world\n")
	opts := [2]kustbuild.Options{buildOpts, buildOpts}
	for _, tc := range []struct {
		name     string
		args     [2]string
		stdin    string
		overlays bool
		labels   [2]string
		err      string // the error begins so; "" wants none
	}{
		{name: "a file and stdin", args: [2]string{cm, "-"}, stdin: configMap, labels: [2]string{cm, "stdin"}},
		{name: "two overlays", args: [2]string{"ipv4", "ipv4"}, overlays: true, labels: [2]string{"overlay ipv4", "overlay ipv4"}},
		{name: "a file is no overlay", args: [2]string{"ipv4", cm}, overlays: true, err: "B: " + `"` + cm + `" is not an overlay`},
		{name: "A names nothing", args: [2]string{"nosuch", cm}, err: `A: "nosuch" is not a file`},
		{name: "B is no object", args: [2]string{cm, noKind}, err: "B (" + noKind + "): document 1: object has no apiVersion"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sides, err := Pair(Stdin{Reader: strings.NewReader(tc.stdin)}, tc.args, tc.overlays, opts)
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one beginning %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, s := range sides {
				if s.Label != tc.labels[i] || len(s.Objects) == 0 {
					t.Errorf("side %d: label %q with %d objects, want %q with some", i, s.Label, len(s.Objects), tc.labels[i])
				}
			}
		})
	}
}
