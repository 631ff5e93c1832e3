package check

import (
	"fmt"
	"path"

	bundlev1 "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/egressconfig"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// checkPaths: the KAS and the server must name the same host files through
// their different mounts (socket-path-mismatch, egress-file-path-mismatch,
// kas-config-mount-invalid).
func checkPaths(b *bundlemodel.Bundle, _ Options, r *report) {
	checkKASMounts(b, r)
	checkSocketPath(b, r)
	checkEgressFilePath(b, r)
}

func checkKASMounts(b *bundlemodel.Bundle, r *report) {
	for _, o := range []*bundlemodel.Object{b.Egress, b.Override} {
		if o == nil {
			continue
		}
		if _, err := kasMountOf(o); err != nil {
			r.errorf("kas-config-mount-invalid", o.Ref(), "metadata.annotations."+hostlayout.AnnotationKASConfigMount,
				"write it as HOSTDIR:CONTAINERDIR, e.g. "+hostlayout.InstallerKASMount.String(), "%v", err)
		}
	}
}

// checkSocketPath: the server's --uds-name and the egress udsName are one host file.
func checkSocketPath(b *bundlemodel.Bundle, r *report) {
	w, cfg := b.Server, loadEgress(b)
	if w == nil || cfg == nil {
		return
	}
	km, err := kasMountOf(b.Egress)
	sel, i := cfg.Cluster()
	if err != nil || sel == nil || sel.Connection.ProxyProtocol == egressconfig.ProtocolDirect {
		return // reported by kas-config-mount-invalid, egress-cluster-missing or egress-cluster-direct
	}
	ref := b.Egress.Ref()
	uds := w.Flags.Value("uds-name")
	t := sel.Connection.Transport
	field := fmt.Sprintf("egressSelections[%d].connection.transport", i)
	switch {
	case uds == "" && t != nil && t.UDS != nil:
		r.errorf("socket-path-mismatch", ref, field+".uds", "give the server --uds-name (and --server-port=0), or make the KAS dial the server over tcp",
			"the KAS dials a UDS but the server has no --uds-name and listens on TCP")
		return
	case uds == "" || t == nil:
		return
	case t.UDS == nil:
		r.errorf("socket-path-mismatch", ref, field, "use transport.uds.udsName with the server's socket",
			"the server listens on the UDS %s but the KAS cluster selection does not use a UDS transport", uds)
		return
	}
	serverHost, err := w.HostPath(uds)
	if err != nil {
		r.errorf("socket-path-mismatch", w.Object.Ref(), w.Flags.FieldOr("uds-name", w.Field+".args"),
			"mount the bootstrap-configs host directory (hostPath) at the directory of --uds-name",
			"the KAS cannot reach the socket: %v", err)
		return
	}
	kasHost, ok := km.hostPath(t.UDS.UDSName)
	switch {
	case !ok:
		r.errorf("socket-path-mismatch", ref, field+".uds.udsName", socketFix(km, serverHost),
			"udsName %s is outside the KAS container's mount of %s at %s, so the KAS cannot see the socket", t.UDS.UDSName, km.host, km.container)
	case kasHost != serverHost:
		r.errorf("socket-path-mismatch", ref, field+".uds.udsName", socketFix(km, serverHost),
			"the KAS dials host file %s (udsName %s through its mount %s:%s) but the server creates the socket at host file %s (--uds-name %s)",
			kasHost, t.UDS.UDSName, km.host, km.container, serverHost, uds)
	}
}

func socketFix(km kasMount, serverHost string) string {
	if rest, ok := bundlemodel.Within(serverHost, km.host); ok {
		return fmt.Sprintf("set udsName to %s/%s, the server's socket as the KAS container sees it", km.container, rest)
	}
	return fmt.Sprintf("put the server's socket in %s, the host directory the KAS mounts", km.host)
}

// checkEgressFilePath: the override points the KAS at the file the egress object is written to.
func checkEgressFilePath(b *bundlemodel.Bundle, r *report) {
	if b.Override == nil || b.Egress == nil {
		return
	}
	km, err := kasMountOf(b.Override)
	file, ferr := hostlayout.OverrideEgressFile(b.Override.Node)
	if err != nil || ferr != nil {
		return // reported by kas-config-mount-invalid or override-egress-flag-missing
	}
	want := b.Egress.HostPath()
	if want == "" {
		want = path.Join(hostlayout.InstallerConfigDir, bundlev1.DefaultEgressConfigName)
	}
	field := "apiServerArguments." + hostlayout.EgressFileArgument + "[0]"
	fix := fmt.Sprintf("put the egress file in %s and name it as %s/...", km.host, km.container)
	if rest, ok := bundlemodel.Within(want, km.host); ok {
		fix = fmt.Sprintf("set %s to %s/%s", hostlayout.EgressFileArgument, km.container, rest)
	}
	got, ok := km.hostPath(file)
	switch {
	case !ok:
		r.errorf("egress-file-path-mismatch", b.Override.Ref(), field, fix,
			"%s is outside the KAS container's mount of %s at %s; the KAS cannot read it", file, km.host, km.container)
	case got != want:
		r.errorf("egress-file-path-mismatch", b.Override.Ref(), field, fix,
			"the KAS reads host file %s (%s through its mount %s:%s) but the egress file is written to %s", got, file, km.host, km.container, want)
	}
}
