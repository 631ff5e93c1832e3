package netreq

import (
	"fmt"
	"net/netip"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/firewall"
)

// Firewall is the agent tunnel as typed values for firewall rules: the
// server's agent port and bind address, and what the agents dial.
func Firewall(b *Bundle) (firewall.Requirement, error) {
	if b.Server == nil {
		return firewall.Requirement{}, fmt.Errorf("the bundle has no proxy-server static pod, so there is no agent port to open: give a bundle, overlay or root that deploys the tunnel (not bootstrap-in-place)")
	}
	if b.Agent == nil {
		return firewall.Requirement{}, fmt.Errorf("the bundle has no agent DaemonSet, so nothing dials the server: give the complete bundle")
	}
	port, err := b.Server.Port("agent-port")
	if err != nil {
		return firewall.Requirement{}, err
	}
	req := firewall.Requirement{
		Port:   port,
		Source: fmt.Sprintf("%s --agent-port, --agent-bind-address; %s --proxy-server-host", b.Server.Object, b.Agent.Object),
	}
	if req.Dial, _ = b.Agent.Flag("proxy-server-host"); req.Dial == "" {
		req.Dial = b.Agent.Binary.Default("proxy-server-host")
	}
	if bind, _ := b.Server.Flag("agent-bind-address"); bind != "" {
		if req.Bind, err = netip.ParseAddr(bind); err != nil {
			return firewall.Requirement{}, fmt.Errorf("%s: --agent-bind-address=%q is not an IP address; set it to one of the bootstrap host's addresses or leave it out", b.Server.Object, bind)
		}
	}
	return req, nil
}
