// Package v1alpha1 is the KonnectivityCerts KRM function: it emits the
// agent Secret konnectivity-agent-certs from a certificate directory,
// generating the certificates into it first when asked to.
package v1alpha1

import (
	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
)

// API version and kind of the function config. APIVersion is the
// generator's (and krmconfig's), named here as part of this API.
const (
	APIVersion = bundle.APIVersion
	Kind       = "KonnectivityCerts"
)

// DefaultSecretHostPath puts the Secret next to the KonnectivityBundle
// generator's other cluster manifests. The namespace, certificate directory
// and bootstrap IP variable are the generator's own (the host contract's
// hostlayout.AgentNamespace, bundle.DefaultCertDir, bundle.EnvBootstrapIP),
// so the Secret lands in the bundle's namespace.
const DefaultSecretHostPath = bundle.DefaultClusterManifestsDir + "/" + hostlayout.AgentSecretFileName

// KonnectivityCerts is the function config.
type KonnectivityCerts struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Metadata   bundle.ObjectMeta `json:"metadata"`
	Spec       Spec              `json:"spec"`
}

// Spec says where the certificates are and what the Secret looks like.
type Spec struct {
	// CertDir holds ca.crt, agent.crt, agent.key (and the rest). Relative
	// paths are relative to the working directory, which kustomize sets to
	// the directory of the kustomization that lists the function.
	CertDir string `json:"certDir,omitempty"`
	// BootstrapIP is the server certificate's SAN; default: $KONNECTIVITY_BOOTSTRAP_IP.
	BootstrapIP string `json:"bootstrapIP,omitempty"`
	// Generate creates or refreshes the certificates in CertDir; without it
	// they must already be there and good.
	Generate bool `json:"generate,omitempty"`
	// Namespace of the Secret.
	Namespace string `json:"namespace,omitempty"`
	// Validity of new certificates as a Go duration ("24h").
	Validity string `json:"validity,omitempty"`
	// KeyAlgorithm is ecdsa (default, P-256) or rsa.
	KeyAlgorithm string `json:"keyAlgorithm,omitempty"`
	// KeySize is the RSA modulus size: 2048 (default), 3072 or 4096.
	KeySize int `json:"keySize,omitempty"`
	// SecretHostPath is where render writes the Secret on the bootstrap host.
	SecretHostPath string `json:"secretHostPath,omitempty"`
}

// Default fills unset fields; getenv supplies the bootstrap IP.
func (s *Spec) Default(getenv func(string) string) {
	set := func(p *string, v string) {
		if *p == "" {
			*p = v
		}
	}
	set(&s.CertDir, bundle.DefaultCertDir)
	if getenv != nil {
		set(&s.BootstrapIP, getenv(bundle.EnvBootstrapIP))
	}
	set(&s.Namespace, hostlayout.AgentNamespace)
	set(&s.SecretHostPath, DefaultSecretHostPath)
}
