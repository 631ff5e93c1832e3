package hoststatus

import (
	"fmt"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/egressconfig"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// egress: the egress file's cluster selection reaches the server's socket
// through the kube-apiserver's mount (the classic path confusion).
func (s *session) egress() {
	r := s.root
	if r.EgressFile == "" {
		s.rep.add(newCheck(CheckEgress, framework.Error, "render wrote no EgressSelectorConfiguration",
			"without it the bootstrap kube-apiserver never uses the tunnel; re-render from an unmodified overlay"))
		return
	}
	uds := clusterUDS(r.Bundle.Egress)
	if uds == "" {
		s.rep.add(newCheck(CheckEgress, framework.Error, r.EgressFile+" has no cluster selection through a unix socket",
			"the cluster selection must use transport.uds.udsName; run konnectivity-bundle check on the bundle"))
		return
	}
	kasHost, ok := r.KASHostPath(uds)
	serverSock, _ := r.Bundle.Server.Flags.Lookup("uds-name")
	serverHost, ok2 := r.ServerHostPath(serverSock)
	switch {
	case !ok:
		s.rep.add(newCheck(CheckEgress, framework.Error,
			fmt.Sprintf("udsName %s is outside the kube-apiserver's config mount %s", uds, r.KASMount.Container),
			"name the socket as the kube-apiserver container sees it, under "+r.KASMount.Container))
	case !ok2 || kasHost != serverHost:
		s.rep.add(newCheck(CheckEgress, framework.Error,
			fmt.Sprintf("the kube-apiserver dials %s (host %s) but the server listens on %s", uds, kasHost, serverHost),
			"the egress file and the server must name the same host file through their mounts; re-render"))
	default:
		s.rep.add(newCheck(CheckEgress, framework.Info,
			fmt.Sprintf("cluster traffic goes to %s, the server's socket", uds), ""))
	}
}

// clusterUDS is the cluster selection's udsName, or "". It reads the file
// leniently: check and the kube-apiserver report what else is wrong with it.
func clusterUDS(egress *bundlemodel.Object) string {
	if egress == nil {
		return ""
	}
	data, err := egress.Node.MarshalJSON()
	if err != nil {
		return ""
	}
	cfg, err := egressconfig.DecodeLenient(data)
	if err != nil {
		return ""
	}
	return cfg.ClusterUDS()
}
