package render

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

const apiserverManifest = "apiVersion: config.openshift.io/v1\nkind: APIServer\nmetadata: {name: cluster}\nspec:\n  tlsSecurityProfile: "

// TestRenderFollowsTheClusterProfile: the install's APIServer manifest on
// the host decides the agent listener's suites; without one the listener
// gets Intermediate's.
func TestRenderFollowsTheClusterProfile(t *testing.T) {
	for _, tc := range []struct {
		name, manifest, suites string
		opts                   func(*Options)
	}{
		{"no manifest: Intermediate", "", "--cipher-suites=TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,", nil},
		{"a Custom profile in openshift/", "{type: Custom, custom: {minTLSVersion: VersionTLS12, ciphers: [ECDHE-ECDSA-AES256-GCM-SHA384]}}\n",
			"--cipher-suites=TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384\n", nil},
		{"the config agrees, the manifest spelling out modern: {}", "{type: Modern, modern: {}}\n", "--tls-min-version=VersionTLS13\n",
			func(o *Options) {
				o.Overlay = tooltest.WriteOverlay(t, tooltest.Overlay{Spec: "tlsSecurityProfile: {type: Modern}\n"})
				o.ProxyVersion = proxyversion.V036
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if tc.manifest != "" {
				tooltest.WriteTree(t, root, map[string]string{"opt/openshift/openshift/99-apiserver.yaml": apiserverManifest + tc.manifest})
			}
			opts := baseOpts(root)
			if tc.opts != nil {
				tc.opts(&opts)
			}
			mustRun(t, opts)
			if pod := readFile(t, root, podRel); !strings.Contains(pod, tc.suites) {
				t.Errorf("the server pod does not render %q:\n%s", tc.suites, pod)
			}
		})
	}
}

// TestRenderRefusesAClusterProfileItCannotFollow: a bad manifest, or one
// the overlay's config disagrees with, is an InputError naming it, and
// nothing is written.
func TestRenderRefusesAClusterProfileItCannotFollow(t *testing.T) {
	for _, tc := range []struct {
		name, manifest, field, says string
		opts                        func(*Options)
	}{
		{"unknown type", "{type: Strict}\n", "/opt/openshift/manifests/apiserver.yaml: spec.tlsSecurityProfile.type", `unknown profile type "Strict"`, nil},
		{"the config says otherwise", "{type: Modern}\n", "spec.tlsSecurityProfile", "the config's profile (Old) disagrees with the cluster's, Modern in /opt/openshift/manifests/apiserver.yaml",
			func(o *Options) {
				o.Overlay = tooltest.WriteOverlay(t, tooltest.Overlay{Spec: "tlsSecurityProfile: {type: Old}\n"})
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			tooltest.WriteTree(t, root, map[string]string{"opt/openshift/manifests/apiserver.yaml": apiserverManifest + tc.manifest})
			opts := baseOpts(root)
			if tc.opts != nil {
				tc.opts(&opts)
			}
			_, err := Run(context.Background(), opts)
			if err == nil || !strings.Contains(err.Error(), tc.field) || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("render = %v, want an error naming %s saying %q", err, tc.field, tc.says)
			}
			if _, err := os.Stat(filepath.Join(root, podRel)); !os.IsNotExist(err) {
				t.Errorf("the server pod was written (%v)", err)
			}
		})
	}
}
