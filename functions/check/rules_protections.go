package check

import (
	"slices"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// checkProtections holds the server to the protections ANP added after
// production incidents (functions/check/README.md): a bounded backend dial
// timeout (v0.36), no TLS below 1.2 on the agent listener (a flag since
// v0.35, fixed at 1.2 before), and a transfer channel the binary accepts (a
// flag since v0.31, a constant before). On a version without the dial
// bound it says what that means instead.
func checkProtections(w *bundlemodel.Workload, r *report) {
	f, ref, args := w.Flags, w.Object.Ref(), w.Field+".args"
	if v := f.Binary.Version; !v.Has("backend-dial-timeout") {
		// wait's evidence for a frozen agent is a dial still pending on the
		// server; in grpc mode the kube-apiserver's own cancel removes it
		// (docs/proxy-versions.md), so only http-connect keeps the promise.
		named := "wait names such an agent from the change of the server's pending dials"
		if f.ValueOr("mode") == proxyversion.ModeGRPC {
			named = "in grpc mode the call's own cancel ends the dial, and wait names no agent"
		}
		r.infof("backend-dial-timeout-unavailable", ref, args,
			"nothing to set on this version; OpenShift 4.23 and later ship v0.36, which has the bound",
			"proxy-server %s has no --backend-dial-timeout: a dial to a frozen or partitioned agent waits until the kube-apiserver gives up on the call (the webhook's timeoutSeconds, 10s by default) instead of failing after 6s; %s", v.Describe(), named)
	}
	if d, ok := f.Duration("backend-dial-timeout"); ok {
		switch {
		case d < 0:
			r.errorf("backend-dial-timeout-unbounded", ref, f.FieldOr("backend-dial-timeout", args),
				"set --backend-dial-timeout=6s",
				"--backend-dial-timeout=%s is negative (proxy-server: backend-dial-timeout must be >= 0)", d)
		case d == 0:
			r.warnf("backend-dial-timeout-unbounded", ref, f.FieldOr("backend-dial-timeout", args),
				"set --backend-dial-timeout=6s: above the agent's own 5s dial timeout, below the kube-apiserver's 10s default webhook timeout",
				"--backend-dial-timeout is 0 (unbounded): dials to a stuck agent pile up until each webhook call's own timeout")
		case d >= proxyversion.MaxWebhookTimeout:
			r.warnf("backend-dial-timeout-unbounded", ref, f.FieldOr("backend-dial-timeout", args),
				"set --backend-dial-timeout=6s",
				"--backend-dial-timeout=%s is not below the longest webhook timeout %s, so it never fires before the caller gives up", d, proxyversion.MaxWebhookTimeout)
		}
	}
	tlsFlag, hasTLS := f.Binary.Flags["tls-min-version"]
	switch v := f.ValueOr("tls-min-version"); {
	case !hasTLS:
	case !tlsFlag.Allows(v):
		r.errorf("flag-value-invalid", ref, f.FieldOr("tls-min-version", args),
			"set --tls-min-version=VersionTLS12 or VersionTLS13",
			"--tls-min-version=%q is not a TLS version proxy-server knows; it refuses to start", v)
	case v != "" && !slices.Contains(proxyversion.SecureTLSVersions, v):
		r.warnf("tls-min-version-insecure", ref, f.FieldOr("tls-min-version", args),
			"set --tls-min-version=VersionTLS12 (or VersionTLS13); agents never need less",
			"--tls-min-version=%s lets the agent listener speak TLS versions RFC 8996 deprecates", v)
	}
	if n, ok := f.Int("xfr-channel-size"); ok && n <= 0 {
		r.errorf("xfr-channel-size-invalid", ref, f.FieldOr("xfr-channel-size", args),
			"omit --xfr-channel-size (default 10) or give 1 or more",
			"--xfr-channel-size=%d (proxy-server: channel size %d must be greater than 0)", n, n)
	}
}
