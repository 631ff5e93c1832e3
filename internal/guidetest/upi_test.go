package guidetest

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/firewall"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/treetest"
)

// TestUPIGuideRuns runs every sh block of docs/upi.md, in order and in one
// shell, from the top of a copy of the repository with a freshly built
// konnectivity-bundle on PATH, as a new user would from a fresh clone. The
// copy is not named konnectivity-bundle (a clone may have any name), the
// scratch root does not exist yet (the guide makes it), the real kustomize
// is on PATH when it is built (the guide's kustomize block runs), ROOT is
// not set (the guide's default root must be a scratch one), and the copy
// must be left exactly as it was.
func TestUPIGuideRuns(t *testing.T) {
	blocks := Runnable(guideBlocks(t, "upi.md"))
	if len(blocks) < 6 {
		t.Fatalf("docs/upi.md has %d sh blocks; the guide's steps must be runnable sh blocks", len(blocks))
	}
	sb := newSandbox(t, "kb-checkout")
	sb.path = filepath.Dir(tooltest.Bin(t, "kustomize")) + ":" + sb.path
	before := treetest.Snapshot(t, sb.repo, treetest.Exact)
	// No ROOT: as written, the guide renders into a scratch root of its own.
	out, err := sb.run(script("upi.md", blocks), "TMPDIR="+sb.tmp)
	if err != nil {
		t.Fatalf("the guide failed: %v\n%s", err, lastLines(out, 60))
	}
	if roots, _ := filepath.Glob(filepath.Join(sb.tmp, "*", "hostroot")); len(roots) != 1 {
		t.Errorf("the guide's render did not write into a scratch root under its temporary directory: %q", roots)
	}
	treetest.AssertSame(t, "the clone before and after the guide", before, treetest.Snapshot(t, sb.repo, treetest.Exact))
	t.Logf("ran %d sh blocks of docs/upi.md", len(blocks))
	t.Run("the guide's nftables rules apply", func(t *testing.T) { applyGuideRules(t, sb.tmp) })
}

// sandbox is a copy of the repository, in a directory named name, with
// the binary built from this checkout first on PATH.
type sandbox struct {
	tmp, path, repo string
}

func newSandbox(t *testing.T, name string) *sandbox {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		tooltest.Missing(t, fmt.Sprintf("the guides' blocks need bash: %v", err))
	}
	sb := &sandbox{tmp: t.TempDir(), path: bin(t) + ":/usr/local/bin:/usr/bin:/bin"}
	sb.repo = filepath.Join(sb.tmp, name)
	copyRepo(t, tooltest.RepoRoot(), sb.repo)
	return sb
}

// run runs a bash script in the copy with a clean environment plus env.
func (sb *sandbox) run(script string, env ...string) (string, error) {
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = sb.repo
	cmd.Env = append([]string{"PATH=" + sb.path, "HOME=" + sb.tmp, "LANG=C"}, env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// script joins the blocks into one fail-fast shell script that announces
// each block, so a failure names the guide line it came from.
func script(doc string, blocks []Block) string {
	var s strings.Builder
	s.WriteString("set -euo pipefail\n")
	for _, b := range blocks {
		fmt.Fprintf(&s, "echo '### docs/%s:%d (%s)'\n%s", doc, b.Line, strings.ReplaceAll(b.Section, "'", ""), b.Body)
	}
	return s.String()
}

func readGuide(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(tooltest.RepoRoot(), "docs", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// copyRepo copies the source tree (not .git or build outputs) so the guide
// can create files without touching the checkout.
func copyRepo(t *testing.T, from, to string) {
	t.Helper()
	skip := map[string]bool{".git": true, "_output": true, "bin": true}
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() && skip[rel] {
			return filepath.SkipDir
		}
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, info.Mode().Perm())
	})
	if err != nil {
		t.Fatalf("copy the repository: %v", err)
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// TestUPIGuideFirewallSection: step 6 writes every rule format, and its
// revoke form, with ports --output in sh blocks (which TestUPIGuideRuns
// runs), for the guide's port and node network; no rule is typed by hand.
func TestUPIGuideFirewallSection(t *testing.T) {
	var run, shown strings.Builder
	for _, b := range guideBlocks(t, "upi.md") {
		if b.Section != "6. Open the firewall (bootstrap phase only)" {
			continue
		}
		if b.Lang == "sh" && b.Skip == "" {
			run.WriteString(b.Body)
		} else {
			shown.WriteString(b.Body)
		}
	}
	for _, format := range firewall.Formats() {
		if !strings.Contains(run.String(), " "+format) {
			t.Errorf("step 6 does not generate --output %s in an sh block", format)
		}
	}
	for _, want := range []string{"--from 10.0.0.0/24", "--revoke", "--nft-chain"} {
		if !strings.Contains(run.String(), want) {
			t.Errorf("step 6's sh blocks lack %q", want)
		}
	}
	for _, handWritten := range []string{"aws ec2 ", "az network", "gcloud ", "openstack security", "firewall-cmd ", "nft add rule", "iptables -I", "iptables -A"} {
		if strings.Contains(run.String()+shown.String(), handWritten) {
			t.Errorf("step 6 types a rule by hand (%q): generate it with ports --output", handWritten)
		}
	}
}
