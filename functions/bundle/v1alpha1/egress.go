package v1alpha1

// The egress selector and the KAS override are config files, not API
// objects, so they are built as plain maps in the exact on-disk shape.

// proxyProtocol is derived from the server mode, never configured apart.
func proxyProtocol(mode string) string {
	if mode == ModeGRPC {
		return "GRPC"
	}
	return "HTTPConnect"
}

func configMeta(s *Spec, name, where, hostPath string) map[string]any {
	ann := placement(where, hostPath)
	ann[AnnotationKASConfigMount] = s.Paths.KASConfigMount()
	return map[string]any{"name": name, "labels": toAny(bundleLabels(AppServer)), "annotations": toAny(ann)}
}

// egressSelector proxies only the cluster selection; controlplane and etcd
// stay Direct, as the installer writes them.
func egressSelector(s *Spec) map[string]any {
	direct := func(name string) map[string]any {
		return map[string]any{"name": name, "connection": map[string]any{"proxyProtocol": "Direct"}}
	}
	return map[string]any{
		"apiVersion": EgressAPIVersion,
		"kind":       EgressKind,
		"metadata":   configMeta(s, EgressObjectName, PlacementKASEgressConfig, s.Paths.HostEgressPath()),
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
func kasOverride(s *Spec) map[string]any {
	return map[string]any{
		"apiVersion": OverrideAPIVersion,
		"kind":       OverrideKind,
		"metadata":   configMeta(s, OverrideObjectName, PlacementKASConfigOverride, s.Paths.KASConfigOverride),
		"apiServerArguments": map[string]any{
			EgressFileArgument: []any{s.Paths.KASEgressPath()},
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
