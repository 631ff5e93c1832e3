package check

import (
	"net/netip"
	"os"
	"path/filepath"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
)

// TestWithRealCertificates: the certificates library's own output
// appended to a built overlay checks clean, and its server certificate for
// another bootstrap IP is caught; IPv4 and IPv6 alike.
func TestWithRealCertificates(t *testing.T) {
	for _, tt := range []struct{ overlay, ip, otherIP string }{
		{"ipv4", "192.0.2.10", "192.0.2.99"},
		{"ipv6", "2001:db8::10", "2001:db8::99"},
	} {
		t.Run(tt.overlay, func(t *testing.T) {
			built, err := os.ReadFile(filepath.Join(goldenDir, tt.overlay+".yaml"))
			if err != nil {
				t.Fatal(err)
			}
			res := planCerts(t, tt.ip)
			node, err := certs.AgentSecretNode(res, hostlayout.AgentNamespace, "/opt/openshift/manifests/konnectivity-agent-certs-secret.yaml")
			if err != nil {
				t.Fatal(err)
			}
			secret, err := node.String()
			if err != nil {
				t.Fatal(err)
			}
			stream := append(append(built, []byte("---\n")...), secret...)
			if fs, err := Check(stream, Options{CertFiles: res.Files}); err != nil || len(withoutVersionNotes(fs)) != 0 {
				t.Fatalf("real certificates: err %v, findings\n%s", err, dump(fs))
			}
			other := planCerts(t, tt.otherIP)
			files := map[string][]byte{}
			for k, v := range res.Files {
				files[k] = v
			}
			files[hostlayout.ServerCertFile] = other.Files[hostlayout.ServerCertFile]
			fs, err := Check(stream, Options{CertFiles: files})
			if err != nil {
				t.Fatal(err)
			}
			rules := map[string]bool{}
			for _, f := range withoutVersionNotes(fs) {
				rules[result.Rule(f)] = true
			}
			if !rules["server-cert-san-missing"] || !rules["server-cert-wrong-ca"] || len(rules) != 2 {
				t.Errorf("server certificate of another run: want server-cert-san-missing and server-cert-wrong-ca, got\n%s", dump(fs))
			}
		})
	}
}

func planCerts(t *testing.T, ip string) *certs.Result {
	t.Helper()
	res, err := certs.Plan(certs.Options{Dir: filepath.Join(t.TempDir(), "certs"), BootstrapIP: netip.MustParseAddr(ip)})
	if err != nil {
		t.Fatalf("certs.Plan(%s): %v", ip, err)
	}
	return res
}
