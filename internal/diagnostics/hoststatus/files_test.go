package hoststatus_test

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/diagnostics/hoststatus"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/render"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// noNetwork keeps these cases hermetic: nothing on this machine's ports counts.
func noNetwork(context.Context, string, string) (net.Conn, error) {
	return nil, errors.New("no network in this test")
}

// TestStatusRenderedFiles: what render wrote is compared with the state file.
func TestStatusRenderedFiles(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mangle func(t *testing.T, root string)
		sev    framework.Severity
		detail string
	}{
		{"as written", func(*testing.T, string) {}, framework.Info, " files as render wrote them"},
		{"edited by hand", func(t *testing.T, root string) {
			p := filepath.Join(root, "opt/openshift/manifests/konnectivity-agent-daemonset.yaml")
			appendTo(t, p, "# edited\n")
		}, framework.Warning, "changed since render: /opt/openshift/manifests/konnectivity-agent-daemonset.yaml"},
		{"manifest deleted", func(t *testing.T, root string) {
			if err := os.Remove(filepath.Join(root, "opt/openshift/manifests/konnectivity-00-namespace.yaml")); err != nil {
				t.Fatal(err)
			}
		}, framework.Error, "missing: /opt/openshift/manifests/konnectivity-00-namespace.yaml"},
		{"static pod deleted", func(t *testing.T, root string) {
			if err := os.Remove(filepath.Join(root, "etc/kubernetes/manifests/konnectivity-server-pod.yaml")); err != nil {
				t.Fatal(err)
			}
		}, framework.Error, "konnectivity-server-pod.yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			if _, err := render.Run(context.Background(), render.Options{Root: root, BootstrapIP: netip.MustParseAddr("192.0.2.10"), Image: "registry.test.invalid/anp:4.23"}); err != nil {
				t.Fatal(err)
			}
			tc.mangle(t, root)
			rep := hoststatus.Run(context.Background(), hoststatus.Options{Root: root, Dial: noNetwork})
			c := rep.Checks[0]
			if result.Rule(c) != "rendered files" || c.Severity != tc.sev || !strings.Contains(c.Message, tc.detail) {
				t.Errorf("first check %+v, want rendered files %s containing %q", c, tc.sev, tc.detail)
			}
			if rep.Usable {
				t.Error("usable with no server reachable")
			}
		})
	}
}

func appendTo(t *testing.T, p, s string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}
