package bundle

import (
	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// What the emitted containers run and mount; only the generator names them,
// the host and the checker find them through the objects.
const (
	ServerCommand        = "/usr/bin/proxy-server"
	AgentCommand         = "/usr/bin/proxy-agent"
	containerCertDir     = "/etc/konnectivity"
	serverCertsVolume    = "konnectivity-certs"
	bootstrapConfigsName = "bootstrap-configs"
)

func bundleLabels(app string) map[string]string {
	return map[string]string{hostlayout.LabelBootstrapOnly: "true", hostlayout.LabelApp: app}
}

func placement(where, hostPath string) map[string]string {
	return map[string]string{hostlayout.AnnotationPlacement: where, hostlayout.AnnotationHostPath: hostPath}
}

// targeted adds the proxy version the workload's flags were rendered for,
// which check, status and wait read back (internal/bundle/bundlemodel.Target).
func targeted(s *v1alpha1.Spec, annotations map[string]string) map[string]string {
	proxyversion.Annotate(annotations, s.Version())
	return annotations
}
