package check

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"testing/cryptotest"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/goldenfile"
)

// fixtureIP is the bootstrap IP of testdata/bundle/good.yaml.
const fixtureIP = "192.0.2.10"

type keyPair struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
	kpem []byte
}

func newPair(t *testing.T, cn string, parent *keyPair, isCA bool, usage x509.ExtKeyUsage, ips ...string) *keyPair {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	tmpl := &x509.Certificate{
		SerialNumber: serial, Subject: pkix.Name{CommonName: cn, Organization: []string{"openshift"}},
		NotBefore: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), NotAfter: time.Date(2125, 1, 1, 0, 0, 0, 0, time.UTC),
		KeyUsage: x509.KeyUsageDigitalSignature, BasicConstraintsValid: true, IsCA: isCA,
	}
	if isCA {
		tmpl.KeyUsage |= x509.KeyUsageCertSign
	} else {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{usage}
	}
	for _, ip := range ips {
		tmpl.IPAddresses = append(tmpl.IPAddresses, net.ParseIP(ip))
	}
	signer, signKey := tmpl, key
	if parent != nil {
		signer, signKey = parent.cert, parent.key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, signer, &key.PublicKey, signKey)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	kder, _ := x509.MarshalECPrivateKey(key)
	return &keyPair{cert: cert, key: key,
		pem:  pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		kpem: pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})}
}

func certDirFiles(ca, server, agent *keyPair) map[string][]byte {
	return map[string][]byte{
		"ca.crt": ca.pem, "ca.key": ca.kpem, "server.crt": server.pem, "server.key": server.kpem,
		"agent.crt": agent.pem, "agent.key": agent.kpem,
	}
}

// TestFixtures regenerates testdata/certs/* and the good bundle's Secret in
// update mode (make golden, or -update); otherwise it checks they are present
// and consistent.
func TestFixtures(t *testing.T) {
	if goldenfile.Update(t) {
		writeFixtures(t)
	}
	files, err := ReadCertDir("testdata/certs/good")
	if err != nil {
		t.Fatal(err)
	}
	stream, err := os.ReadFile("testdata/bundle/good.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := base64.StdEncoding.EncodeToString(files["ca.crt"])
	if !regexp.MustCompile(`(?m)^  ca\.crt: ` + regexp.QuoteMeta(want) + `$`).Match(stream) {
		t.Fatalf("good.yaml's Secret ca.crt is not testdata/certs/good/ca.crt; run go test -run TestFixtures -update")
	}
}

// writeFixtures mints every fixture from a fixed random stream, in a fixed
// order, so an update rewrites the same bytes and `make golden` on a clean
// tree changes nothing; a new seed is the explicit way to re-mint them.
func writeFixtures(t *testing.T) {
	cryptotest.SetGlobalRandom(t, 1)
	ca := newPair(t, "konnectivity-signer", nil, true, 0)
	other := newPair(t, "some-other-signer", nil, true, 0)
	server := newPair(t, "konnectivity-server", ca, false, x509.ExtKeyUsageServerAuth, fixtureIP)
	agent := newPair(t, "konnectivity-agent", ca, false, x509.ExtKeyUsageClientAuth)
	wrongSAN := newPair(t, "konnectivity-server", ca, false, x509.ExtKeyUsageServerAuth, "198.51.100.7")
	otherCA := newPair(t, "konnectivity-server", other, false, x509.ExtKeyUsageServerAuth, fixtureIP)
	dirs := map[string]map[string][]byte{
		"good":             certDirFiles(ca, server, agent),
		"wrong-san":        certDirFiles(ca, wrongSAN, agent),
		"server-other-ca":  certDirFiles(ca, otherCA, agent),
		"cluster-ca-other": certDirFiles(other, server, agent),
		"garbage":          certDirFiles(ca, server, agent),
	}
	dirs["garbage"]["server.crt"] = []byte("this is not a certificate\n")
	for name, files := range dirs {
		dir := filepath.Join("testdata/certs", name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f, data := range files {
			if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	p := "testdata/bundle/good.yaml"
	stream, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for key, data := range map[string][]byte{"ca.crt": ca.pem, "tls.crt": agent.pem, "tls.key": agent.kpem} {
		re := regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(key) + `: .*$`)
		stream = re.ReplaceAll(stream, []byte("  "+key+": "+base64.StdEncoding.EncodeToString(data)))
	}
	if err := os.WriteFile(p, stream, 0o644); err != nil {
		t.Fatal(err)
	}
}
