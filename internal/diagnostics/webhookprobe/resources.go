package webhookprobe

import "k8s.io/apimachinery/pkg/runtime/schema"

// The resources the probe reads, through internal/intake/kuberead's bounded
// reader. It uses the dynamic client, not the typed clientset: the
// clientset links client-go's scheme of every built-in API, whose
// initialisers cost every konnectivity-bundle process (render included)
// about 2-3 ms of start-up.
var (
	validatingWebhooks = schema.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: "validatingwebhookconfigurations"}
	mutatingWebhooks   = schema.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: "mutatingwebhookconfigurations"}
	apiServices        = schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}
	services           = schema.GroupVersionResource{Version: "v1", Resource: "services"}
	endpointSlices     = schema.GroupVersionResource{Group: "discovery.k8s.io", Version: "v1", Resource: "endpointslices"}
)
