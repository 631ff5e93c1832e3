package render

import (
	"fmt"
	"path"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostlayout"
)

// bundle is the parsed overlay output.
type bundle struct {
	objects []object
}

func (b *bundle) find(placement, kind string) (object, bool) {
	for _, o := range b.objects {
		if o.placement == placement && o.kind == kind {
			return o, true
		}
	}
	return object{}, false
}

// certDir is the host directory behind the server's --cluster-cert, followed
// through the pod's volume mount to its hostPath volume, so render writes the
// certificates exactly where the server will read them.
func (b *bundle) certDir() (string, error) {
	pod, ok := b.find(hostlayout.PlacementStaticPod, "Pod")
	if !ok {
		return "", fmt.Errorf("the bundle has no static-pod Pod, so there is no certificate directory")
	}
	cert, mounts, err := clusterCertArg(pod.node)
	if err != nil {
		return "", fmt.Errorf("%s: %w", pod.id(), err)
	}
	for _, m := range mounts {
		mountPath := yaml.GetValue(m.Field("mountPath").Value)
		if path.Dir(cert) != path.Clean(mountPath) {
			continue
		}
		vol := yaml.GetValue(m.Field("name").Value)
		host, err := pod.node.Pipe(yaml.Lookup("spec", "volumes", "[name="+vol+"]", "hostPath", "path"))
		if err != nil || host == nil {
			return "", fmt.Errorf("%s: volume %q mounted at %s is not a hostPath volume", pod.id(), vol, mountPath)
		}
		dir := yaml.GetValue(host)
		if err := checkHostPath(dir); err != nil {
			return "", fmt.Errorf("%s: volume %q hostPath: %w", pod.id(), vol, err)
		}
		return dir, nil
	}
	return "", fmt.Errorf("%s: no volume is mounted at %s, the directory of --cluster-cert", pod.id(), path.Dir(cert))
}

// clusterCertArg finds --cluster-cert in the first container that has it,
// with that container's volume mounts.
func clusterCertArg(pod *yaml.RNode) (string, []*yaml.RNode, error) {
	containers, err := pod.Pipe(yaml.Lookup("spec", "containers"))
	if err != nil || containers == nil {
		return "", nil, fmt.Errorf("no containers")
	}
	items, _ := containers.Elements()
	for _, c := range items {
		args, _ := c.GetSlice("args")
		for _, a := range args {
			s, _ := a.(string)
			if v, ok := strings.CutPrefix(s, "--cluster-cert="); ok {
				var mounts []*yaml.RNode
				if m, _ := c.Pipe(yaml.Lookup("volumeMounts")); m != nil {
					mounts, _ = m.Elements()
				}
				return v, mounts, nil
			}
		}
	}
	return "", nil, fmt.Errorf("no container has --cluster-cert")
}

// agentPlacement says where the agent Secret goes: the agents' namespace and
// a file beside the DaemonSet in the cluster manifests directory.
func (b *bundle) agentPlacement() (namespace, hostPath string, err error) {
	ds, ok := b.find(hostlayout.PlacementClusterManifest, "DaemonSet")
	if !ok {
		return "", "", fmt.Errorf("the bundle has no agent DaemonSet among its cluster manifests")
	}
	return ds.namespace, path.Join(path.Dir(ds.hostPath), hostlayout.AgentSecretFileName), nil
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
