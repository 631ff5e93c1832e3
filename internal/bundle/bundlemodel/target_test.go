package bundlemodel

import (
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// targetBundle is a server pod and an agent DaemonSet with the given
// annotations and server image, the server running a v0.36-only flag.
func targetBundle(serverNote, agentNote, image string) string {
	note := func(v string) string {
		if v == "" {
			return "{}"
		}
		return "{" + proxyversion.AnnotationProxyVersion + ": " + v + "}"
	}
	return `apiVersion: v1
kind: Pod
metadata: {name: konnectivity-server, namespace: kube-system, annotations: ` + note(serverNote) + `}
spec:
  containers:
  - name: s
    image: ` + image + `
    command: [/usr/bin/proxy-server]
    args: [--backend-dial-timeout=6s]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: konnectivity-agent, namespace: x, annotations: ` + note(agentNote) + `}
spec:
  template:
    spec:
      containers:
      - name: a
        image: ` + image + `
        command: [/usr/bin/proxy-agent]
`
}

// TestTarget: the annotation wins, the image's OpenShift tag is the
// fallback, and the workloads' flags are read by the target's binaries.
func TestTarget(t *testing.T) {
	cases := []struct {
		name, server, agent, image string
		want                       *proxyversion.Version
		problem                    string // substring; "" for none
		unknownFlag                bool   // --backend-dial-timeout unknown to the binaries used
	}{
		{"annotation", "v0.28", "v0.28", "example.com/anp:1", proxyversion.V028, "", true},
		{"annotation beats the tag", "v0.36", "", "quay.io/x/anp:4.20", proxyversion.V036, "", false},
		{"tag of an older release", "", "", "quay.io/x/anp:4.21", proxyversion.V028, "", true},
		{"tag of a newer release", "", "", "quay.io/x/anp:5.0", proxyversion.V036, "", false},
		{"nothing says", "", "", "example.com/anp@sha256:" + strings.Repeat("0", 64), nil, "names no proxy version", false},
		{"two different", "v0.28", "v0.36", "example.com/anp:1", nil, "name different proxy versions", false},
		{"unknown value", "v9", "", "example.com/anp:1", nil, `unknown proxy version "v9"`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Parse([]byte(targetBundle(tc.server, tc.agent, tc.image)))
			if err != nil {
				t.Fatal(err)
			}
			got := b.Target
			if got.Version != tc.want || !strings.Contains(got.Problem, tc.problem) || (tc.problem == "") != (got.Problem == "") {
				t.Fatalf("target = %v (problem %q), want %v (problem containing %q)", got.Version, got.Problem, tc.want, tc.problem)
			}
			if unknown := len(b.Server.Flags.Unknown) == 1; unknown != tc.unknownFlag {
				t.Errorf("--backend-dial-timeout unknown = %v, want %v (flags read as %s)", unknown, tc.unknownFlag, b.Server.Flags.Binary.Version)
			}
			if b.Agent.Flags.Binary.Version != got.Binaries() {
				t.Errorf("agent read as %s, want %s", b.Agent.Flags.Binary.Version, got.Binaries())
			}
		})
	}
}
