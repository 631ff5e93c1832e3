package renderedroot

import (
	"context"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/hostiletext"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/render"
)

// TestUnparsableFileIsNotEchoed: a KAS configuration file replaced by a
// hard link to a file outside the root (here a stand-in for /etc/shadow, a
// YAML list, which kyaml would quote whole as "node contents" when Stream
// names the object) fails Stream naming the file, with at most a short
// escaped excerpt of it.
func TestUnparsableFileIsNotEchoed(t *testing.T) {
	secret := "- root:$6$salt$SECRETHASHSECRETHASH:19000:0:99999:7:::\n- daemon:*:19000:0:99999:7:::\n"
	outside := filepath.Join(t.TempDir(), "shadow")
	if err := os.WriteFile(outside, []byte(secret), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, placement := range []string{hostlayout.PlacementKASEgressConfig, hostlayout.PlacementKASConfigOverride} {
		t.Run(placement, func(t *testing.T) {
			t.Parallel()
			root := renderedRoot(t)
			r, err := Load(root)
			if err != nil {
				t.Fatal(err)
			}
			var victim string
			for _, f := range r.Files {
				if f.Placement == placement {
					victim = filepath.Join(root, f.Path)
				}
			}
			if victim == "" {
				t.Fatalf("no file placed as %s", placement)
			}
			if err := os.Remove(victim); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(outside, victim); err != nil {
				t.Fatal(err)
			}
			_, err = Stream(root)
			if err == nil {
				t.Fatalf("Stream read a list in place of %s", victim)
			}
			msg := err.Error()
			if !strings.Contains(msg, victim) || strings.Contains(msg, "SECRETHASH") || strings.Contains(msg, "daemon") || strings.Contains(msg, "node contents") {
				t.Errorf("%s\nwant the file named and no more than a short excerpt of it", msg)
			}
			hostiletext.AssertInert(t, "Stream's error", msg)
		})
	}
}

func renderedRoot(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if _, err := render.Run(context.Background(), render.Options{Root: root, BootstrapIP: netip.MustParseAddr("192.0.2.10"), Image: "registry.test.invalid/anp:4.23"}); err != nil {
		t.Fatal(err)
	}
	return root
}
