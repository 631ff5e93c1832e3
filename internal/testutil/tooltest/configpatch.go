package tooltest

import "strings"

// ConfigPatch is a strategic-merge patch of the base KonnectivityBundle
// config, shaped like the config as the shipped overlays' config-patch.yaml
// are: spec holds only the fields to change, written at the spec's level
// (e.g. "server:\n  agentPort: 9443\n"). Fields it omits keep the base's
// values; a list it names replaces the base's whole.
func ConfigPatch(spec string) string {
	lines := strings.Split(strings.TrimRight(spec, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "  " + l
	}
	return `apiVersion: bundle.konnectivity.io/v1alpha1
kind: KonnectivityBundle
metadata:
  name: konnectivity
spec:
` + strings.Join(lines, "\n") + "\n"
}
