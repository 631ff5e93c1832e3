//go:build e2e

package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// What the real-node test does differently on a pair's Kubernetes minor
// (KB_PAIR; docs/proxy-versions.md, "The real-node test on each pair"). Each
// difference is here, with the minor it starts at, and the test logs the one
// it takes.

// The minors from which a kube-apiserver serves MutatingAdmissionPolicy:
// admissionregistration.k8s.io/v1beta1, beta and off by default (1.34,
// 1.35: kasPolicyFlags turn it on), then v1, GA and on (1.36 warns
// "setting GA feature gate" when given the gate, so it is not given it). An
// older one (4.14's 1.27) has neither the API nor the gate and refuses to
// start with kasPolicyFlags.
const (
	mutatingPolicyBetaMinor = 34
	mutatingPolicyGAMinor   = 36
)

// kubeMinor is the minor number of the pair's Kubernetes ("1.27": 27).
func kubeMinor(p proxyversion.Pair) int {
	_, minor, _ := strings.Cut(p.Kubernetes, ".")
	n, err := strconv.Atoi(minor)
	if err != nil {
		panic(fmt.Sprintf("pair %s: Kubernetes %q is not 1.<minor>", p, p.Kubernetes))
	}
	return n
}

// uidPolicyVersion is the API version at which the pair's kube-apiserver
// plays SCC's UID assignment with restrictedUIDPolicy, "" where it has no
// MutatingAdmissionPolicy: there the test gives the agent DaemonSet's pod
// template that UID itself before applying it (withAgentUID), so the agent
// runs as the same user either way.
func uidPolicyVersion(p proxyversion.Pair) string {
	switch m := kubeMinor(p); {
	case m >= mutatingPolicyGAMinor:
		return "v1"
	case m >= mutatingPolicyBetaMinor:
		return "v1beta1"
	}
	return ""
}

// nodeKASFlags are the flags the pair's bootstrap kube-apiserver takes
// beyond the suite's own: the policy's, where it is beta.
func nodeKASFlags(p proxyversion.Pair) []string {
	if uidPolicyVersion(p) == "v1beta1" {
		return kasPolicyFlags
	}
	return nil
}

// standInForSCC makes the agent's pods get restrictedUID on the pair: by
// the policy where the kube-apiserver has it, else (returning the docs to
// apply in place of the rendered ones) in the DaemonSet's pod template.
func standInForSCC(t *testing.T, a *apiserver, docs [][]byte) [][]byte {
	t.Helper()
	if v := uidPolicyVersion(kasPair); v != "" {
		t.Logf("pair %s: restricted-v2's UID by MutatingAdmissionPolicy %s (kube-apiserver flags: %q)", kasPair, v, nodeKASFlags(kasPair))
		installUIDPolicy(t, a, v)
		return docs
	}
	t.Logf("pair %s: no MutatingAdmissionPolicy before Kubernetes 1.%d; the agent DaemonSet's pod template is given runAsUser %s (what restricted-v2 assigns) before it is applied",
		kasPair, mutatingPolicyBetaMinor, restrictedUID)
	return withAgentUID(t, docs)
}

// withAgentUID returns docs with every DaemonSet's pod securityContext
// given runAsUser restrictedUID, the field restrictedUIDPolicy sets.
func withAgentUID(t *testing.T, docs [][]byte) [][]byte {
	t.Helper()
	uid, _ := strconv.ParseInt(restrictedUID, 10, 64)
	out := make([][]byte, 0, len(docs))
	found := false
	for _, d := range docs {
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(d, &u.Object); err != nil {
			t.Fatalf("rendered cluster manifest: %v", err)
		}
		if u.GetKind() != "DaemonSet" {
			out = append(out, d)
			continue
		}
		found = true
		if err := unstructured.SetNestedField(u.Object, uid, "spec", "template", "spec", "securityContext", "runAsUser"); err != nil {
			t.Fatalf("DaemonSet %s: %v", u.GetName(), err)
		}
		b, err := yaml.Marshal(u.Object)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	if !found {
		t.Fatal("the rendered cluster manifests hold no DaemonSet to give the agent's UID")
	}
	return out
}
