package render

import (
	"fmt"
	"path"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// bundle is the parsed overlay output read into its roles, every object
// placed on the host (checkPlacements).
type bundle struct {
	model *bundlemodel.Bundle
}

// newBundle reads the built nodes into the model render plans from; the
// nodes are not copied.
func newBundle(nodes []*yaml.RNode) (*bundle, error) {
	m := bundlemodel.New(nodes)
	if err := checkPlacements(m.Objects); err != nil {
		return nil, err
	}
	return &bundle{model: m}, nil
}

// reread is the bundle read again from its nodes, after render changed them.
func (b *bundle) reread() *bundle {
	return &bundle{model: bundlemodel.New(b.nodes())}
}

// nodes are the objects' nodes, in stream order.
func (b *bundle) nodes() []*yaml.RNode {
	out := make([]*yaml.RNode, len(b.model.Objects))
	for i, o := range b.model.Objects {
		out[i] = o.Node
	}
	return out
}

// certDir is the host directory behind the server's --cluster-cert, followed
// through the pod's volume mount to its hostPath volume, so render writes the
// certificates exactly where the server will read them.
func (b *bundle) certDir() (string, error) {
	srv := b.model.Server
	if srv == nil || srv.Object.Kind != "Pod" || srv.Object.Placement() != hostlayout.PlacementStaticPod {
		return "", fmt.Errorf("the bundle has no static-pod Pod running proxy-server, so there is no certificate directory")
	}
	id := srv.Object.ID()
	cert := srv.Flags.Value("cluster-cert")
	if cert == "" {
		return "", fmt.Errorf("%s: the proxy-server container has no --cluster-cert", id)
	}
	m, ok := srv.MountFor(path.Dir(cert))
	if !ok {
		return "", fmt.Errorf("%s: no volume is mounted at %s, the directory of --cluster-cert", id, path.Dir(cert))
	}
	if m.Volume == nil || m.Volume.HostPath == nil {
		return "", fmt.Errorf("%s: volume %q mounted at %s is not a hostPath volume", id, m.Mount.Name, m.Mount.MountPath)
	}
	dir := path.Join(m.Volume.HostPath.Path, m.Rest)
	if err := checkHostPath(dir); err != nil {
		return "", fmt.Errorf("%s: volume %q hostPath: %w", id, m.Mount.Name, err)
	}
	return dir, nil
}

// agentPlacement says where the agent Secret goes: the agents' namespace and
// a file beside the DaemonSet in the cluster manifests directory.
func (b *bundle) agentPlacement() (namespace, hostPath string, err error) {
	a := b.model.Agent
	if a == nil || a.Object.Placement() != hostlayout.PlacementClusterManifest {
		return "", "", fmt.Errorf("the bundle has no agent DaemonSet among its cluster manifests")
	}
	dir := path.Dir(a.Object.HostPath())
	return a.Object.Namespace, path.Join(dir, hostlayout.AgentSecretFileName), nil
}

// withoutAgentSecret drops a Secret an overlay may already have made, so the
// one matching the certificates render writes is the only one.
func (b *bundle) withoutAgentSecret() []*yaml.RNode {
	out := make([]*yaml.RNode, 0, len(b.model.Objects))
	for _, o := range b.model.Objects {
		if o.Kind == "Secret" && o.Name == hostlayout.AgentSecretName {
			continue
		}
		out = append(out, o.Node)
	}
	return out
}
