package check

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"path"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
)

// certSource is one certificate and where it came from, for messages.
type certSource struct {
	data   []byte
	from   string // e.g. "Secret .../konnectivity-agent-certs key ca.crt"
	object string // the object findings about it name
	field  string
}

// checkCerts: when certificates are available, the agents trust the server
// certificate for --proxy-server-host and the server trusts the agent
// certificate (cert-unparsable, server-cert-san-missing, server-cert-wrong-ca,
// agent-cert-wrong-ca).
func checkCerts(b *bundlemodel.Bundle, opts Options, r *report) {
	if b.Server == nil || b.Agent == nil {
		return
	}
	serverCert := serverFile(b, "cluster-cert", opts)
	clusterCA := serverFile(b, "cluster-ca-cert", opts)
	agentCA := agentFile(b, "ca-cert", "ca.crt", opts)
	agentCert := agentFile(b, "agent-cert", "agent.crt", opts)

	srv := parseCert(serverCert, r)
	if srv != nil {
		checkSAN(b, srv, serverCert, r)
	}
	if ca := parseCert(agentCA, r); srv != nil && ca != nil {
		checkSigned(srv, ca, x509.ExtKeyUsageServerAuth, "server-cert-wrong-ca", serverCert, agentCA,
			"give agents (Secret ca.crt) the CA that signed the server certificate, or regenerate the certificates together", r)
	}
	agent := parseCert(agentCert, r)
	if ca := parseCert(clusterCA, r); agent != nil && ca != nil {
		checkSigned(agent, ca, x509.ExtKeyUsageClientAuth, "agent-cert-wrong-ca", agentCert, clusterCA,
			"sign the agent certificate with the CA in --cluster-ca-cert, or regenerate the certificates together", r)
	}
}

// serverFile finds a server flag's file in the certificate directory by the
// name of the host file it resolves to.
func serverFile(b *bundlemodel.Bundle, flag string, opts Options) *certSource {
	u, ok := b.Server.Flags.Get(flag)
	if !ok || u.Value == "" || opts.CertFiles == nil {
		return nil
	}
	name := path.Base(u.Value)
	if host, err := b.Server.HostPath(u.Value); err == nil {
		name = path.Base(host)
	}
	data, ok := opts.CertFiles[name]
	if !ok {
		return nil
	}
	return &certSource{data: data, from: "certificate directory file " + name + " (--" + flag + ")", object: b.Server.Object.Ref(), field: u.Field}
}

// agentFile finds an agent flag's file in the Secret it mounts, else in the
// certificate directory under dirName.
func agentFile(b *bundlemodel.Bundle, flag, dirName string, opts Options) *certSource {
	u, ok := b.Agent.Flags.Get(flag)
	if !ok || u.Value == "" {
		return nil
	}
	if m, ok := b.Agent.MountFor(u.Value); ok && m.Volume != nil && m.Volume.Secret != nil && b.Secret != nil && b.Secret.Name == m.Volume.Secret.SecretName {
		if key, ok := secretVolumeKey(m); ok {
			if data, ok := b.SecretKey(key); ok {
				return &certSource{data: data, from: fmt.Sprintf("Secret %s key %s (--%s)", b.Secret.Name, key, flag), object: b.Secret.Ref(), field: "data." + key}
			}
		}
	}
	if data, ok := opts.CertFiles[dirName]; ok {
		return &certSource{data: data, from: "certificate directory file " + dirName + " (--" + flag + ")", object: b.Agent.Object.Ref(), field: u.Field}
	}
	return nil
}

// parseCert decodes the first certificate of a PEM file; it reports and
// returns nil when there is none.
func parseCert(s *certSource, r *report) *x509.Certificate {
	if s == nil {
		return nil
	}
	c, err := firstCert(s.data)
	if err != nil {
		r.errorf("cert-unparsable", s.object, s.field, "put a PEM-encoded X.509 certificate there",
			"%s is not a usable certificate: %v", s.from, err)
		return nil
	}
	return c
}

func firstCert(data []byte) (*x509.Certificate, error) {
	for {
		var blk *pem.Block
		blk, data = pem.Decode(data)
		if blk == nil {
			return nil, errors.New("no PEM CERTIFICATE block")
		}
		if blk.Type == "CERTIFICATE" {
			return x509.ParseCertificate(blk.Bytes)
		}
	}
}

// checkSAN: agents verify the server certificate against --proxy-server-host.
func checkSAN(b *bundlemodel.Bundle, srv *x509.Certificate, s *certSource, r *report) {
	host := b.Tunnel.Host
	if host == "" {
		return // proxy-server-host-invalid reports it
	}
	if err := srv.VerifyHostname(host); err != nil {
		r.errorf("server-cert-san-missing", s.object, s.field,
			fmt.Sprintf("regenerate the server certificate with %s as a SAN (the bootstrap IP)", host),
			"agents dial %s but the server certificate (%s) is valid for IPs %v and DNS names %v, so the TLS handshake fails", host, s.from, srv.IPAddresses, srv.DNSNames)
	}
}

// checkSigned verifies leaf against ca for usage, at a moment inside both
// validities so expiry does not hide a wrong signer.
func checkSigned(leaf, ca *x509.Certificate, usage x509.ExtKeyUsage, rule string, leafSrc, caSrc *certSource, fix string, r *report) {
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	at := leaf.NotBefore
	if ca.NotBefore.After(at) {
		at = ca.NotBefore
	}
	_, err := leaf.Verify(x509.VerifyOptions{Roots: pool, CurrentTime: at, KeyUsages: []x509.ExtKeyUsage{usage}})
	if err == nil {
		return
	}
	r.errorf(rule, leafSrc.object, leafSrc.field, fix,
		"%s (subject %q) does not verify against %s (subject %q): %v", leafSrc.from, leaf.Subject.CommonName, caSrc.from, ca.Subject.CommonName, err)
}
