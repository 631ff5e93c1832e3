package hoststatus

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// expiringSoon is when a certificate earns a warning: bootstrap can take
// longer than planned, and the certificates last a day.
const expiringSoon = 2 * time.Hour

// certificates: the server's certificate and CA as the server pod mounts
// them: not expired, chained, and naming the IP agents dial.
func (s *session) certificates() {
	srv := s.root.Bundle.Server
	ca := s.loadCert("--cluster-ca-cert", srv)
	cert := s.loadCert("--cluster-cert", srv)
	if ca == nil || cert == nil {
		return
	}
	now := s.opts.Now()
	var problems framework.Results
	for _, c := range []struct {
		name string
		c    *x509.Certificate
	}{{"CA " + ca.Subject.CommonName, ca}, {"server certificate " + cert.Subject.CommonName, cert}} {
		switch left := c.c.NotAfter.Sub(now); {
		case now.Before(c.c.NotBefore):
			problems = append(problems, newCheck(CheckCertificates, framework.Error, fmt.Sprintf("%s is not valid before %s (clock skew?)", c.name, c.c.NotBefore.UTC().Format(time.RFC3339)),
				"fix the bootstrap host's clock (chronyc tracking)"))
		case left <= 0:
			problems = append(problems, newCheck(CheckCertificates, framework.Error, fmt.Sprintf("%s expired at %s", c.name, c.c.NotAfter.UTC().Format(time.RFC3339)),
				"run konnectivity-bundle render again: it regenerates expired certificates and the agent Secret"))
		case left < expiringSoon:
			problems = append(problems, newCheck(CheckCertificates, framework.Warning, fmt.Sprintf("%s expires in %s", c.name, left.Round(time.Minute)),
				"finish bootstrap soon, or re-render to renew"))
		}
	}
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	if _, err := cert.Verify(x509.VerifyOptions{Roots: pool, CurrentTime: cert.NotBefore.Add(time.Second), KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}); err != nil {
		problems = append(problems, newCheck(CheckCertificates, framework.Error, "server certificate is not signed by the CA the agents trust: "+err.Error(),
			"the agents get ca.crt from the Secret; re-render so the certificates and the Secret agree"))
	}
	if ip, want := s.rep.BootstrapIP, s.rep.Tunnel().Addr; ip != "" && !slices.ContainsFunc(cert.IPAddresses, func(a net.IP) bool { return sameAddr(a, want) }) {
		problems = append(problems, newCheck(CheckCertificates, framework.Error, fmt.Sprintf("server certificate SANs %v do not include %s, the address agents dial", cert.IPAddresses, ip),
			"agents refuse the handshake (x509: certificate is valid for ..., not ...); re-render with the right --bootstrap-ip"))
	}
	if len(problems) == 0 {
		s.rep.add(newCheck(CheckCertificates, framework.Info, fmt.Sprintf("server certificate for %v valid until %s (%s left)",
			cert.IPAddresses, cert.NotAfter.UTC().Format(time.RFC3339), cert.NotAfter.Sub(now).Round(time.Minute)), ""))
	}
	s.rep.Checks = append(s.rep.Checks, problems...)
}

func (s *session) loadCert(flag string, srv *bundlemodel.Workload) *x509.Certificate {
	p, ok := srv.Flags.Lookup(flag[2:])
	if !ok {
		s.rep.add(newCheck(CheckCertificates, framework.Error, "the server pod has no "+flag, ""))
		return nil
	}
	host, ok := s.root.ServerHostPath(p)
	if !ok {
		s.rep.add(newCheck(CheckCertificates, framework.Error, fmt.Sprintf("%s=%s is not on a hostPath mount of the server pod", flag, p), ""))
		return nil
	}
	data, err := s.root.ReadFile(host)
	if err != nil {
		s.rep.add(newCheck(CheckCertificates, framework.Error, err.Error(),
			"run konnectivity-bundle render again: it writes the certificate directory"))
		return nil
	}
	blk, _ := pem.Decode(data)
	if blk == nil || blk.Type != "CERTIFICATE" {
		s.rep.add(newCheck(CheckCertificates, framework.Error, host+" holds no PEM certificate",
			"re-render with --force to regenerate damaged certificates"))
		return nil
	}
	c, err := x509.ParseCertificate(blk.Bytes)
	if err != nil {
		s.rep.add(newCheck(CheckCertificates, framework.Error, fmt.Sprintf("%s: %v", host, err), ""))
		return nil
	}
	return c
}

// sameAddr reports whether a certificate's IP SAN is addr (the zero Addr,
// a host that is no address, matches none).
func sameAddr(san net.IP, addr netip.Addr) bool {
	a, ok := netip.AddrFromSlice(san)
	return ok && addr.IsValid() && a.Unmap() == addr
}
