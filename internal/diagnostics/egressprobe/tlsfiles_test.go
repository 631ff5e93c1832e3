package egressprobe

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/planttest"
)

// TestTLSFilesAreReadUnderTheRoot: a cluster selection over TCP names its
// TLS files as the kube-apiserver container sees them; the probe reads them
// under --root through the mount, never through a link and never from a
// FIFO (which would block), and the dial then fails only at the proxy.
func TestTLSFilesAreReadUnderTheRoot(t *testing.T) {
	const egressRel = "etc/kubernetes/bootstrap-configs/egress-selector-config.yaml"
	cases := []struct {
		plant planttest.Kind // "" leaves the real key
		want  string
	}{
		{"", "connection refused"},
		{planttest.LinkOutside, "TLS client key does not exist"},
		{planttest.FIFO, "TLS client key does not exist"},
		{planttest.DanglingLink, "TLS client key does not exist"},
	}
	for _, tc := range cases {
		name := "the real key"
		if tc.plant != "" {
			name = "key: " + string(tc.plant)
		}
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "etc/kubernetes/bootstrap-configs")
			certPEM, keyPEM := selfSigned(t)
			writeFile(t, filepath.Join(root, hostlayout.StatePath), `{"version":1,"files":[{"path":"`+egressRel+`","placement":"kas-egress-config"}]}`)
			writeFile(t, filepath.Join(dir, "c.crt"), string(certPEM))
			writeFile(t, filepath.Join(dir, "c.key"), string(keyPEM))
			writeFile(t, filepath.Join(root, egressRel), "apiVersion: apiserver.k8s.io/v1beta1\nkind: EgressSelectorConfiguration\negressSelections:\n"+
				"- name: cluster\n  connection:\n    proxyProtocol: HTTPConnect\n    transport:\n      tcp:\n        url: https://"+closedPort(t)+"\n"+
				"        tlsConfig:\n          clientCert: /etc/kubernetes/config/c.crt\n          clientKey: /etc/kubernetes/config/c.key\n")
			var out *planttest.Outside
			if tc.plant != "" {
				out = planttest.Plant(t, filepath.Join(dir, "c.key"), tc.plant)
			}
			var res *Result
			planttest.NoHang(t, "probe", time.Minute, func() {
				var err error
				res, err = Probe(context.Background(), Options{Root: root, Target: "192.0.2.1:443", Timeout: 5 * time.Second})
				if err != nil {
					t.Error(err)
				}
			})
			if res == nil || res.OK || !strings.Contains(res.Error, tc.want) {
				t.Errorf("result %+v, want a failure with %q", res, tc.want)
			}
			if out.Touched(t) {
				t.Errorf("%s was opened outside the root", out.Path)
			}
		})
	}
}

func selfSigned(t *testing.T) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
