package proxyversion

import (
	"fmt"
	"strings"
)

// Proof says how the e2e suite plays a pair's kube-apiserver side.
type Proof int

const (
	// NotRun: no test runs this pair's kube-apiserver code.
	NotRun Proof = iota
	// FullKubeAPIServer: the whole kube-apiserver of the pair's release,
	// built from tools/kube-apiserver, runs every tunnel case.
	FullKubeAPIServer
	// ReleaseCaller: the pair's own webhook caller (its k8s.io/apiserver
	// webhook client, egress dialer and konnectivity-client), built from
	// tools/kas-caller/k8s-<minor>.mod, runs the tunnel cases; it builds in
	// a minute where a kube-apiserver takes many (CONTRIBUTING.md, the CI
	// budget).
	ReleaseCaller
)

// Pair is one OpenShift release the bundle claims, with the two sides of
// its tunnel: the kube-apiserver it ships (Kubernetes minor and the
// konnectivity-client that kube-apiserver vendors, from upstream
// k8s.io/kubernetes' go.mod at that minor) and the proxy family its
// apiserver-network-proxy image ships.
type Pair struct {
	OpenShift Release
	// Kubernetes is the minor of the release's kube-apiserver ("1.27").
	Kubernetes string
	// Client is the sigs.k8s.io/apiserver-network-proxy/konnectivity-client
	// version that kube-apiserver's go.mod requires: the grpc side of the
	// tunnel.
	Client string
	// APIServer is the k8s.io/apiserver tag the tools pin for this pair (a
	// patch of Kubernetes' minor), "" when Proof is NotRun.
	APIServer string
	// Proof is how `make test` runs the pair.
	Proof Proof
	// KubeAPIServer is the k8s.io/kubernetes tag of the whole
	// kube-apiserver the tools build for the pair, "" when none: `make
	// releases` runs the tunnel suite with each (KubeAPIServerTool).
	KubeAPIServer string
}

// Proxy is the family the pair's release ships (its Releases range).
func (p Pair) Proxy() *Version { return forRelease(p.OpenShift) }

// Mode is the server mode a bundle for this release renders: its family's
// DefaultMode, the mode the faults measured better on this family's oldest
// and newest pair (docs/proxy-versions.md, "Release pairs").
func (p Pair) Mode() string { return p.Proxy().DefaultMode }

// Tool is the binary tools/build.sh builds to play the pair's
// kube-apiserver ("kube-apiserver", "kas-caller-1.27"), "" when NotRun.
func (p Pair) Tool() string {
	switch p.Proof {
	case FullKubeAPIServer:
		return "kube-apiserver"
	case ReleaseCaller:
		return "kas-caller-" + p.Kubernetes
	}
	return ""
}

// KubeAPIServerTool is the binary of the pair's whole kube-apiserver:
// "kube-apiserver" (tools/kube-apiserver, which make test builds) for the
// pair make test runs with it, "kube-apiserver-<minor>"
// (tools/kube-apiserver-<minor>, built only by make releases) for the
// others; "" when the pair has none.
func (p Pair) KubeAPIServerTool() string {
	switch {
	case p.KubeAPIServer == "":
		return ""
	case p.Proof == FullKubeAPIServer:
		return "kube-apiserver"
	}
	return "kube-apiserver-" + p.Kubernetes
}

// NodeComponents are the Kubernetes binaries the real-node test runs beside
// the kube-apiserver (e2e's TestRealNode): each pair's come from the module
// of its whole kube-apiserver, so they are of its minor.
var NodeComponents = []string{"kubelet", "kube-controller-manager", "kube-scheduler"}

// NodeTool is the binary of component (one of NodeComponents) of the
// pair's minor, named as KubeAPIServerTool names the kube-apiserver:
// "kubelet" for the pair make test runs whole, "kubelet-1.27" for the
// others; "" when the pair has no whole kube-apiserver (no module to build
// it from).
func (p Pair) NodeTool(component string) string {
	kas := p.KubeAPIServerTool()
	if kas == "" {
		return ""
	}
	return component + strings.TrimPrefix(kas, "kube-apiserver")
}

// LookupPair is the pair of Kubernetes minor kube ("1.27").
func LookupPair(kube string) (Pair, error) {
	var minors []string
	for _, p := range Pairs {
		if p.Kubernetes == kube {
			return p, nil
		}
		minors = append(minors, p.Kubernetes)
	}
	return Pair{}, fmt.Errorf("no release pair has Kubernetes %q; the pairs are %s", kube, strings.Join(minors, ", "))
}

// String names the pair as the docs and test names do: "4.14 (1.27, v0.28)".
func (p Pair) String() string {
	return fmt.Sprintf("%s (%s, %s)", p.OpenShift, p.Kubernetes, p.Proxy().Name)
}

// Pairs is every release the bundle claims, oldest first, through the
// newest family's first release (later ones ship the same family; each new
// OpenShift release is one more entry). The clients are upstream
// k8s.io/kubernetes go.mod's at each minor.
var Pairs = []Pair{
	{OpenShift: Release{4, 14}, Kubernetes: "1.27", Client: "v0.1.2", APIServer: "v0.27.16", Proof: ReleaseCaller, KubeAPIServer: "v1.27.16"},
	{OpenShift: Release{4, 15}, Kubernetes: "1.28", Client: "v0.1.2"},
	{OpenShift: Release{4, 16}, Kubernetes: "1.29", Client: "v0.28.0"},
	{OpenShift: Release{4, 17}, Kubernetes: "1.30", Client: "v0.29.0"},
	{OpenShift: Release{4, 18}, Kubernetes: "1.31", Client: "v0.30.3"},
	{OpenShift: Release{4, 19}, Kubernetes: "1.32", Client: "v0.31.0"},
	{OpenShift: Release{4, 20}, Kubernetes: "1.33", Client: "v0.31.2"},
	{OpenShift: Release{4, 21}, Kubernetes: "1.34", Client: "v0.31.2"},
	{OpenShift: Release{4, 22}, Kubernetes: "1.35", Client: "v0.31.2", APIServer: "v0.35.4", Proof: FullKubeAPIServer, KubeAPIServer: "v1.35.4"},
	{OpenShift: Release{4, 23}, Kubernetes: "1.36", Client: "v0.34.0", APIServer: "v0.36.3", Proof: ReleaseCaller, KubeAPIServer: "v1.36.3"},
}

// DocsRow is the pair's row of docs/proxy-versions.md's "Release pairs"
// table (`go run ./tools/pairs -docs` prints them all): releases, client,
// family, rendered mode and what proves it.
func (p Pair) DocsRow() string {
	return fmt.Sprintf("| %s | %s | %s | `%s` | `%s` | %s |", p.OpenShift, p.Kubernetes, p.Client, p.Proxy().Name, p.Mode(), p.provenBy())
}

// provenBy says what make test runs of the pair, then what make releases adds.
func (p Pair) provenBy() string {
	var by []string
	switch p.Proof {
	case FullKubeAPIServer:
		by = append(by, "`make test`: the full kube-apiserver "+p.KubeAPIServer)
	case ReleaseCaller:
		by = append(by, "`make test`: the release caller, k8s.io/apiserver "+p.APIServer)
	}
	if p.KubeAPIServer != "" {
		by = append(by, "`make releases`: the full kube-apiserver "+p.KubeAPIServer)
	}
	if len(by) == 0 {
		return "no test"
	}
	return strings.Join(by, "; ")
}
