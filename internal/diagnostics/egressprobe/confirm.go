package egressprobe

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/renderedroot"
)

// StageConfirm is a dial the proxy accepted before its agent dialed (see
// proxyversion.Version.ConnectBeforeDial) and that the target never confirmed.
const StageConfirm = "confirm"

// versionOf is the probe's proxy version: the option, else the rendered
// bundle's target, else the newest (whose 200 follows the dial).
func versionOf(opts Options) *proxyversion.Version {
	if opts.Version != nil {
		return opts.Version
	}
	if root, err := renderedroot.Load(opts.Root); err == nil && root.Bundle.Tunnel.Version != nil {
		return root.Bundle.Tunnel.Version
	}
	return proxyversion.Newest
}

// confirm proves a dial that a proxy answered before its agent dialed, the
// way the kube-apiserver learns it: it starts a TLS handshake, as it does
// with every webhook and aggregated API, and waits for the first bytes.
// The target's answer, TLS or not, means the agent reached it. An HTTP
// response in the tunnel is the proxy's own: v0.28 writes `HTTP/0.0 503`
// (a Response with no protocol set) with the agent's dial error there, then
// closes. A tunnel closed with no byte is a
// request the proxy had no agent for; no byte before the deadline is a
// frozen agent or a silent target.
func confirm(ctx context.Context, conn net.Conn, res *Result) {
	if deadline, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(deadline)
	}
	_, _ = conn.Write(clientHello()) // a closed tunnel shows in the read
	buf := make([]byte, 4096)
	n, err := conn.Read(buf)
	var ne net.Error
	switch {
	case n > 0 && bytes.HasPrefix(buf[:n], []byte("HTTP/")):
		proxyAnswer(conn, buf[:n], res)
	case n > 0:
		res.OK = true
	case errors.As(err, &ne) && ne.Timeout():
		res.Stage, res.Error = StageConfirm, "timeout: the proxy accepted the CONNECT, but "+silentTunnel+" (an agent that took the dial and never answered, or a target that says nothing to a TLS hello)"
	default:
		res.Stage, res.Error = StageConfirm, "the tunnel closed before the target sent a byte: this proxy accepts a CONNECT before it has an agent and closes it when it finds none"
	}
}

// proxyAnswer reads the proxy's HTTP answer inside the tunnel (its status
// line and the agent's error as the body) into a dial failure, worded as
// the kube-apiserver's dialer words a CONNECT refused.
func proxyAnswer(conn net.Conn, first []byte, res *Result) {
	resp, err := http.ReadResponse(bufio.NewReader(io.MultiReader(bytes.NewReader(first), conn)), nil)
	if err != nil {
		res.Stage, res.Error = StageDial, fmt.Sprintf("proxy error while dialing %s: the proxy answered inside the tunnel", res.Address)
		res.ProxyBody = strings.TrimSpace(string(first))
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	res.Stage = StageDial
	res.Error = fmt.Sprintf("proxy error while dialing %s, code %d: the agent's dial failed after the proxy had accepted the CONNECT", res.Address, resp.StatusCode)
	res.ProxyBody = strings.TrimSpace(string(body))
}

// clientHello is the first record a TLS client sends, captured from
// crypto/tls over an in-memory pipe, so that only confirm reads the
// target's answer.
func clientHello() []byte {
	client, server := net.Pipe()
	defer client.Close()
	defer server.Close()
	go func() {
		_ = tls.Client(client, &tls.Config{InsecureSkipVerify: true, ServerName: "konnectivity-probe"}).Handshake() //nolint:gosec // never completes: only its first record is sent
	}()
	buf := make([]byte, 16<<10)
	n, _ := server.Read(buf)
	return buf[:n]
}
