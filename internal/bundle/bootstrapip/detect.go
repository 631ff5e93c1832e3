package bootstrapip

import (
	"fmt"
	"net"
	"net/netip"
)

// EnvOverride is the installer's variable that pins the bootstrap IP.
const EnvOverride = "OPENSHIFT_INSTALL_BOOTSTRAP_NODE_IP"

// Public addresses whose route source the installer uses (docs/render.md, step 1).
const (
	ProbeIPv4 = "1.1.1.1"
	ProbeIPv6 = "2001:4860:4860::8888"
)

// RouteSource returns the local address the kernel would use to reach
// target ("udp4"/"udp6" network). Tests replace it to cover both families
// without depending on the machine's routes.
type RouteSource func(network, target string) (netip.Addr, error)

// KernelRouteSource asks the kernel: connecting a UDP socket only selects
// a route and a source address, it sends no packet.
func KernelRouteSource(network, target string) (netip.Addr, error) {
	conn, err := net.Dial(network, net.JoinHostPort(target, "53"))
	if err != nil {
		return netip.Addr{}, fmt.Errorf("no route to %s: %w", target, err)
	}
	defer conn.Close()
	local, ok := conn.LocalAddr().(*net.UDPAddr)
	if !ok {
		return netip.Addr{}, fmt.Errorf("route to %s: unexpected local address %v", target, conn.LocalAddr())
	}
	addr, _ := netip.AddrFromSlice(local.IP)
	return addr.Unmap(), nil
}

// Detection is a detected bootstrap IP and where it came from.
type Detection struct {
	Addr netip.Addr
	// Source says how it was found, e.g. "OPENSHIFT_INSTALL_BOOTSTRAP_NODE_IP"
	// or "source address of the route to 1.1.1.1".
	Source string
}

// Detect returns the bootstrap IP of family fam's primary family (IPv4
// unless fam is IPv6): the override variable when set, else the route
// source towards the probe address. getenv and route may be nil for no
// environment and the real kernel.
func Detect(fam Family, getenv func(string) string, route RouteSource) (Detection, error) {
	fam = fam.primary()
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if route == nil {
		route = KernelRouteSource
	}
	if v := getenv(EnvOverride); v != "" {
		addr, err := Validate(v, fam)
		if err != nil {
			return Detection{}, fmt.Errorf("%s: %w", EnvOverride, err)
		}
		return Detection{Addr: addr, Source: EnvOverride}, nil
	}
	network, target := "udp4", ProbeIPv4
	if fam == IPv6 {
		network, target = "udp6", ProbeIPv6
	}
	addr, err := route(network, target)
	if err != nil {
		return Detection{}, fmt.Errorf("detect %s bootstrap IP: %w (set %s to override)", fam, err, EnvOverride)
	}
	if err := Check(addr, fam); err != nil {
		return Detection{}, fmt.Errorf("detect %s bootstrap IP: route source %w (set %s to override)", fam, err, EnvOverride)
	}
	return Detection{Addr: addr, Source: "source address of the route to " + target}, nil
}
