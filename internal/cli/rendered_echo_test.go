package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/hostiletext"
)

// TestCheckAndDiffDoNotEchoAForeignFile: a file render wrote, replaced by a
// hard link to a file outside the root (a stand-in for /etc/shadow, as a
// YAML list and as plain lines), is never echoed by check or diff on the
// root, in text or JSON: at most a short escaped excerpt of its start.
func TestCheckAndDiffDoNotEchoAForeignFile(t *testing.T) {
	const secret = "SECRETHASHSECRETHASH"
	contents := map[string]string{
		"list":  "- root:$6$salt$" + secret + ":19000:0:99999:7:::\n- bin:*:19000:0:99999:7:::\n",
		"lines": "root:$6$salt$" + secret + ":19000:0:99999:7:::\nbin:*:19000:0:99999:7:::\n",
	}
	files := []string{
		"etc/kubernetes/bootstrap-configs/egress-selector-config.yaml",
		"opt/openshift/konnectivity-config-override.yaml",
		"etc/kubernetes/manifests/konnectivity-server-pod.yaml",
		"opt/openshift/manifests/konnectivity-agent-daemonset.yaml",
	}
	for kind, content := range contents {
		outside := filepath.Join(t.TempDir(), "shadow")
		if err := os.WriteFile(outside, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, rel := range files {
			t.Run(kind+" at "+rel, func(t *testing.T) {
				root := hostRenderedRoot(t)
				victim := filepath.Join(root, rel)
				if err := os.Remove(victim); err != nil {
					t.Fatal(err)
				}
				if err := os.Link(outside, victim); err != nil {
					t.Fatal(err)
				}
				for _, args := range [][]string{
					{"check", root}, {"check", "-o", "json", root},
					{"diff", root, "ipv4", "--image", hostTestImage}, {"diff", "-o", "json", root, "ipv4", "--image", hostTestImage},
				} {
					_, out, stderr := runHostCmd(t, args...)
					if strings.Contains(out+stderr, secret) || strings.Contains(out+stderr, "bin:*") {
						t.Errorf("%s echoes the foreign file:\n%s%s", strings.Join(args, " "), out, stderr)
					}
					hostiletext.AssertInert(t, strings.Join(args, " "), stderr)
				}
			})
		}
	}
}
