package egressprobe

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/anp"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/renderedroot"
)

// StageConfirm is a dial the proxy accepted before its agent dialed (see
// anp.Version.ConnectBeforeDial) and that the target never confirmed.
const StageConfirm = "confirm"

// versionOf is the probe's proxy version: the option, else the rendered
// bundle's target, else the newest (whose 200 follows the dial).
func versionOf(opts Options) *anp.Version {
	if opts.Version != nil {
		return opts.Version
	}
	if root, err := renderedroot.Load(opts.Root); err == nil && root.Bundle.Target.Version != nil {
		return root.Bundle.Target.Version
	}
	return anp.Newest
}

// confirm proves a dial that a proxy answered before its agent dialed, the
// way the kube-apiserver learns it: it starts a TLS handshake, as it does
// with every webhook and aggregated API, and waits for the target's first
// bytes. Any answer, even one that is not TLS, means the agent reached the
// target; a tunnel closed with no byte is how that proxy reports a failed
// dial; no answer before the deadline is a frozen agent or a silent target.
func confirm(ctx context.Context, conn net.Conn, res *Result) {
	if deadline, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(deadline)
	}
	_, err := conn.Write(clientHello())
	if err == nil {
		_, err = conn.Read(make([]byte, 1))
	}
	var ne net.Error
	switch {
	case err == nil:
		res.OK = true
	case errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed):
		res.Stage, res.Error = StageConfirm, "the tunnel closed before the target sent a byte: this proxy accepts a CONNECT before its agent dials and closes it when the dial fails (or the target closed at once)"
	case errors.As(err, &ne) && ne.Timeout():
		res.Stage, res.Error = StageConfirm, "timeout: the proxy accepted the CONNECT, but no byte came back from the target before the deadline (an agent that took the dial and never answered, or a target that says nothing to a TLS hello)"
	default:
		res.Stage, res.Error = StageConfirm, err.Error()
	}
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
