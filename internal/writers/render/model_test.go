package render

import (
	"bytes"
	"net/netip"
	"testing"

	bundlev1 "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// TestSecretFileSameAsFromText: the Secret render now builds as a node is
// written byte for byte as the text Secret render used to parse.
func TestSecretFileSameAsFromText(t *testing.T) {
	r, err := certs.Plan(certs.Options{Dir: t.TempDir(), BootstrapIP: netip.MustParseAddr(testIP)})
	if err != nil {
		t.Fatal(err)
	}
	const ns, hostPath = "openshift-bootstrap-konnectivity", "/opt/openshift/manifests/konnectivity-agent-certs-secret.yaml"
	node, err := certs.AgentSecretNode(r, ns, hostPath)
	if err != nil {
		t.Fatal(err)
	}
	text, err := node.String() // the bytes the text Secret was made of
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := yaml.Parse(string(text))
	if err != nil {
		t.Fatal(err)
	}
	var files [2][]byte
	for i, n := range []*yaml.RNode{node, parsed} {
		o := bundlemodel.New([]*yaml.RNode{n}).Objects[0]
		if err := checkPlacement(o); err != nil {
			t.Fatal(err)
		}
		if files[i], err = fileBytes(o); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Errorf("Secret file from the node:\n%s\nfrom the text:\n%s", files[0], files[1])
	}
}

// countingDeps counts builds and reads of the overlay's spec.
func countingDeps(builds, specReads *int) *deps {
	d := realDeps()
	build, readSpec := d.build, d.readSpec
	d.build = func(target string, opts kustbuild.Options) (*kustbuild.Model, error) {
		*builds++
		return build(target, opts)
	}
	d.readSpec = func(target string, opts kustbuild.Options) (*bundlev1.Spec, error) {
		*specReads++
		return readSpec(target, opts)
	}
	return d
}

// TestRenderBuildsOnce: one render is one kustomize run, whatever the IP
// source (the IP family used to cost a second build), after one read of
// the overlay's spec, which stops at its config and generates nothing.
func TestRenderBuildsOnce(t *testing.T) {
	for _, ip := range []string{testIP, autoIP} {
		var builds, specReads int
		opts := baseOpts(t.TempDir())
		setIP(&opts, ip)
		opts.deps = countingDeps(&builds, &specReads)
		opts.deps.detectIP = func(bootstrapip.Family, func(string) string) (bootstrapip.Detection, error) {
			return bootstrapip.Detection{Addr: netip.MustParseAddr(testIP), Source: "a test's route"}, nil
		}
		mustRun(t, opts)
		if builds != 1 {
			t.Errorf("--bootstrap-ip %s: %d builds, want 1", ip, builds)
		}
		if specReads != 1 {
			t.Errorf("--bootstrap-ip %s: %d reads of the spec, want 1", ip, specReads)
		}
	}
}
