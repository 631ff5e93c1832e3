package proxyversion

import (
	"fmt"
	"strings"
)

// Version is one proxy release family the bundle can target: the flags its
// binaries accept, the metrics its server exports and the behaviour the
// tools rely on. docs/proxy-versions.md tables them for users; everything
// that renders, checks or reads a proxy asks its Version instead of
// assuming one.
type Version struct {
	// Name is how spec.proxyVersion, --proxy-version and the bundle's
	// annotation (AnnotationProxyVersion) write it.
	Name string
	// Upstream is the upstream tag whose flags the family has: flags whose
	// Since is later are missing from its binaries.
	Upstream string
	// OpenShift is the releases whose apiserver-network-proxy image ships
	// this family: Describe's prose and FromImage's mapping of image tags
	// both read it.
	OpenShift Releases
	// StandIn is the upstream module the tests build for the family
	// (tools/anp-<Name>): the same flags, metrics and --help.
	StandIn string
	// Server and Agent are the two binaries with this version's flags.
	Server, Agent *Binary
	// Metrics names what the server exports on /metrics.
	Metrics ServerMetrics
	// ConnectBeforeDial: the server answers an HTTP CONNECT with 200 before
	// an agent has dialed the target (v0.28 writes the status first and
	// closes the connection when the dial fails). A 200 then proves only
	// that an agent took the request; the target's own first bytes prove
	// the dial. v0.36 answers after the agent's dial response.
	ConnectBeforeDial bool
	// KeepsDepartedDials: in http-connect mode the server never drops a
	// dial an agent took and did not answer, even once that agent is
	// gone (pkg/server/tunnel.go waits for the agent's own answer;
	// removeForStream skips http-connect dials, TODO(#126)). Its
	// pending_backend_dials stays raised until proxy-server restarts.
	// Fixed upstream in v0.34.0 (PR #790).
	KeepsDepartedDials bool
	// DefaultMode is the server mode (--mode, ModeHTTPConnect or ModeGRPC)
	// a bundle for this version renders unless its config sets one: the
	// mode that measured better under faults on this version's binaries
	// (docs/proxy-versions.md, "Which mode, and why"; e2e TestModes).
	DefaultMode string
}

// V028 is the family OpenShift 4.14 to 4.22 ship: openshift/
// apiserver-network-proxy's release branches, all on one base, upstream
// v0.28.0 plus 15 commits, with the same flags and metrics. The transfer channel is a constant of 10
// packets, the agent listener's minimum TLS version is fixed at 1.2, and a
// dial an agent never answers waits for the caller to give up; in
// http-connect mode such a dial then stays pending on the server for good,
// while in grpc mode the kube-apiserver cancels it after 30 s, hence grpc
// by default.
var V028 = func() *Version {
	v := newVersion("v0.28", "v0.28.0", Releases{First: Release{4, 14}, Last: Release{4, 22}}, "sigs.k8s.io/apiserver-network-proxy v0.29.0", metricsV028)
	v.ConnectBeforeDial = true
	v.KeepsDepartedDials = true
	v.DefaultMode = ModeGRPC
	return v
}()

// V036 is upstream v0.36.0, which OpenShift 4.23 and later (5.x) ship.
var V036 = func() *Version {
	v := newVersion("v0.36", "v0.36.0", Releases{First: Release{4, 23}}, "sigs.k8s.io/apiserver-network-proxy v0.36.0", metricsV036)
	v.DefaultMode = ModeHTTPConnect
	return v
}()

// Versions are the supported families, oldest first.
var Versions = []*Version{V028, V036}

// Newest is the newest supported family: the table's last row, so a new
// version is one entry in Versions, not also a second name to move.
var Newest = Versions[len(Versions)-1]

func newVersion(name, upstream string, openshift Releases, standIn string, m ServerMetrics) *Version {
	v := &Version{Name: name, Upstream: upstream, OpenShift: openshift, StandIn: standIn, Metrics: m}
	v.Server = newBinary("proxy-server", v, serverFlags)
	v.Agent = newBinary("proxy-agent", v, agentFlags)
	return v
}

// String is the version's name.
func (v *Version) String() string { return v.Name }

// Describe names the version with the releases that ship it, for messages.
func (v *Version) Describe() string {
	return fmt.Sprintf("%s (OpenShift %s)", v.Name, v.OpenShift)
}

// Has reports whether the version's proxy-server has the flag.
func (v *Version) Has(serverFlag string) bool {
	_, ok := v.Server.Flags[serverFlag]
	return ok
}

// Lookup returns the version named name ("v0.28" or "v0.36").
func Lookup(name string) (*Version, error) {
	for _, v := range Versions {
		if name == v.Name || "v"+name == v.Name {
			return v, nil
		}
	}
	return nil, fmt.Errorf("unknown proxy version %q; use one of %s", name, Names())
}

// VersionNames are the supported versions' names, oldest first.
func VersionNames() []string {
	out := make([]string, 0, len(Versions))
	for _, v := range Versions {
		out = append(out, v.Name)
	}
	return out
}

// Names lists the supported versions with their OpenShift releases.
func Names() string {
	parts := make([]string, 0, len(Versions))
	for _, v := range Versions {
		parts = append(parts, v.Describe())
	}
	return strings.Join(parts, ", ")
}

// IntroducedIn says which version introduced a flag this binary lacks, for
// the fix of an unknown-flag finding; "" when no supported version has it.
func (b *Binary) IntroducedIn(flag string) (since string, newer *Version) {
	f, ok := b.Missing[flag]
	if !ok {
		return "", nil
	}
	for _, v := range Versions {
		if _, has := v.binary(b.Name).Flags[flag]; has {
			return f.Since, v
		}
	}
	return f.Since, nil
}

func (v *Version) binary(name string) *Binary {
	if name == v.Agent.Name {
		return v.Agent
	}
	return v.Server
}
