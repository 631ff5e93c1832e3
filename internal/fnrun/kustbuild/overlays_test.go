package kustbuild

import (
	"bytes"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/goldenfile"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// goldenImage is a fixed image so golden files do not depend on the environment.
const goldenImage = "quay.io/openshift/origin-apiserver-network-proxy:4.20"

// goldenInputs are the runtime values each overlay's golden file is built
// with: documentation addresses (RFC 5737, RFC 3849). upi pins its own
// bootstrap IP and mirrored image in the overlay, so it gets neither.
// ipOf is a test's address as --bootstrap-ip parses it; "" is the zero Addr
// (not given).
func ipOf(s string) netip.Addr {
	if s == "" {
		return netip.Addr{}
	}
	return netip.MustParseAddr(s)
}

var goldenInputs = map[string]Options{
	"ipv4":      {BootstrapIP: netip.MustParseAddr("192.0.2.10"), Image: goldenImage},
	"ipv6":      {BootstrapIP: netip.MustParseAddr("2001:db8::10"), Image: goldenImage},
	"dualstack": {BootstrapIP: netip.MustParseAddr("192.0.2.10"), Image: goldenImage},
	"sno":       {BootstrapIP: netip.MustParseAddr("192.0.2.10"), Image: goldenImage},
	"upi":       {},
}

func noEnv(string) string { return "" }

func inputs(t testing.TB, overlay string) Options {
	opts, ok := goldenInputs[overlay]
	if !ok {
		t.Fatalf("overlay %s has no golden inputs: add it to goldenInputs", overlay)
	}
	opts.Getenv = noEnv
	return opts
}

func TestEveryOverlayHasGoldenInputs(t *testing.T) {
	for _, o := range Overlays() {
		inputs(t, o)
	}
	if len(goldenInputs) != len(Overlays()) {
		t.Errorf("goldenInputs has %d entries, overlays/ has %d: remove stale entries", len(goldenInputs), len(Overlays()))
	}
}

// TestGolden is `make verify`: every overlay's output must match its
// reviewed golden file; `make golden` (-update) rewrites them all, `make
// golden-overlay OVERLAY=NAME` one (refreshOverlay).
func TestGolden(t *testing.T) {
	for _, overlay := range Overlays() {
		t.Run(overlay, func(t *testing.T) {
			got, err := Build(overlay, inputs(t, overlay))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(tooltest.RepoRoot(), "testdata", "golden", overlay+".yaml")
			goldenfile.AssertRefresh(t, path, got, refreshOverlay(overlay))
		})
	}
}

// refreshOverlay is the command that rewrites one overlay's golden file,
// needing neither root nor the real tools (CONTRIBUTING.md).
func refreshOverlay(overlay string) string { return "make golden-overlay OVERLAY=" + overlay }

// TestDeterministic builds each overlay twice, from memory and from disk,
// and expects the same bytes every time.
func TestDeterministic(t *testing.T) {
	for _, overlay := range Overlays() {
		opts := inputs(t, overlay)
		first, err := Build(overlay, opts)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			again, err := Build(overlay, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(first, again) {
				t.Fatalf("overlay %s: two builds differ:\n%s", overlay, unifiedDiff(t, first, again))
			}
		}
		fromDisk, err := Build(filepath.Join(tooltest.RepoRoot(), "overlays", overlay), opts)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, fromDisk) {
			t.Errorf("overlay %s: embedded and on-disk builds differ (is the binary stale?):\n%s", overlay, unifiedDiff(t, first, fromDisk))
		}
	}
}

func unifiedDiff(t testing.TB, want, got []byte) string { return goldenfile.Diff(t, want, got) }

// TestBuildOverlayIgnoresLocalDirectory: a directory named like an overlay in
// the working directory shadows it for Build (the user's tree wins) but not
// for BuildOverlay, which always means the embedded one.
func TestBuildOverlayIgnoresLocalDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.MkdirAll("ipv6", 0o755); err != nil {
		t.Fatal(err)
	}
	kust := "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [cm.yaml]\n"
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: local-ipv6\n"
	for name, body := range map[string]string{"kustomization.yaml": kust, "cm.yaml": cm} {
		if err := os.WriteFile(filepath.Join("ipv6", name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts := inputs(t, "ipv6")
	local, err := Build("ipv6", opts)
	if err != nil || !strings.Contains(string(local), "name: local-ipv6") {
		t.Fatalf("Build(ipv6) should build the local directory: %q, %v", local, err)
	}
	embedded, err := BuildOverlay("ipv6", opts)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(tooltest.RepoRoot(), "testdata", "golden", "ipv6.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(embedded, want) {
		t.Errorf("BuildOverlay(ipv6) differs from the golden file:\n%s", unifiedDiff(t, want, embedded))
	}
	if _, err := BuildOverlay("nope", opts); err == nil || !strings.Contains(err.Error(), "overlays: dualstack") {
		t.Errorf("BuildOverlay(nope) = %v, want an error listing the overlays", err)
	}
}
