package nodeverdict

import (
	"errors"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/netreq"
)

// InputFrom reads where the agents are from a rendered bundle: the agent
// DaemonSet's namespace and name, the address agents dial and the server's
// agent port.
func InputFrom(b *bundlemodel.Bundle) (Input, error) {
	if b == nil || b.Agent == nil {
		return Input{}, errors.New("the rendered root has no agent DaemonSet")
	}
	in := Input{Namespace: b.Agent.Object.Namespace, DaemonSet: b.Agent.Object.Name, Tunnel: b.Tunnel}
	rep, err := netreq.Requirements("the rendered root", b)
	if err != nil {
		return Input{}, err
	}
	if rep.Tunnel != nil {
		in.Port = rep.Tunnel.Port
	}
	return in, nil
}
