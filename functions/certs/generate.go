package certs

import (
	"crypto"
	"crypto/x509"
	"fmt"
	"time"

	"github.com/cloudflare/cfssl/config"
	"github.com/cloudflare/cfssl/csr"
	"github.com/cloudflare/cfssl/helpers"
	"github.com/cloudflare/cfssl/initca"
	"github.com/cloudflare/cfssl/log"
	"github.com/cloudflare/cfssl/signer"
	"github.com/cloudflare/cfssl/signer/local"
)

func init() {
	// cfssl logs INFO lines to stderr for every key and signature; a
	// bootstrap script must print nothing on success. Failures still reach
	// the caller as returned errors, so nothing below critical is lost.
	log.Level = log.LevelCritical
}

// pair is one PEM certificate and its PEM private key.
type pair struct{ cert, key []byte }

// leafKind is what a leaf certificate is for.
type leafKind struct {
	name    string // signing profile name, also used in messages
	cn      string
	usage   []string         // cfssl usages: key usage plus exactly one EKU
	eku     x509.ExtKeyUsage // the one EKU, for checks
	certFn  string
	keyFn   string
	withIPs bool
}

// digitalSignature alone is the key usage both sides need with ECDHE key
// exchange (all Go TLS 1.2+ suites the ANP binaries offer); openssl's
// sslserver/sslclient purposes accept it.
var (
	serverLeaf = leafKind{name: "server", cn: ServerCommonName, usage: []string{"digital signature", "server auth"},
		eku: x509.ExtKeyUsageServerAuth, certFn: ServerCert, keyFn: ServerKey, withIPs: true}
	agentLeaf = leafKind{name: "agent", cn: AgentCommonName, usage: []string{"digital signature", "client auth"},
		eku: x509.ExtKeyUsageClientAuth, certFn: AgentCert, keyFn: AgentKey}
)

// window is the validity period of a new certificate. notBefore is set
// explicitly (cfssl would otherwise round time.Now and ignore Options.Now).
func window(s settings, limit time.Time) (notBefore, notAfter time.Time) {
	now := s.now.Truncate(time.Second)
	notBefore, notAfter = now.Add(-Backdate), now.Add(s.validity)
	if !limit.IsZero() && notAfter.After(limit) {
		notAfter = limit // no leaf outlives its CA; cfssl does not check this
	}
	return notBefore, notAfter
}

// newKeyAndCSR makes a private key and a CSR for it with the bundle subject.
func newKeyAndCSR(s settings, cn string, ca *csr.CAConfig) (csrPEM, keyPEM []byte, err error) {
	req := &csr.CertificateRequest{
		CN:         cn,
		Names:      []csr.Name{{O: Organization}},
		KeyRequest: s.key.request(),
		CA:         ca,
	}
	csrPEM, keyPEM, err = csr.ParseRequest(req)
	if err != nil {
		return nil, nil, fmt.Errorf("generate %s key (%v): %w", cn, s.key, err)
	}
	return csrPEM, keyPEM, nil
}

// newCA makes the self-signed CA. It does what initca.New does, with
// initca's CA policy, but passes explicit notBefore/notAfter, which
// initca.New cannot take.
func newCA(s settings) (pair, error) {
	csrPEM, keyPEM, err := newKeyAndCSR(s, CACommonName, &csr.CAConfig{PathLength: 0, PathLenZero: true})
	if err != nil {
		return pair{}, err
	}
	priv, err := helpers.ParsePrivateKeyPEM(keyPEM)
	if err != nil {
		return pair{}, fmt.Errorf("parse new CA key: %w", err)
	}
	policy := initca.CAPolicy()
	policy.Default.Expiry = s.validity
	policy.Default.Backdate = Backdate
	policy.Default.CAConstraint = config.CAConstraint{IsCA: true, MaxPathLen: 0, MaxPathLenZero: true}
	sg, err := local.NewSigner(priv, nil, signer.DefaultSigAlgo(priv), policy)
	if err != nil {
		return pair{}, fmt.Errorf("CA signer: %w", err)
	}
	nb, na := window(s, time.Time{})
	certPEM, err := sg.Sign(signer.SignRequest{Request: string(csrPEM), NotBefore: nb, NotAfter: na})
	if err != nil {
		return pair{}, fmt.Errorf("self-sign CA: %w", err)
	}
	return pair{cert: certPEM, key: keyPEM}, nil
}

// leafPolicy has one profile per leaf kind. Expiry must be a
// time.Duration: cfssl rejects a profile with only ExpiryString.
func leafPolicy(s settings) *config.Signing {
	profile := func(k leafKind) *config.SigningProfile {
		return &config.SigningProfile{Usage: k.usage, Expiry: s.validity, Backdate: Backdate}
	}
	return &config.Signing{
		Profiles: map[string]*config.SigningProfile{
			serverLeaf.name: profile(serverLeaf),
			agentLeaf.name:  profile(agentLeaf),
		},
		// cfssl silently falls back to Default for an unknown profile name;
		// a default with no extended usage makes such a slip fail the
		// checks that run on every generated certificate.
		Default: &config.SigningProfile{Usage: []string{"digital signature"}, Expiry: s.validity, Backdate: Backdate},
	}
}

// newLeaf makes a key and a certificate of kind k signed by the CA.
func newLeaf(s settings, k leafKind, caCert *x509.Certificate, caKey crypto.Signer) (pair, error) {
	csrPEM, keyPEM, err := newKeyAndCSR(s, k.cn, nil)
	if err != nil {
		return pair{}, err
	}
	sg, err := local.NewSigner(caKey, caCert, signer.DefaultSigAlgo(caKey), leafPolicy(s))
	if err != nil {
		return pair{}, fmt.Errorf("%s signer: %w", k.name, err)
	}
	hosts := []string{} // non-nil: replaces any CSR SANs with none
	if k.withIPs {
		hosts = []string{s.ip.String()}
	}
	nb, na := window(s, caCert.NotAfter)
	certPEM, err := sg.Sign(signer.SignRequest{
		Request: string(csrPEM), Hosts: hosts, Profile: k.name, NotBefore: nb, NotAfter: na,
	})
	if err != nil {
		return pair{}, fmt.Errorf("sign %s certificate: %w", k.name, err)
	}
	return pair{cert: certPEM, key: keyPEM}, nil
}
