package certs

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// AgentSecret is the Secret konnectivity-agent-certs (tls.crt, tls.key, ca.crt) as a YAML document with the
// bundle labels and the placement/host-path annotations of docs/bundle-shape.md.
func AgentSecret(r *Result, namespace, hostPath string) ([]byte, error) {
	if r == nil {
		return nil, fmt.Errorf("agent Secret: no certificates (nil Result)")
	}
	if errs := validation.IsDNS1123Label(namespace); len(errs) > 0 {
		return nil, fmt.Errorf("agent Secret namespace %q: %s", namespace, strings.Join(errs, "; "))
	}
	if !path.IsAbs(hostPath) || path.Clean(hostPath) != hostPath {
		return nil, fmt.Errorf("agent Secret host path %q: must be a clean absolute path", hostPath)
	}
	data := map[string][]byte{"ca.crt": r.Files[CACert], "tls.crt": r.Files[AgentCert], "tls.key": r.Files[AgentKey]}
	for _, k := range []string{"ca.crt", "tls.crt", "tls.key"} {
		if len(data[k]) == 0 {
			return nil, fmt.Errorf("agent Secret: no certificate data for %s", k)
		}
	}
	// Written by hand, in the usual field order, so the bytes are stable;
	// every value is either validated above, base64 or a JSON string (which
	// YAML reads as a double-quoted scalar).
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: v1\nkind: Secret\nmetadata:\n")
	fmt.Fprintf(&b, "  name: %s\n  namespace: %s\n", bundle.AgentSecretName, namespace)
	fmt.Fprintf(&b, "  labels:\n    %s: %s\n    %s: \"true\"\n", bundle.LabelApp, bundle.AppAgent, bundle.LabelBootstrapOnly)
	fmt.Fprintf(&b, "  annotations:\n    %s: %s\n    %s: %s\n",
		bundle.AnnotationHostPath, jsonString(hostPath), bundle.AnnotationPlacement, bundle.PlacementClusterManifest)
	fmt.Fprintf(&b, "type: kubernetes.io/tls\ndata:\n")
	for _, k := range []string{"ca.crt", "tls.crt", "tls.key"} {
		fmt.Fprintf(&b, "  %s: %s\n", k, base64.StdEncoding.EncodeToString(data[k]))
	}
	return []byte(b.String()), nil
}

func jsonString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}
