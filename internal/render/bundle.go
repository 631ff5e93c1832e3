package render

import (
	"fmt"
	"path"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundlemodel"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostlayout"
)

// bundle is the parsed overlay output: the objects with their placements,
// and the same nodes read into their roles.
type bundle struct {
	objects []object
	model   *bundlemodel.Bundle
}

func newBundle(objs []object) *bundle {
	return &bundle{objects: objs, model: bundlemodel.New(nodes(objs))}
}

// certDir is the host directory behind the server's --cluster-cert, followed
// through the pod's volume mount to its hostPath volume, so render writes the
// certificates exactly where the server will read them.
func (b *bundle) certDir() (string, error) {
	srv := b.model.Server
	if srv == nil || srv.Object.Kind != "Pod" || srv.Object.Annotations[hostlayout.AnnotationPlacement] != hostlayout.PlacementStaticPod {
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
	if a == nil || a.Object.Annotations[hostlayout.AnnotationPlacement] != hostlayout.PlacementClusterManifest {
		return "", "", fmt.Errorf("the bundle has no agent DaemonSet among its cluster manifests")
	}
	dir := path.Dir(a.Object.Annotations[hostlayout.AnnotationHostPath])
	return a.Object.Namespace, path.Join(dir, hostlayout.AgentSecretFileName), nil
}

// withoutAgentSecret drops a Secret an overlay may already have made, so the
// one matching the certificates render writes is the only one.
func (b *bundle) withoutAgentSecret() []object {
	out := make([]object, 0, len(b.objects))
	for _, o := range b.objects {
		if o.kind == "Secret" && o.name == hostlayout.AgentSecretName {
			continue
		}
		out = append(out, o)
	}
	return out
}
