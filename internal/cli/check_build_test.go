package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// TestCheckBuildsADirWithTheFlagsItsHintNames: the hint for a missing
// bootstrap IP names --bootstrap-ip, so check (which builds a DIR) has it,
// said as build says it.
func TestCheckBuildsADirWithTheFlagsItsHintNames(t *testing.T) {
	ipv4 := filepath.Join(tooltest.RepoRoot(), "overlays", "ipv4")
	upi := filepath.Join(tooltest.RepoRoot(), "overlays", "upi")
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no IP: the hint names --bootstrap-ip", []string{"check", "--proxy-version", "v0.28", ipv4}, 2, "--bootstrap-ip was not given, and overlay " + ipv4 + " sets no spec.bootstrapIP"},
		{"the flag the hint names works", []string{"check", "--bootstrap-ip", "192.0.2.10", "--image", goldenImage, ipv4}, 0, ""},
		{"the flag against the overlay's spec.bootstrapIP", []string{"check", "--bootstrap-ip", "192.0.2.20", upi}, 2, "disagree"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, "", tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.stderr) {
				t.Fatalf("exit %d, want %d; stderr lacks %q:\n%s", code, tc.code, tc.stderr, stderr)
			}
		})
	}
}
