package render

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// TestRenderedFilesGolden pins the exact bytes render writes for every
// deterministic file (the Secret holds fresh keys, so it is checked by
// the other tests instead).
func TestRenderedFilesGolden(t *testing.T) {
	cases := []struct{ overlay, ip string }{{"ipv4", testIP}, {"ipv6", testIP6}}
	for _, tc := range cases {
		t.Run(tc.overlay, func(t *testing.T) {
			root := t.TempDir()
			opts := baseOpts(root)
			opts.Overlay, opts.BootstrapIP = tc.overlay, tc.ip
			mustRun(t, opts)
			for _, rel := range bundlePaths {
				if rel == bundlePaths[3] {
					continue
				}
				got := readFile(t, root, rel)
				golden := filepath.Join("testdata", "golden", tc.overlay, filepath.FromSlash(rel))
				if *update {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test ./internal/render -run Golden -update)", err)
				}
				if got != string(want) {
					t.Errorf("%s differs from %s (rerun with -update if intended):\n--- got\n%s--- want\n%s", rel, golden, got, want)
				}
			}
		})
	}
}
