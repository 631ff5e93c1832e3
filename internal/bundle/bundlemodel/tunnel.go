package bundlemodel

import (
	"net/netip"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// hostFlag is the agents' flag naming where they dial. The generator
// writes it and this file alone reads it: every rule, diagnostic and report
// takes the Tunnel instead (wall_test.go at the repository root holds it).
const hostFlag = "proxy-server-host"

// Tunnel is the rendered tunnel as the bundle states it, read once, typed,
// when the bundle is read: where the agents dial, on which port, over which
// families, for which proxy version. The zero Tunnel is a bundle with no
// agent.
type Tunnel struct {
	// Host is the agents' --proxy-server-host as written; "" when unset.
	Host string
	// HostField is where Host is written: the flag's argument, else the
	// agent container's args.
	HostField string
	// Dials is what the agents dial: Host, else the binary's default.
	Dials string
	// Addr is Host read by bootstrapip.ParseAddr: the zero Addr when Host
	// is a DNS name, or unset.
	Addr netip.Addr
	// Bind is the server's --agent-bind-address read the same way: the
	// zero Addr when it is unset or not an address.
	Bind netip.Addr
	// BindText is that flag as written, and BindField where; "" when unset.
	// A BindText that Bind could not read is no address the server can
	// listen on (check's agent-bind-address-invalid).
	BindText, BindField string
	// Families are the address families the tunnel runs over: Addr's, else
	// Bind's, else both (a DNS name may resolve to either).
	Families []bootstrapip.Family
	// Port is the agents' --proxy-server-port (the binary's default when
	// unset); PortError says why it is 0 when the value is no port number.
	Port      int
	PortError error
	// Version is the proxy version the bundle is for (Target.Version): nil
	// when the bundle names none, or two.
	Version *proxyversion.Version
}

// HostGiven reports whether the agents name a host to dial at all.
func (t Tunnel) HostGiven() bool { return t.Host != "" }

// readTunnel reads the tunnel from the agent's and the server's flags,
// parsed already (settleTarget).
func (b *Bundle) readTunnel() Tunnel {
	t := Tunnel{Version: b.Target.Version}
	if b.Server != nil {
		t.BindText = b.Server.Flags.Value("agent-bind-address")
		t.BindField = b.Server.Flags.FieldOr("agent-bind-address", b.Server.Field+".args")
		if bind, ok := bootstrapip.ParseAddr(t.BindText); ok {
			t.Bind = bind
		}
	}
	if b.Agent != nil {
		a := b.Agent
		t.Host, t.HostField, t.Dials = a.Flags.Value(hostFlag), a.Flags.FieldOr(hostFlag, a.Field+".args"), a.Flags.Value(hostFlag)
		if t.Dials == "" { // given empty or not at all, the binary's default
			t.Dials = a.Flags.Binary.Default(hostFlag)
		}
		t.Addr, _ = bootstrapip.ParseAddr(t.Host)
		t.Port, t.PortError = a.Port("proxy-server-port")
	}
	switch {
	case t.Addr.IsValid():
		t.Families = []bootstrapip.Family{bootstrapip.FamilyOf(t.Addr)}
	case t.Bind.IsValid():
		t.Families = []bootstrapip.Family{bootstrapip.FamilyOf(t.Bind)}
	default:
		t.Families = []bootstrapip.Family{bootstrapip.IPv4, bootstrapip.IPv6}
	}
	return t
}
