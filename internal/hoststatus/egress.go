package hoststatus

import (
	"fmt"
)

// egress: the egress file's cluster selection reaches the server's socket
// through the kube-apiserver's mount (the classic path confusion).
func (s *session) egress() {
	r := s.root
	if r.EgressFile == "" {
		s.rep.add(newCheck("egress selector", Error, "render wrote no EgressSelectorConfiguration",
			"without it the bootstrap kube-apiserver never uses the tunnel; re-render from an unmodified overlay"))
		return
	}
	uds := clusterUDS(r.Bundle.Egress)
	if uds == "" {
		s.rep.add(newCheck("egress selector", Error, r.EgressFile+" has no cluster selection through a unix socket",
			"the cluster selection must use transport.uds.udsName; run konnectivity-bundle check on the bundle"))
		return
	}
	kasHost, ok := r.KASHostPath(uds)
	serverSock, _ := r.Bundle.Server.Flag("uds-name")
	serverHost, ok2 := r.ServerHostPath(serverSock)
	switch {
	case !ok:
		s.rep.add(newCheck("egress selector", Error,
			fmt.Sprintf("udsName %s is outside the kube-apiserver's config mount %s", uds, r.KASMount.Container),
			"name the socket as the kube-apiserver container sees it, under "+r.KASMount.Container))
	case !ok2 || kasHost != serverHost:
		s.rep.add(newCheck("egress selector", Error,
			fmt.Sprintf("the kube-apiserver dials %s (host %s) but the server listens on %s", uds, kasHost, serverHost),
			"the egress file and the server must name the same host file through their mounts; re-render"))
	default:
		s.rep.add(newCheck("egress selector", OK,
			fmt.Sprintf("cluster traffic goes to %s, the server's socket", uds), ""))
	}
}

// clusterUDS is the cluster selection's udsName, or "".
func clusterUDS(egress map[string]any) string {
	sels, _ := egress["egressSelections"].([]any)
	for _, sel := range sels {
		m, _ := sel.(map[string]any)
		if m["name"] != "cluster" {
			continue
		}
		conn, _ := m["connection"].(map[string]any)
		tr, _ := conn["transport"].(map[string]any)
		uds, _ := tr["uds"].(map[string]any)
		name, _ := uds["udsName"].(string)
		return name
	}
	return ""
}
