package egressconfig

import (
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// Kind is the object's kind.
const Kind = "EgressSelectorConfiguration"

// APIVersion is the apiVersion the bundle writes the kind as.
const APIVersion = "apiserver.k8s.io/v1beta1"

// Versions are the only apiVersions the kube-apiserver loads the kind from.
var Versions = []string{APIVersion, "apiserver.k8s.io/v1alpha1"}

// egressSelectorConfiguration is the file's shape: the config and its type
// fields, nothing else (a metadata field is unknown to the kube-apiserver's
// strict loader). Its fields are not embedded and it is named after the
// kube-apiserver's type, so a type error names the same field path.
type egressSelectorConfiguration struct {
	APIVersion       string      `json:"apiVersion,omitempty"`
	Kind             string      `json:"kind,omitempty"`
	EgressSelections []Selection `json:"egressSelections"`
}

// Decode loads YAML or JSON as the kube-apiserver does: strictly (unknown
// and duplicate fields are errors, with apimachinery's messages), only
// from the known versions, with the old selection name master read as
// controlplane.
func Decode(data []byte) (*Config, error) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, err
	}
	var tm struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := json.Unmarshal(js, &tm); err != nil {
		return nil, fmt.Errorf("couldn't get version/kind; json parse error: %w", err)
	}
	if err := checkType(tm.APIVersion, tm.Kind, data); err != nil {
		return nil, err
	}
	var strict []error
	if _, err := yaml.YAMLToJSONStrict(data); err != nil {
		strict = append(strict, err) // duplicate keys, which YAMLToJSON drops
	}
	var v egressSelectorConfiguration
	jsonErrs, err := kjson.UnmarshalStrict(js, &v)
	if err != nil {
		return nil, err
	}
	if strict = append(strict, jsonErrs...); len(strict) > 0 {
		return nil, runtime.NewStrictDecodingError(strict)
	}
	return newConfig(v.EgressSelections), nil
}

// DecodeLenient reads the selections without the kube-apiserver's checks of
// the version and of unknown or duplicate fields, for a reader that reports
// on one field and leaves the file's other faults to check and the
// kube-apiserver (status). A value of the wrong type is still an error.
func DecodeLenient(data []byte) (*Config, error) {
	var v egressSelectorConfiguration
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("decode the EgressSelectorConfiguration: %w", err)
	}
	return newConfig(v.EgressSelections), nil
}

// newConfig reads the old selection name master as controlplane, as the
// kube-apiserver does.
func newConfig(sels []Selection) *Config {
	for i := range sels {
		if sels[i].Name == "master" {
			sels[i].Name = ControlPlane
		}
	}
	return &Config{EgressSelections: sels}
}

func checkType(apiVersion, kind string, data []byte) error {
	switch {
	case kind == "":
		return runtime.NewMissingKindErr(string(data))
	case apiVersion == "":
		return runtime.NewMissingVersionErr(string(data))
	case kind != Kind || (apiVersion != Versions[0] && apiVersion != Versions[1]):
		return fmt.Errorf("no kind %q is registered for version %q: the kube-apiserver loads %s only as %s",
			kind, apiVersion, Kind, strings.Join(Versions, " or "))
	}
	return nil
}
