// Package egressprobe dials a target through the bootstrap host's
// Konnectivity socket exactly as the kube-apiserver does: the rendered
// EgressSelectorConfiguration, loaded and validated by the kube-apiserver's
// rules (internal/bundle/egressconfig), and its cluster selection's dialer built as
// k8s.io/apiserver's egressselector builds it (dialer.go).
package egressprobe

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/egressconfig"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// Options say what to dial and through which rendered root.
type Options struct {
	Root    string        // host root render wrote under
	Target  string        // host:port, or an https:// (or http://) URL
	Timeout time.Duration // whole probe; 0 = 10s
	// Version is the proxy the root was rendered for; nil reads it from
	// the rendered bundle. It decides what an HTTP CONNECT's 200 proves.
	Version *proxyversion.Version
}

// Stages a probe can fail at.
const (
	StageConfig = "config" // reading the rendered egress file
	StageDial   = "dial"   // the socket or the proxy (what the KAS reports for a webhook)
	StageTLS    = "tls"    // the target's TLS handshake
	StageHTTP   = "http"   // the target's HTTP response
)

// Result is what happened.
type Result struct {
	Target     string        `json:"target"`
	Address    string        `json:"address"`
	EgressFile string        `json:"egressFile,omitempty"`
	Socket     string        `json:"socket,omitempty"` // host path the dialer used
	Protocol   string        `json:"protocol,omitempty"`
	OK         bool          `json:"ok"`
	Stage      string        `json:"stage,omitempty"` // where it failed
	Error      string        `json:"error,omitempty"` // as the kube-apiserver would log it
	ProxyBody  string        `json:"proxyBody,omitempty"`
	HTTPStatus int           `json:"httpStatus,omitempty"`
	TLSPeer    string        `json:"tlsPeer,omitempty"`
	Took       time.Duration `json:"took"` // in nanoseconds in JSON
}

// Probe dials the target through the cluster egress selection. The error
// is only for bad options; a failed dial is a Result with OK false. Every
// file and the socket under the root are reached through internal/rootdir/hostfs
// (no link followed, a FIFO or device refused), and opts.Timeout bounds
// the whole probe.
func Probe(ctx context.Context, opts Options) (*Result, error) {
	if opts.Timeout == 0 {
		opts.Timeout = 10 * time.Second
	}
	t, err := parseTarget(opts.Target)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	res := &Result{Target: opts.Target, Address: t.addr}
	v, err := readKAS(opts.Root)
	if err != nil {
		res.Stage, res.Error = StageConfig, err.Error()
		return res, nil
	}
	defer v.close()
	dial, err := clusterDialer(v, res)
	if err != nil {
		res.Stage, res.Error = StageConfig, err.Error()
		return res, nil
	}
	start := time.Now()
	var conn net.Conn
	err = preflight(ctx, v.host(), res.Socket)
	if err == nil {
		conn, err = boundedDial(ctx, dial, t.addr)
	}
	if err != nil {
		res.Took = time.Since(start)
		res.Stage, res.Error = StageDial, err.Error()
		res.ProxyBody = proxyBody(ctx, v.host(), res, t.addr)
		return res, nil
	}
	defer conn.Close()
	switch {
	case t.scheme != "":
		talkHTTP(ctx, conn, t, res)
	case res.Protocol == "HTTPConnect" && versionOf(opts).ConnectBeforeDial:
		confirm(ctx, conn, res)
	default:
		res.OK = true
	}
	res.Took = time.Since(start)
	return res, nil
}

// CheckTarget says what is wrong with a TARGET, or nil: what Probe refuses
// before it dials.
func CheckTarget(s string) error {
	_, err := parseTarget(s)
	return err
}

// target is a parsed TARGET.
type target struct {
	scheme, host, addr, path string
}

func parseTarget(s string) (target, error) {
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return target{}, fmt.Errorf("target %q: give host:port or an http(s) URL such as https://198.51.100.2:443/healthz", s)
		}
		port := u.Port()
		if port == "" {
			port = map[string]string{"https": "443", "http": "80"}[u.Scheme]
		}
		p := u.RequestURI()
		return target{scheme: u.Scheme, host: u.Hostname(), addr: net.JoinHostPort(u.Hostname(), port), path: p}, nil
	}
	host, port, err := net.SplitHostPort(s)
	if err != nil || host == "" || port == "" {
		return target{}, fmt.Errorf("target %q: give host:port (IPv6 in brackets: [2001:db8::1]:443) or an https URL", s)
	}
	return target{host: host, addr: s}, nil
}

// clusterDialer builds the kube-apiserver's cluster dialer from the rendered
// egress file, with each socket name moved from the KAS container's view to
// the host file under the root.
func clusterDialer(r *kasView, res *Result) (dialFunc, error) {
	if r.EgressFile == "" {
		return nil, fmt.Errorf("render wrote no EgressSelectorConfiguration under %s: the kube-apiserver would dial directly", r.h.Dir())
	}
	res.EgressFile = r.EgressFile
	cfg, err := egressconfig.Decode(r.Egress)
	if err != nil {
		return nil, fmt.Errorf("the kube-apiserver would refuse %s: %w", r.EgressFile, err)
	}
	if errs := egressconfig.ValidateOn(cfg, r.exists); len(errs) > 0 {
		return nil, fmt.Errorf("the kube-apiserver would refuse %s: %w", r.EgressFile, errs.ToAggregate())
	}
	if err := mapPaths(cfg, r, res); err != nil {
		return nil, err
	}
	dial, err := lookupCluster(cfg, r.host())
	if err != nil {
		return nil, fmt.Errorf("egress selector from %s: %w", r.EgressFile, err)
	}
	if dial == nil {
		return nil, fmt.Errorf("%s has no cluster selection: the kube-apiserver would dial directly, not through the tunnel", r.EgressFile)
	}
	return dial, nil
}

// lookupCluster builds every selection's dialer, as the kube-apiserver does
// at start-up (one bad selection fails them all), and returns the cluster
// selection's, nil without one.
func lookupCluster(cfg *egressconfig.Config, h host) (dialFunc, error) {
	var cluster dialFunc
	for _, sel := range cfg.EgressSelections {
		name := strings.ToLower(sel.Name)
		if name != egressconfig.Cluster && name != egressconfig.ControlPlane && name != egressconfig.Etcd {
			return nil, fmt.Errorf("unrecognized service name %s", sel.Name)
		}
		dial, err := selectionDialer(sel.Connection, h)
		if err != nil {
			return nil, fmt.Errorf("failed to create dialer for egressSelection %q: %v", name, err)
		}
		if name == egressconfig.Cluster {
			cluster = dial
		}
	}
	return cluster, nil
}

// mapPaths moves every socket and TLS file the selections name from the
// kube-apiserver container's view to the host file under the root.
func mapPaths(cfg *egressconfig.Config, r *kasView, res *Result) error {
	for i := range cfg.EgressSelections {
		sel := &cfg.EgressSelections[i]
		t := sel.Connection.Transport
		if t == nil {
			continue
		}
		if t.UDS != nil {
			if err := r.mapPath(sel.Name, "udsName", &t.UDS.UDSName); err != nil {
				return err
			}
		}
		if t.TCP != nil && t.TCP.TLSConfig != nil {
			tls := t.TCP.TLSConfig
			for _, f := range []struct {
				field string
				p     *string
			}{{"caBundle", &tls.CABundle}, {"clientCert", &tls.ClientCert}, {"clientKey", &tls.ClientKey}} {
				if err := r.mapPath(sel.Name, f.field, f.p); err != nil {
					return err
				}
			}
		}
	}
	if uds := cfg.ClusterUDS(); uds != "" {
		sel, _ := cfg.Cluster()
		res.Socket, res.Protocol = uds, string(sel.Connection.ProxyProtocol)
	}
	return nil
}

// mapPath replaces a non-empty container path with its host file.
func (v *kasView) mapPath(selection, field string, p *string) error {
	if *p == "" {
		return nil
	}
	host, ok := v.KASHostPath(*p)
	if !ok {
		return fmt.Errorf("selection %s: %s %s is outside the kube-apiserver's mount %s (host %s)", selection, field, *p, v.KASMount.Container, v.KASMount.Host)
	}
	*p = host
	return nil
}

// talkHTTP does what a webhook call does after the dial: TLS (the target's
// certificate is reported, not verified: the probe tests the path, and the
// kube-apiserver verifies it against the webhook's caBundle) and a GET.
func talkHTTP(ctx context.Context, conn net.Conn, t target, res *Result) {
	if deadline, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(deadline)
	}
	if t.scheme == "https" {
		tc := tls.Client(conn, &tls.Config{ServerName: t.host, InsecureSkipVerify: true}) //nolint:gosec // reported, not trusted
		if err := tc.HandshakeContext(ctx); err != nil {
			res.Stage, res.Error = StageTLS, err.Error()
			return
		}
		if certs := tc.ConnectionState().PeerCertificates; len(certs) > 0 {
			res.TLSPeer = certs[0].Subject.String()
		}
		conn = tc
	}
	code, err := get(conn, t)
	if err != nil {
		res.Stage, res.Error = StageHTTP, err.Error()
		return
	}
	res.HTTPStatus, res.OK = code, true
}

// preflight connects to the socket first. The kube-apiserver's GRPC
// connector ignores the context and retries a missing socket for 30s before
// it fails with this same error; the probe reports it at once, and a link
// or anything but a socket at the socket's path as what it is.
// A cluster selection over TCP has no socket to check.
func preflight(ctx context.Context, h host, socket string) error {
	if socket == "" {
		return nil
	}
	conn, err := h.dialUnix(ctx, socket)
	if err == nil {
		conn.Close()
	}
	return err
}

// boundedDial runs the kube-apiserver's dialer but gives up when ctx ends,
// since the GRPC connector does not watch ctx.
func boundedDial(ctx context.Context, dial dialFunc, addr string) (net.Conn, error) {
	type result struct {
		c   net.Conn
		err error
	}
	ch := make(chan result, 1)
	go func() {
		c, err := dial(ctx, "tcp", addr)
		ch <- result{c, err}
	}()
	select {
	case r := <-ch:
		return r.c, r.err
	case <-ctx.Done():
		go func() {
			if r := <-ch; r.c != nil {
				r.c.Close()
			}
		}()
		return nil, fmt.Errorf("%s (%w); the kube-apiserver would still be waiting", noAnswer, ctx.Err())
	}
}

// The probe's own words for a dial nothing answered before its deadline:
// neither the proxy nor, through it, an agent (boundedDial), or a CONNECT
// the proxy accepted at once and then nothing came back on (confirm).
const (
	noAnswer     = "no answer through the tunnel before the timeout"
	silentTunnel = "no byte came back from the target before the deadline"
)

// Unanswered reports whether a probe's error (and proxy body) says the
// probe's deadline ended it with no answer at all, rather than the proxy
// or an agent answering with an error: such a dial may still be under
// way in an agent, which the probe cannot see.
func Unanswered(text string) bool {
	return strings.Contains(text, noAnswer) || strings.Contains(text, silentTunnel)
}
