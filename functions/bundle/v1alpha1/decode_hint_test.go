package v1alpha1

import (
	"strings"
	"testing"
)

// TestDecodeNamesTheFieldMeant: an unknown config field names the field
// meant: a misplaced one its real path (spec.agentPort is
// spec.server.agentPort, not the nearer-spelled spec.agent), one found in
// two places both, a misspelled one its spelling.
func TestDecodeNamesTheFieldMeant(t *testing.T) {
	head := "apiVersion: " + APIVersion + "\nkind: " + Kind + "\nmetadata: {name: k}\n"
	for _, tc := range []struct{ spec, want string }{
		{"spec: {agentPort: 9091}", "spec.agentPort: unknown field (fix: it belongs at spec.server.agentPort)"},
		{"spec: {healthPort: 2041}", "spec.healthPort: unknown field (fix: it belongs at spec.agent.healthPort or spec.server.healthPort)"},
		{"spec: {server: {agentPrt: 9091}}", `spec.server.agentPrt: unknown field (fix: did you mean "agentPort"?)`},
		{"spec: {bootstrapIp: 192.0.2.10}", `spec.bootstrapIp: unknown field (fix: did you mean "bootstrapIP"?)`},
	} {
		_, err := Decode([]byte(head + tc.spec + "\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.spec, err, tc.want)
		}
	}
}
