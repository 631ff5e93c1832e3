package guidetest

import (
	"os"
	"os/exec"
	"testing"
)

// applyGuideRules applies the nftables rules step 6 of docs/upi.md wrote,
// and their revoke form, in a new network namespace: the generated files
// load, open the guide's port, and leave an empty ruleset behind.
func applyGuideRules(t *testing.T, repo string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Log("not applying the guide's nftables rules: needs root for a network namespace")
		return
	}
	if _, err := exec.LookPath("nft"); err != nil {
		t.Log("not applying the guide's nftables rules: nft is not installed (tools/deps.sh: apt-get install nftables)")
		return
	}
	script := `set -e
nft -f konnectivity.nft
nft list table inet konnectivity_bootstrap | grep -q 'tcp dport 9443 drop'
nft -f konnectivity-revoke.nft
test -z "$(nft list ruleset)"`
	cmd := exec.Command("unshare", "--net", "sh", "-c", script)
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the guide's nftables rules: %v\n%s", err, out)
	}
}
