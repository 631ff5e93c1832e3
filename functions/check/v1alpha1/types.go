// Package v1alpha1 is the KonnectivityCheck KRM validator function: it runs
// functions/check on every resource of a kustomize build, reports the findings
// as results and fails the build on any error finding. It never changes a
// resource (kustomize rejects validators that do).
package v1alpha1

import "github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/krmconfig"

// API version and kind of the validator's config. APIVersion is
// krmconfig's, named here because internal/ packages cannot be imported
// from outside this module.
const (
	APIVersion = krmconfig.APIVersion
	Kind       = "KonnectivityCheck"
)

// KonnectivityCheck is the validator's function config.
type KonnectivityCheck struct {
	APIVersion string               `json:"apiVersion"`
	Kind       string               `json:"kind"`
	Metadata   krmconfig.ObjectMeta `json:"metadata,omitempty"`
	Spec       Spec                 `json:"spec,omitempty"`
}

// Spec tunes the checks (check.Options).
type Spec struct {
	// AllowMissingClusterCA turns a missing --cluster-ca-cert into a warning.
	AllowMissingClusterCA bool `json:"allowMissingClusterCA,omitempty"`
	// AllowEmpty accepts a build without a server pod (bootstrap-in-place).
	AllowEmpty bool `json:"allowEmpty,omitempty"`
	// CertDir is a certificate directory (ca.crt, server.crt, agent.crt, keys),
	// relative to the function's working directory: kustomize runs exec
	// functions in the directory of the kustomization that lists them.
	CertDir string `json:"certDir,omitempty"`
}
