package bundle

import "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"

// What the emitted containers run and mount; only the generator names them,
// the host and the checker find them through the objects.
const (
	ServerCommand        = "/usr/bin/proxy-server"
	AgentCommand         = "/usr/bin/proxy-agent"
	ContainerCertDir     = "/etc/konnectivity"
	serverCertsVolume    = "konnectivity-certs"
	bootstrapConfigsName = "bootstrap-configs"
)

func bundleLabels(app string) map[string]string {
	return map[string]string{v1alpha1.LabelBootstrapOnly: "true", v1alpha1.LabelApp: app}
}

func placement(where, hostPath string) map[string]string {
	return map[string]string{v1alpha1.AnnotationPlacement: where, v1alpha1.AnnotationHostPath: hostPath}
}
