package hoststatus

import (
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// ServerDown says why the server is not running, from its socket and
// /healthz checks, or "" when neither is in error. While it is down no
// agent's connection can be confirmed, whatever its pod says.
func (r *Report) ServerDown() string {
	for _, c := range r.Checks {
		name := CheckName(result.Rule(c))
		if c.Severity == framework.Error && (name == CheckSocket || name == CheckServerHealth) {
			return string(name) + ": " + c.Message
		}
	}
	return ""
}
