package egressprobe

import (
	"fmt"
	"io"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// WriteText writes the verdict, the path taken, and the time. What the
// proxy, the target and the cluster said is escaped (internal/report/textsafe).
func (r *Result) WriteText(w io.Writer) error {
	esc := textsafe.Escape
	via := "the cluster egress selection"
	if r.Socket != "" {
		via = fmt.Sprintf("%s over %s", r.Protocol, r.Socket)
	}
	took := r.Took.Round(10 * time.Microsecond)
	var err error
	switch {
	case r.OK && r.HTTPStatus != 0:
		_, err = fmt.Fprintf(w, "ok: %s answered HTTP %d through %s in %s\n", esc(r.Target), r.HTTPStatus, esc(via), took)
	case r.OK:
		_, err = fmt.Fprintf(w, "ok: connected to %s through %s in %s\n", esc(r.Address), esc(via), took)
	case r.Stage == StageConfig:
		_, err = fmt.Fprintf(w, "failed: %s\n", esc(r.Error))
	default:
		_, err = fmt.Fprintf(w, "failed (%s) after %s dialing %s through %s: %s\n", r.Stage, took, esc(r.Address), esc(via), esc(r.Error))
	}
	if err == nil && r.ProxyBody != "" {
		_, err = fmt.Fprintf(w, "proxy said: %s\n", esc(r.ProxyBody))
	}
	if err == nil && r.TLSPeer != "" {
		_, err = fmt.Fprintf(w, "target certificate: %s (not verified)\n", esc(r.TLSPeer))
	}
	return err
}
