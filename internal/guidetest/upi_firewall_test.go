package guidetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// applyGuideRules applies the nftables rules step 6 of docs/upi.md wrote
// (into the guide's $out, a mktemp directory under tmp), and their revoke
// form, in a new network namespace: the generated files load, open the
// guide's port, and leave an empty ruleset behind.
func applyGuideRules(t *testing.T, tmp string) {
	t.Helper()
	if os.Geteuid() != 0 {
		tooltest.Missing(t, "applying the guide's nftables rules needs root for a network namespace")
	}
	if _, err := exec.LookPath("nft"); err != nil {
		tooltest.Missing(t, "applying the guide's nftables rules needs nft (tools/deps.sh: apt-get install nftables)")
	}
	found, _ := filepath.Glob(filepath.Join(tmp, "*", "konnectivity.nft"))
	if len(found) != 1 {
		t.Fatalf("the guide wrote %d konnectivity.nft files under %s, want 1", len(found), tmp)
	}
	script := `set -e
nft -f konnectivity.nft
nft list table inet konnectivity_bootstrap | grep -q 'tcp dport 9443 drop'
nft -f konnectivity-revoke.nft
test -z "$(nft list ruleset)"`
	cmd := exec.Command("unshare", "--net", "sh", "-c", script)
	cmd.Dir = filepath.Dir(found[0])
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the guide's nftables rules: %v\n%s", err, out)
	}
}
