package bundle

import (
	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/egressconfig"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// The egress selector and the KAS override are config files, not API
// objects, so they are built as plain maps in the exact on-disk shape.

// proxyProtocol is derived from the server mode, never configured apart.
func proxyProtocol(mode string) string {
	if mode == v1alpha1.ModeGRPC {
		return "GRPC"
	}
	return "HTTPConnect"
}

func configMeta(s *v1alpha1.Spec, name, where, hostPath string) map[string]any {
	ann := placement(where, hostPath)
	ann[hostlayout.AnnotationKASConfigMount] = s.Paths.KASConfigMount()
	return map[string]any{"name": name, "labels": toAny(bundleLabels(hostlayout.AppServer)), "annotations": toAny(ann)}
}

// egressSelector proxies only the cluster selection; controlplane and etcd
// stay Direct, as the installer writes them.
func egressSelector(s *v1alpha1.Spec) map[string]any {
	direct := func(name string) map[string]any {
		return map[string]any{"name": name, "connection": map[string]any{"proxyProtocol": "Direct"}}
	}
	return map[string]any{
		"apiVersion": egressconfig.APIVersion,
		"kind":       egressconfig.Kind,
		"metadata":   configMeta(s, hostlayout.EgressObjectName, hostlayout.PlacementKASEgressConfig, s.Paths.HostEgressPath()),
		"egressSelections": []any{
			map[string]any{"name": "cluster", "connection": map[string]any{
				"proxyProtocol": proxyProtocol(s.Mode),
				"transport":     map[string]any{"uds": map[string]any{"udsName": s.Paths.KASSocketPath()}},
			}},
			direct("controlplane"),
			direct("etcd"),
		},
	}
}

// kasOverride passes the egress file as a flag: KubeAPIServerConfig has no
// typed egress field, and one set anyway is silently ignored.
func kasOverride(s *v1alpha1.Spec) map[string]any {
	return map[string]any{
		"apiVersion": hostlayout.OverrideAPIVersion,
		"kind":       hostlayout.OverrideKind,
		"metadata":   configMeta(s, hostlayout.OverrideObjectName, hostlayout.PlacementKASConfigOverride, s.Paths.KASConfigOverride),
		"apiServerArguments": map[string]any{
			hostlayout.EgressFileArgument: []any{s.Paths.KASEgressPath()},
		},
	}
}

func toAny(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
