package render

import (
	"context"
	"errors"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	testIP    = "192.0.2.10"
	testIP6   = "2001:db8::10"
	testImage = "quay.io/openshift/origin-apiserver-network-proxy:4.20"
)

// Host paths of docs/bundle-shape.md, relative to the root, named by what
// each file holds.
const (
	podRel       = "etc/kubernetes/manifests/konnectivity-server-pod.yaml"
	namespaceRel = "opt/openshift/manifests/konnectivity-00-namespace.yaml"
	daemonSetRel = "opt/openshift/manifests/konnectivity-agent-daemonset.yaml"
	secretRel    = "opt/openshift/manifests/konnectivity-agent-certs-secret.yaml"
	egressRel    = "etc/kubernetes/bootstrap-configs/egress-selector-config.yaml"
	overrideRel  = "opt/openshift/konnectivity-config-override.yaml"
)

// bundlePaths are all of them.
var bundlePaths = []string{podRel, namespaceRel, daemonSetRel, secretRel, egressRel, overrideRel}

const certDirRel = "opt/openshift/tls/konnectivity"

// testOwner is the owner id of roots rendered with baseOpts, so the golden
// files can pin the marker.
const testOwner = "0123456789abcdef0123456789abcdef"

func baseOpts(root string) Options {
	return Options{Overlay: "ipv4", Root: root, BootstrapIP: netip.MustParseAddr(testIP), Image: testImage, Getenv: noEnv, ownerID: testOwner}
}

func noEnv(string) string { return "" }

func mustRun(t *testing.T, opts Options) *Report {
	t.Helper()
	rep, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	return rep
}

func readFile(t *testing.T, root, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// expectInputError asserts err is an InputError for field whose message
// contains every fragment.
func expectInputError(t *testing.T, err error, field string, fragments ...string) {
	t.Helper()
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("want an InputError for %s, got %T: %v", field, err, err)
	}
	if !strings.HasPrefix(ie.Field, field) {
		t.Errorf("error names field %q, want %q: %v", ie.Field, field, err)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("error %q does not mention %q", err, f)
		}
	}
}

// autoIP is --bootstrap-ip auto in the tests' tables.
const autoIP = "auto"

// setIP sets --bootstrap-ip as the CLI hands it over: "" not given, autoIP,
// or an address.
func setIP(o *Options, s string) {
	o.BootstrapIP, o.AutoBootstrapIP = netip.Addr{}, false
	switch s {
	case "":
	case autoIP:
		o.AutoBootstrapIP = true
	default:
		o.BootstrapIP = netip.MustParseAddr(s)
	}
}
