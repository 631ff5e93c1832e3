package render

import (
	"path/filepath"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/goldenfile"
)

// TestRenderedFilesGolden pins the exact bytes render writes for every
// deterministic file (the Secret holds fresh keys, so it is checked by
// the other tests instead).
func TestRenderedFilesGolden(t *testing.T) {
	cases := []struct{ overlay, ip string }{{"ipv4", testIP}, {"ipv6", testIP6}}
	for _, tc := range cases {
		t.Run(tc.overlay, func(t *testing.T) {
			root := t.TempDir()
			opts := baseOpts(root)
			opts.Overlay = tc.overlay
			setIP(&opts, tc.ip)
			mustRun(t, opts)
			for _, rel := range bundlePaths {
				if rel == secretRel {
					continue
				}
				got := readFile(t, root, rel)
				golden := filepath.Join("testdata", "golden", tc.overlay, filepath.FromSlash(rel))
				goldenfile.Assert(t, golden, []byte(got))
			}
		})
	}
}
