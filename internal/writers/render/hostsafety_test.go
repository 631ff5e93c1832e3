package render

import (
	"context"
	"encoding/json"
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/treetest"
)

// TestSymlinkInTheWayIsRefused plants a link at each directory render
// writes through, pointing out of the root or elsewhere inside it: render
// refuses with an InputError or UnsafeError (exit 3) naming the link, and nothing appears
// outside.
func TestSymlinkInTheWayIsRefused(t *testing.T) {
	for _, dir := range []string{"etc/kubernetes/manifests", certDirRel, "var/lib/konnectivity-bundle", "etc", certDirRel + "/ca.key"} {
		for _, target := range []string{"abs", "../outside", "inside"} {
			if dir == "etc" && target == "inside" {
				continue // a top-level link inside the root is the ostree layout (/opt -> var/opt), followed
			}
			t.Run(dir+"->"+target, func(t *testing.T) {
				root, outside := t.TempDir(), t.TempDir()
				link := filepath.Join(root, dir)
				if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
					t.Fatal(err)
				}
				dest := outside
				switch target {
				case "../outside":
					dest, _ = filepath.Rel(filepath.Dir(link), outside)
				case "inside":
					dest = "."
				}
				if err := os.Symlink(dest, link); err != nil {
					t.Fatal(err)
				}
				_, err := Run(context.Background(), baseOpts(root))
				var ie *InputError
				var ue *hostfs.UnsafeError // the CLI maps both to exit 3
				if !(errors.As(err, &ie) || errors.As(err, &ue)) || !strings.Contains(err.Error(), link) || !strings.Contains(err.Error(), "fix:") {
					t.Fatalf("want an InputError naming %s and the fix, got %v", link, err)
				}
				if entries, _ := os.ReadDir(outside); len(entries) != 0 {
					t.Errorf("render wrote outside the root: %v", entries)
				}
			})
		}
	}
}

// TestStateEntriesOutsideTheBundleAreRefused: a state naming a path render
// could not have placed is refused before anything is removed.
func TestStateEntriesOutsideTheBundleAreRefused(t *testing.T) {
	for name, entry := range map[string]hostlayout.StateFile{
		"parent":       {Path: "../outside/victim", Placement: hostlayout.PlacementKASConfigOverride},
		"absolute":     {Path: "/etc/passwd", Placement: hostlayout.PlacementKASConfigOverride},
		"unclean":      {Path: "etc/./kubernetes/x.yaml", Placement: hostlayout.PlacementKASConfigOverride},
		"placement":    {Path: "etc/shadow", Placement: "anything"},
		"cert name":    {Path: certDirRel + "/id_rsa", Placement: hostlayout.PlacementCertificate},
		"cluster name": {Path: "opt/openshift/manifests/99-other.yaml", Placement: hostlayout.PlacementClusterManifest},
		"scratch":      {Path: "etc/.x.yaml.kb-tmp-1", Placement: hostlayout.PlacementKASConfigOverride},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			mustRun(t, baseOpts(root))
			p := filepath.Join(root, hostlayout.StatePath)
			var st hostlayout.State
			data, _ := os.ReadFile(p)
			if err := json.Unmarshal(data, &st); err != nil {
				t.Fatal(err)
			}
			st.Files = append(st.Files, entry)
			data, _ = json.Marshal(st)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			before := treetest.Snapshot(t, root, treetest.Exact)
			err := runBad(t, baseOpts(root))
			if err == nil || !strings.Contains(err.Error(), "state file") || !strings.Contains(err.Error(), "fix:") {
				t.Fatalf("want the state refused with a fix, got %v", err)
			}
			treetest.AssertSame(t, "the host before and after", before, treetest.Snapshot(t, root, treetest.Exact))
		})
	}
}

// TestIdenticalForeignFileIsNotAdopted: a file render did not write is
// refused even when its bytes are exactly what render would write.
func TestIdenticalForeignFileIsNotAdopted(t *testing.T) {
	first := t.TempDir()
	mustRun(t, baseOpts(first))
	root := t.TempDir()
	rel := egressRel // the egress configuration: the same bytes on any root
	data := readFile(t, first, rel)
	if err := os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, rel), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	err := runBad(t, baseOpts(root))
	var refused *RefusedError
	if !errors.As(err, &refused) || len(refused.Paths) != 1 || refused.Paths[0] != filepath.Join(root, rel) {
		t.Fatalf("want a RefusedError naming %s, got %v", rel, err)
	}
}

// TestErrorAfterCommitKeepsTheBundle fails the directory fsync after the
// renames (issue 9 point 4): the new bundle stays, the error says it is
// written but not confirmed durable, and never that the host is unchanged.
func TestErrorAfterCommitKeepsTheBundle(t *testing.T) {
	root := t.TempDir()
	mustRun(t, baseOpts(root))
	opts := baseOpts(root)
	opts.BootstrapIP = netip.MustParseAddr("192.0.2.99")
	renamed := 0
	fault := func(op hostfs.Op, rel string) error {
		if op == hostfs.OpRename && strings.Contains(rel, "-> etc/kubernetes/manifests/konnectivity-server-pod.yaml") {
			renamed++
		}
		if op == hostfs.OpSync && renamed > 0 && rel == "etc/kubernetes/manifests" {
			return syscall.EIO
		}
		return nil
	}
	_, err := runWith(context.Background(), opts, fault)
	var de *hosttxn.DurabilityError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), "written but its durability is not confirmed") || strings.Contains(err.Error(), "unchanged") {
		t.Fatalf("want a DurabilityError, got %v", err)
	}
	if !strings.Contains(readFile(t, root, "opt/openshift/manifests/konnectivity-agent-daemonset.yaml"), "192.0.2.99") {
		t.Errorf("the committed DaemonSet was rolled back")
	}
	if _, err := os.Stat(filepath.Join(root, podRel)); err != nil {
		t.Errorf("the committed static pod manifest is gone: %v", err)
	}
	if out := mustRun(t, opts); out.Changed() {
		t.Errorf("the next render rewrote the committed bundle: %+v", out.Files)
	}
}

// TestDisablingRemovesAnEarlierBundle (issue 10.6): the sno overlay over a
// rendered root removes what render wrote, as one transaction.
func TestDisablingRemovesAnEarlierBundle(t *testing.T) {
	root := t.TempDir()
	mustRun(t, baseOpts(root))
	opts := baseOpts(root)
	opts.Overlay = "sno"
	rep := mustRun(t, opts)
	if !rep.Disabled || rep.Count(hosttxn.Remove) != len(bundlePaths)+len(hostlayout.CertFileNames) {
		t.Fatalf("want %d removals, got %+v", len(bundlePaths)+len(hostlayout.CertFileNames), rep.Files)
	}
	for _, rel := range bundlePaths {
		if _, err := os.Stat(filepath.Join(root, rel)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is still there", rel)
		}
	}
	if rep := mustRun(t, opts); rep.Changed() {
		t.Errorf("a second disabled render changed something: %+v", rep.Files)
	}
}

// TestHostileJournalIsRefused: recovery renames and removes what the
// journal lists, so a journal naming a path out of the root, or scratch
// names elsewhere, is refused before anything is touched.
func TestHostileJournalIsRefused(t *testing.T) {
	// The journal's JSON form, written as a stranger could write it.
	type jop = map[string]string
	for name, op := range map[string]jop{
		"path out of the root":    {"kind": "remove", "path": "../outside/victim", "backup": "../outside/.victim.kb-bak-1"},
		"absolute path":           {"kind": "remove", "path": "/etc/passwd"},
		"backup in another place": {"kind": "write", "path": "etc/x.yaml", "placement": hostlayout.PlacementKASConfigOverride, "temp": "etc/.x.yaml.kb-tmp-1", "backup": "var/.x.yaml.kb-bak-1"},
		"temp not a scratch name": {"kind": "write", "path": "etc/x.yaml", "placement": hostlayout.PlacementKASConfigOverride, "temp": "etc/y.yaml"},
		"unknown operation":       {"kind": "chmod", "path": "etc/x.yaml", "placement": hostlayout.PlacementKASConfigOverride},
		"a path no placement has": {"kind": "remove", "path": "etc/passwd", "placement": hostlayout.PlacementClusterManifest, "backup": "etc/.passwd.kb-bak-1"},
		"no placement":            {"kind": "remove", "path": "etc/passwd", "backup": "etc/.passwd.kb-bak-1"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			mustRun(t, baseOpts(root))
			data, _ := json.Marshal(map[string]any{"version": hostlayout.StateVersion, "command": "render", "ops": []jop{op}})
			if err := os.WriteFile(filepath.Join(root, hostlayout.JournalPath), data, 0o600); err != nil {
				t.Fatal(err)
			}
			before := treetest.Snapshot(t, root, treetest.Exact)
			err := runBad(t, baseOpts(root))
			if err == nil || !strings.Contains(err.Error(), "journal") || !strings.Contains(err.Error(), "fix:") {
				t.Fatalf("want the journal refused with a fix, got %v", err)
			}
			treetest.AssertSame(t, "the host before and after", before, treetest.Snapshot(t, root, treetest.Exact))
		})
	}
}
