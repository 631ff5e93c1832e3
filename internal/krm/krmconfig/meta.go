package krmconfig

// APIVersion is the apiVersion of every function config in this module.
const APIVersion = "bundle.konnectivity.io/v1alpha1"

// ObjectMeta is the part of metadata a function config may carry.
type ObjectMeta struct {
	Name        string            `json:"name,omitempty"`
	Namespace   string            `json:"namespace,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}
