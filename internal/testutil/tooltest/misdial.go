package tooltest

import "fmt"

// MisdialAgents is a kustomize `replacements:` field that breaks a built
// bundle the way the check's agent-port-mismatch rule catches: the agents'
// --proxy-server-port flag, found by its value (agentPort, the port the
// bundle was built with), gets the server's health port from its liveness
// probe. It names the flag and the containers, never a position, so it
// means the same when the generator reorders its flags.
func MisdialAgents(agentPort int) string {
	return fmt.Sprintf(`replacements:
- source:
    kind: Pod
    name: konnectivity-server
    fieldPath: spec.containers.[name=konnectivity-server].livenessProbe.httpGet.port
  targets:
  - select:
      kind: DaemonSet
      name: konnectivity-agent
    fieldPaths:
    - spec.template.spec.containers.[name=konnectivity-agent].args.[=--proxy-server-port=%d]
    options:
      delimiter: "="
      index: 1
`, agentPort)
}
