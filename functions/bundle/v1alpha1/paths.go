package v1alpha1

import "github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"

// Host and container paths derived from the config. Each is computed in one
// place so the server, the egress file and the override cannot disagree.

// HostSocketPath is the UDS as the host (and the server container) sees it.
func (p PathsSpec) HostSocketPath() string { return p.BootstrapConfigDir + "/" + p.SocketName }

// KASSocketPath is the UDS as the kube-apiserver container sees it.
func (p PathsSpec) KASSocketPath() string { return p.KASConfigDir + "/" + p.SocketName }

// HostEgressPath is where render writes the egress file.
func (p PathsSpec) HostEgressPath() string { return p.BootstrapConfigDir + "/" + p.EgressConfigName }

// KASEgressPath is the egress file as the kube-apiserver container sees it.
func (p PathsSpec) KASEgressPath() string { return p.KASConfigDir + "/" + p.EgressConfigName }

// KASConfigMount is the AnnotationKASConfigMount value: HOSTDIR:CONTAINERDIR.
func (p PathsSpec) KASConfigMount() string {
	return hostlayout.Mount{Host: p.BootstrapConfigDir, Container: p.KASConfigDir}.String()
}

// ClusterManifest is the host path of a cluster manifest file.
func (p PathsSpec) ClusterManifest(name string) string { return p.ClusterManifestsDir + "/" + name }
