package netreq

import (
	"net/netip"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
)

// Tunnel is the one flow that crosses the network, as typed values for a
// program that writes firewall rules from it: TCP to Port on the bootstrap
// host, from every node the agents run on, for the bootstrap phase only.
type Tunnel struct {
	// Port is the server's --agent-port: what a rule must open.
	Port int
	// DialPort is the agents' --proxy-server-port; it differs from Port
	// only in a broken bundle (the report then warns).
	DialPort int
	// Host is the agents' --proxy-server-host as written; "" when unset.
	Host string
	// Addr is Host when it is an IP address, else the zero Addr (a DNS
	// name, or unset).
	Addr netip.Addr
	// BindAddress is the server's --agent-bind-address; the zero Addr when
	// the server listens on every address.
	BindAddress netip.Addr
	// Families are the address families the tunnel runs over: Addr's, else
	// BindAddress's, else both (a DNS name may resolve to either).
	Families []bootstrapip.Family
	// HostNetwork: the agents dial from the node's own address; otherwise
	// from the pod network, normally SNATed to the node's address.
	HostNetwork bool
}

// newTunnel takes the tunnel the bundle model read (bundlemodel.Tunnel)
// and adds the server's side: the port it listens on for agents.
func newTunnel(b *bundlemodel.Bundle) (Tunnel, error) {
	port, err := b.Server.Port("agent-port")
	if err != nil {
		return Tunnel{}, err
	}
	bt := b.Tunnel
	if bt.PortError != nil {
		return Tunnel{}, bt.PortError
	}
	return Tunnel{Port: port, DialPort: bt.Port, Host: bt.Host, Addr: bt.Addr, BindAddress: bt.Bind, Families: bt.Families,
		HostNetwork: b.Agent.HostNetwork()}, nil
}
