package render

import (
	"context"
	"errors"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/treetest"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// runBad runs render expecting an error, and checks the host is untouched.
func runBad(t *testing.T, opts Options) error {
	t.Helper()
	var before map[string]treetest.Entry
	if fi, err := os.Stat(opts.Root); err == nil && fi.IsDir() {
		before = treetest.Snapshot(t, opts.Root, treetest.Exact)
	}
	rep, err := Run(context.Background(), opts)
	if err == nil {
		t.Fatalf("render succeeded, want an error; report %+v", rep)
	}
	if before != nil {
		treetest.AssertSame(t, "the host before and after", before, treetest.Snapshot(t, opts.Root, treetest.Exact))
	}
	return err
}

func TestBadInputIPOfWrongFamily(t *testing.T) {
	cases := []struct{ overlay, ip, fragment string }{
		{"ipv4", testIP6, "2001:db8::10 is an IPv6 address, but overlay ipv4 is for IPv4 (fix: build the ipv6 overlay"},
		{"ipv6", testIP, "192.0.2.10 is an IPv4 address, but overlay ipv6 is for IPv6 (fix: build the ipv4 overlay"},
	}
	for _, tc := range cases {
		t.Run(tc.overlay, func(t *testing.T) {
			opts := baseOpts(t.TempDir())
			opts.Overlay = tc.overlay
			setIP(&opts, tc.ip)
			expectInputError(t, runBad(t, opts), "--bootstrap-ip", tc.fragment)
		})
	}
}

func TestBadInputUnreachableIP(t *testing.T) {
	cases := []struct{ ip, fragment string }{
		{"0.0.0.0", "unspecified"},
		{"::", "unspecified"},
		{"127.0.0.1", "loopback"},
		{"::1", "loopback"},
		{"224.0.0.1", "multicast"},
		{"ff02::1", "multicast"},
		{"169.254.1.1", "link-local"},
		// Text that is no address at all (not-an-ip, 192.0.2.10/24) never
		// reaches render: the CLI refuses it as it reads the flag, exit 3
		// (internal/cli TestSharedFlagErrors).
	}
	for _, tc := range cases {
		t.Run(tc.ip, func(t *testing.T) {
			opts := baseOpts(t.TempDir())
			setIP(&opts, tc.ip)
			expectInputError(t, runBad(t, opts), "--bootstrap-ip", tc.fragment)
		})
	}
}

func TestBadInputRootIsAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "root")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	expectInputError(t, runBad(t, baseOpts(file)), "--root", "is a file, not a directory")
}

func TestBadInputRootMissing(t *testing.T) {
	expectInputError(t, runBad(t, baseOpts(filepath.Join(t.TempDir(), "nope"))), "--root", "does not exist")
}

// TestBadInputUnwritableRoot uses a read-only mount because permission bits
// do not stop root, which this suite usually runs as.
func TestBadInputUnwritableRoot(t *testing.T) {
	root := t.TempDir()
	if os.Geteuid() == 0 {
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", root).CombinedOutput(); err != nil {
			t.Skipf("running as root and cannot mount a read-only tmpfs to make an unwritable root: %v: %s", err, out)
		}
		t.Cleanup(func() { _ = exec.Command("umount", root).Run() })
	} else if err := os.Chmod(root, 0o555); err != nil {
		t.Fatal(err)
	}
	expectInputError(t, runBad(t, baseOpts(root)), "--root", "is not writable")
}

// TestImageOmittedNeedsAPinnedOverlay: without --image the overlay must pin
// the image; the default overlay leaves the placeholder, the upi one pins a
// mirror with images:, which --image would otherwise override.
func TestImageOmittedNeedsAPinnedOverlay(t *testing.T) {
	opts := baseOpts(t.TempDir())
	opts.Image, opts.ProxyVersion = "", proxyversion.V036
	expectInputError(t, runBad(t, opts), "--image", "placeholder image")

	root := t.TempDir()
	opts = baseOpts(root)
	opts.Image, opts.Overlay = "", "upi"
	mustRun(t, opts)
	pod, err := os.ReadFile(filepath.Join(root, "etc/kubernetes/manifests/konnectivity-server-pod.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(pod), "image: mirror.example.com:5000/openshift/apiserver-network-proxy:4.20") {
		t.Errorf("upi overlay rendered without --image lost its mirrored image:\n%s", pod)
	}
}

// TestImageOverAPinNeedsAChoice: --image for an overlay that pins another
// image is bad input naming both, and writes nothing; --keep-pin renders the
// pin, --override-pin the given image.
func TestImageOverAPinNeedsAChoice(t *testing.T) {
	const pin = "image: mirror.example.com:5000/openshift/apiserver-network-proxy:4.20"
	root := t.TempDir()
	opts := baseOpts(root)
	opts.Overlay = "upi"
	expectInputError(t, runBad(t, opts), "--image", testImage, "mirror.example.com:5000/openshift/apiserver-network-proxy:4.20", "--override-pin", "--keep-pin")
	if entries, err := os.ReadDir(root); err != nil || len(entries) != 0 {
		t.Errorf("the refused render left %d entries in the root (%v)", len(entries), err)
	}
	for _, tc := range []struct {
		pin  kustbuild.PinPolicy
		want string
	}{{kustbuild.PinKeep, pin}, {kustbuild.PinOverride, "image: " + testImage}} {
		root := t.TempDir()
		opts := baseOpts(root)
		opts.Overlay, opts.Pin = "upi", tc.pin
		mustRun(t, opts)
		pod, err := os.ReadFile(filepath.Join(root, "etc/kubernetes/manifests/konnectivity-server-pod.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(pod), tc.want) {
			t.Errorf("pin policy %d: the server pod lacks %q:\n%s", tc.pin, tc.want, pod)
		}
	}
}

func TestBadInputInvalidImage(t *testing.T) {
	for _, image := range []string{"Quay.io/UPPER/Case:1", "quay.io/x/y:bad tag", "quay.io/x/y@sha256:short", "quay.io//double"} {
		t.Run(image, func(t *testing.T) {
			opts := baseOpts(t.TempDir())
			opts.Image = image
			expectInputError(t, runBad(t, opts), "--image", "reference like")
		})
	}
}

// damageCertFile renders, then truncates one file of the certificate directory.
func damageCertFile(t *testing.T, name string) Options {
	t.Helper()
	root := t.TempDir()
	mustRun(t, baseOpts(root))
	p := filepath.Join(root, certDirRel, name)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data[:len(data)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	opts := baseOpts(root)
	opts.BootstrapIP = netip.MustParseAddr("192.0.2.11") // even a run that must touch certificates stops
	return opts
}

func TestBadInputTruncatedCertificate(t *testing.T) {
	opts := damageCertFile(t, "server.crt")
	expectInputError(t, runBad(t, opts), "certificate file "+filepath.Join(opts.Root, certDirRel, "server.crt"), "truncated", "--force")
}

func TestBadInputTruncatedKey(t *testing.T) {
	opts := damageCertFile(t, "ca.key")
	expectInputError(t, runBad(t, opts), "certificate file "+filepath.Join(opts.Root, certDirRel, "ca.key"), "truncated", "--force")
}

func TestForceRegeneratesTruncatedCertificates(t *testing.T) {
	opts := damageCertFile(t, "agent.key")
	opts.Force = true
	rep := mustRun(t, opts)
	if !rep.CertsGenerated {
		t.Errorf("--force did not regenerate damaged certificates")
	}
	if err := checkCertFiles(opts.Root, certDirRel); err != nil {
		t.Errorf("after --force: %v", err)
	}
}

func TestRefuseToOverwriteForeignFile(t *testing.T) {
	root := t.TempDir()
	foreign := filepath.Join(root, podRel)
	if err := os.MkdirAll(filepath.Dir(foreign), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(foreign, []byte("someone else's pod\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := runBad(t, baseOpts(root))
	var refused *RefusedError
	if !errors.As(err, &refused) || len(refused.Paths) != 1 || refused.Paths[0] != foreign {
		t.Fatalf("want a RefusedError naming %s, got %v", foreign, err)
	}
	if !strings.Contains(err.Error(), "--force") {
		t.Errorf("message does not name the fix: %v", err)
	}

	opts := baseOpts(root)
	opts.Force = true
	mustRun(t, opts)
	if got := readFile(t, root, podRel); strings.Contains(got, "someone else") {
		t.Errorf("--force did not overwrite")
	}
}

func TestCheckErrorsStopBeforeAnyWrite(t *testing.T) {
	opts := baseOpts(t.TempDir())
	d := realDeps()
	d.check = func(*bundlemodel.Bundle, map[string][]byte, bool) (framework.Results, error) {
		return framework.Results{result.New(framework.Error, "test-rule", "Pod kube-system/konnectivity-server", "", "injected", "")}, nil
	}
	opts.deps = d
	err := runBad(t, opts)
	var ce *CheckError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "[test-rule]") {
		t.Fatalf("want a CheckError naming the rule, got %v", err)
	}
}

// TestBadInputUnknownField: an overlay whose patch adds a field the
// DaemonSet's type does not have is bad input naming the overlay, the
// field and the one meant, and nothing is written.
func TestBadInputUnknownField(t *testing.T) {
	tree := tooltest.ExecWiredTree(t)
	overlay := filepath.Join(tree, "overlays", "typo")
	if err := os.MkdirAll(overlay, 0o755); err != nil {
		t.Fatal(err)
	}
	kust := "resources:\n- ../ipv4\npatches:\n- target: {kind: DaemonSet}\n  patch: |-\n    apiVersion: apps/v1\n    kind: DaemonSet\n    metadata: {name: konnectivity-agent}\n    spec: {template: {spec: {nodeSelecter: {a: b}}}}\n"
	if err := os.WriteFile(filepath.Join(overlay, "kustomization.yaml"), []byte(kust), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	opts := baseOpts(root)
	opts.Overlay = overlay
	// The build's own text names the overlay once (its path), the field and its fix.
	expectInputError(t, runBad(t, opts), "", "building "+overlay+": ", "spec.template.spec.nodeSelecter: unknown field", `did you mean "nodeSelector"?`)
	if entries, err := os.ReadDir(root); err != nil || len(entries) != 0 {
		t.Errorf("the refused render left %d entries in the root (%v)", len(entries), err)
	}
}
