package render

import (
	"encoding/json"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/statetest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/treetest"

	"k8s.io/apiserver/pkg/server/egressselector"
	"sigs.k8s.io/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

func TestRenderWritesEveryFileInItsPlace(t *testing.T) {
	root := t.TempDir()
	rep := mustRun(t, baseOpts(root))

	if !rep.CertsGenerated {
		t.Errorf("certificates not generated on an empty root: %q", rep.CertsReason)
	}
	want := append([]string{hostlayout.StatePath}, bundlePaths...)
	for _, n := range hostlayout.CertFileNames {
		want = append(want, certDirRel+"/"+n)
	}
	got := map[string]FileReport{}
	for _, f := range rep.Files {
		got[f.RelPath] = f
	}
	if len(got) != len(want) {
		t.Errorf("report lists %d files, want %d: %+v", len(got), len(want), rep.Files)
	}
	for _, rel := range want {
		f, ok := got[rel]
		if !ok {
			t.Errorf("report misses %s", rel)
			continue
		}
		if f.Action != hosttxn.Create {
			t.Errorf("%s: action %s, want create", rel, f.Action)
		}
		fi, err := os.Stat(filepath.Join(root, rel))
		if err != nil {
			t.Errorf("%s not written: %v", rel, err)
			continue
		}
		if int(fi.Size()) != f.Size {
			t.Errorf("%s: report says %d bytes, disk has %d", rel, f.Size, fi.Size())
		}
		// Placement annotations are render's own; the proxy version stays
		// for status and wait (docs/proxy-versions.md).
		for _, a := range []string{hostlayout.AnnotationPlacement, hostlayout.AnnotationHostPath, hostlayout.AnnotationKASConfigMount} {
			if strings.Contains(readFile(t, root, rel), a) {
				t.Errorf("%s still carries the internal annotation %s", rel, a)
			}
		}
	}
}

func TestRenderModesProtectPrivateKeys(t *testing.T) {
	root := t.TempDir()
	mustRun(t, baseOpts(root))
	cases := map[string]os.FileMode{
		certDirRel:                 0o700 | os.ModeDir,
		certDirRel + "/ca.key":     0o600,
		certDirRel + "/server.key": 0o600,
		certDirRel + "/agent.key":  0o600,
		certDirRel + "/ca.crt":     0o644,
		secretRel:                  0o600, // the Secret holds the agent key
		podRel:                     0o644,
	}
	for rel, want := range cases {
		fi, err := os.Stat(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode() & (os.ModePerm | os.ModeDir); got != want {
			t.Errorf("%s: mode %v, want %v", rel, got, want)
		}
	}
}

func TestRenderKASFilesArePlainConfig(t *testing.T) {
	root := t.TempDir()
	mustRun(t, baseOpts(root))
	for _, rel := range []string{egressRel, overrideRel} {
		var doc map[string]any
		if err := yaml.Unmarshal([]byte(readFile(t, root, rel)), &doc); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if _, ok := doc["metadata"]; ok {
			t.Errorf("%s still has metadata: %v", rel, doc["metadata"])
		}
	}
	// The file the KAS reads must load with the KAS's own reader.
	cfg, err := egressselector.ReadEgressSelectorConfiguration(filepath.Join(root, egressRel))
	if err != nil {
		t.Fatalf("kube-apiserver cannot read the egress file: %v", err)
	}
	if len(cfg.EgressSelections) != 3 || cfg.EgressSelections[0].Name != "cluster" {
		t.Errorf("egress selections: %+v", cfg.EgressSelections)
	}
	if !strings.Contains(readFile(t, root, overrideRel), "/etc/kubernetes/config/egress-selector-config.yaml") {
		t.Errorf("override does not point at the egress file as the KAS sees it:\n%s", readFile(t, root, overrideRel))
	}
}

func TestRenderManifestsKeepLabelsAndCarryTheIP(t *testing.T) {
	root := t.TempDir()
	mustRun(t, baseOpts(root))
	ds := readFile(t, root, daemonSetRel)
	for _, want := range []string{"--proxy-server-host=" + testIP, "openshift.io/bootstrap-only", testImage} {
		if !strings.Contains(ds, want) {
			t.Errorf("DaemonSet lacks %q", want)
		}
	}
	secret := readFile(t, root, secretRel)
	for _, want := range []string{"kind: Secret", "name: konnectivity-agent-certs", "tls.key", "openshift.io/bootstrap-only"} {
		if !strings.Contains(secret, want) {
			t.Errorf("Secret lacks %q:\n%s", want, secret)
		}
	}
}

func TestRenderIsIdempotent(t *testing.T) {
	root := t.TempDir()
	mustRun(t, baseOpts(root))
	before := treetest.Snapshot(t, root, treetest.Exact)
	rep := mustRun(t, baseOpts(root))
	if rep.Changed() || rep.CertsGenerated {
		t.Errorf("second run changed something: certs generated %v (%s), files %+v", rep.CertsGenerated, rep.CertsReason, rep.Files)
	}
	if n := rep.Count(hosttxn.Unchanged); n != len(rep.Files) || n == 0 {
		t.Errorf("%d of %d files unchanged", n, len(rep.Files))
	}
	treetest.AssertSame(t, "the host before and after", before, treetest.Snapshot(t, root, treetest.Exact))
}

func TestRenderRewritesExactlyWhatChanged(t *testing.T) {
	cases := []struct {
		name    string
		change  func(*Options)
		updated []string
	}{
		{"image", func(o *Options) { o.Image = "quay.io/openshift/origin-apiserver-network-proxy:4.21" },
			[]string{hostlayout.StatePath, podRel, daemonSetRel}},
		{"bootstrap IP", func(o *Options) { o.BootstrapIP = netip.MustParseAddr("192.0.2.11") },
			// the CA and the agent certificate (and so the Secret) stay, so
			// running agents keep working; only the server leaf names the IP
			[]string{hostlayout.StatePath, daemonSetRel, certDirRel + "/server.crt", certDirRel + "/server.key"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			mustRun(t, baseOpts(root))
			opts := baseOpts(root)
			tc.change(&opts)
			rep := mustRun(t, opts)
			var got []string
			for _, f := range rep.Files {
				if f.Action != hosttxn.Unchanged {
					got = append(got, f.RelPath)
				}
			}
			if !sameSet(got, tc.updated) {
				t.Errorf("updated %v, want %v", got, tc.updated)
			}
		})
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]int{}
	for _, s := range a {
		m[s]++
	}
	for _, s := range b {
		if m[s]--; m[s] < 0 {
			return false
		}
	}
	return true
}

func TestDryRunTouchesNothing(t *testing.T) {
	t.Run("fresh root", func(t *testing.T) {
		root := t.TempDir()
		before := treetest.Snapshot(t, root, treetest.Exact)
		opts := baseOpts(root)
		opts.DryRun = true
		rep := mustRun(t, opts)
		if n := rep.Count(hosttxn.Create); n != len(rep.Files) || n < len(bundlePaths) {
			t.Errorf("dry run on an empty root plans %d creates of %d files", n, len(rep.Files))
		}
		treetest.AssertSame(t, "the host before and after", before, treetest.Snapshot(t, root, treetest.Exact))
	})
	t.Run("changed image", func(t *testing.T) {
		root := t.TempDir()
		mustRun(t, baseOpts(root))
		before := treetest.Snapshot(t, root, treetest.Exact)
		opts := baseOpts(root)
		opts.DryRun, opts.Image = true, "quay.io/other/image:4.19"
		rep := mustRun(t, opts)
		if rep.Count(hosttxn.Update) != 3 {
			t.Errorf("dry run plans %d updates, want 3: %+v", rep.Count(hosttxn.Update), rep.Files)
		}
		treetest.AssertSame(t, "the host before and after", before, treetest.Snapshot(t, root, treetest.Exact))
	})
}

func TestStateFileRecordsWhatRenderWrote(t *testing.T) {
	root := t.TempDir()
	mustRun(t, baseOpts(root))
	st, err := statetest.Read(root)
	if err != nil {
		t.Fatal(err)
	}
	if st.Namespace != "openshift-bootstrap-konnectivity" {
		t.Errorf("namespace %q", st.Namespace)
	}
	if len(st.Files) != len(bundlePaths)+len(hostlayout.CertFileNames) {
		t.Errorf("state lists %d files", len(st.Files))
	}
	for _, f := range st.Files {
		data, err := os.ReadFile(filepath.Join(root, f.Path))
		if err != nil {
			t.Errorf("state lists %s: %v", f.Path, err)
			continue
		}
		if hosttxn.SHA256(data) != f.SHA256 {
			t.Errorf("%s: recorded sha256 does not match the disk", f.Path)
		}
		if f.Placement == "" {
			t.Errorf("%s: no placement", f.Path)
		}
	}
	kinds := map[string]bool{}
	for _, o := range st.ClusterObjects {
		kinds[o.Kind] = true
	}
	for _, k := range []string{"Namespace", "DaemonSet", "Secret"} {
		if !kinds[k] {
			t.Errorf("state does not record the %s: %+v", k, st.ClusterObjects)
		}
	}
	for _, d := range []string{certDirRel, "var/lib/konnectivity-bundle", "etc/kubernetes/manifests"} {
		if !contains(st.Dirs, d) {
			t.Errorf("state does not record created dir %s: %v", d, st.Dirs)
		}
	}
	raw := readFile(t, root, hostlayout.StatePath)
	var generic map[string]any
	if err := json.Unmarshal([]byte(raw), &generic); err != nil {
		t.Fatalf("state is not JSON: %v", err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestDisabledOverlayWritesNothing(t *testing.T) {
	root := t.TempDir()
	before := treetest.Snapshot(t, root, treetest.Exact)
	opts := baseOpts(root)
	opts.Overlay = "sno"
	rep := mustRun(t, opts)
	if !rep.Disabled || len(rep.Files) != 0 {
		t.Errorf("sno: disabled %v, files %+v", rep.Disabled, rep.Files)
	}
	treetest.AssertSame(t, "the host before and after", before, treetest.Snapshot(t, root, treetest.Exact))
}

func TestAutoUsesTheInstallerOverride(t *testing.T) {
	cases := []struct{ overlay, ip string }{{"ipv4", "192.0.2.77"}, {"ipv6", "2001:db8::77"}}
	for _, tc := range cases {
		t.Run(tc.overlay, func(t *testing.T) {
			root := t.TempDir()
			opts := baseOpts(root)
			opts.Overlay, opts.AutoBootstrapIP = tc.overlay, true
			opts.Getenv = func(k string) string {
				if k == "OPENSHIFT_INSTALL_BOOTSTRAP_NODE_IP" {
					return tc.ip
				}
				return ""
			}
			rep := mustRun(t, opts)
			if rep.BootstrapIP != tc.ip {
				t.Errorf("detected %q, want %q", rep.BootstrapIP, tc.ip)
			}
			if ds := readFile(t, root, daemonSetRel); !strings.Contains(ds, "--proxy-server-host="+tc.ip) {
				t.Errorf("DaemonSet does not dial %s", tc.ip)
			}
		})
	}
}

func TestFileDroppedFromBundleIsRemoved(t *testing.T) {
	root := t.TempDir()
	mustRun(t, baseOpts(root))
	opts := baseOpts(root)
	opts.Overlay = tooltest.WriteOverlay(t, tooltest.Overlay{Spec: "paths: {kasConfigOverride: /opt/openshift/other-override.yaml}\n"})
	rep := mustRun(t, opts)
	actions := map[string]hosttxn.Action{}
	for _, f := range rep.Files {
		actions[f.RelPath] = f.Action
	}
	if actions[overrideRel] != hosttxn.Remove || actions["opt/openshift/other-override.yaml"] != hosttxn.Create {
		t.Errorf("moving the override: %v", actions)
	}
	if _, err := os.Stat(filepath.Join(root, overrideRel)); !os.IsNotExist(err) {
		t.Errorf("old override still on disk: %v", err)
	}
}
