package proxyversion

import (
	"fmt"
	"strings"
	"testing"
)

// TestPairsCoverEveryRelease: one pair per OpenShift release from the
// oldest supported through the newest family's first, in order, each
// release's Kubernetes minor being its OpenShift minor plus 13 (4.14 ships
// 1.27), with a client and a family, and a pinned k8s.io/apiserver of that
// minor exactly when a test runs it.
func TestPairsCoverEveryRelease(t *testing.T) {
	want := OldestRelease()
	for _, p := range Pairs {
		if p.OpenShift != want {
			t.Fatalf("pair %v follows %s; want %s next (one pair per release, oldest first)", p.OpenShift, Release{want.Major, want.Minor - 1}, want)
		}
		if k := fmt.Sprintf("1.%d", p.OpenShift.Minor+13); p.Kubernetes != k {
			t.Errorf("%s: Kubernetes %s; OpenShift %s ships %s", p.OpenShift, p.Kubernetes, p.OpenShift, k)
		}
		if p.Proxy() == nil || p.Client == "" || p.Mode() == "" {
			t.Errorf("%s: family %v, client %q, mode %q; want all three", p.OpenShift, p.Proxy(), p.Client, p.Mode())
		}
		pinned := p.APIServer != ""
		if pinned != (p.Proof != NotRun) {
			t.Errorf("%s: APIServer %q with proof %d; a pair a test runs names its pin, and only such a pair", p, p.APIServer, p.Proof)
		}
		if pinned && !hasMinor(p.APIServer, p.Kubernetes) {
			t.Errorf("%s: k8s.io/apiserver %s is not of Kubernetes %s (v0.%s.x)", p, p.APIServer, p.Kubernetes, p.Kubernetes[2:])
		}
		if p.Proof == FullKubeAPIServer && p.KubeAPIServer == "" {
			t.Errorf("%s: make test runs its whole kube-apiserver, but the pair names none", p)
		}
		if k := p.KubeAPIServer; k != "" && "v0"+strings.TrimPrefix(k, "v1") != p.APIServer {
			t.Errorf("%s: kube-apiserver %s with k8s.io/apiserver %s; a kube-apiserver v1.N.P uses v0.N.P", p, k, p.APIServer)
		}
		want = Release{want.Major, want.Minor + 1}
	}
	if last := Pairs[len(Pairs)-1].OpenShift; last.before(Newest.OpenShift.First) {
		t.Errorf("the pairs end at %s, before %s's first release %s", last, Newest, Newest.OpenShift.First)
	}
}

// TestEveryFamilyProvenAtBothEnds: the oldest and the newest pair of each
// family are run by make test, and by make releases with their full
// kube-apiservers (every tunnel case on each family's oldest and newest
// kube-apiserver), and make test's full kube-apiserver plays one pair.
func TestEveryFamilyProvenAtBothEnds(t *testing.T) {
	full := 0
	for _, v := range Versions {
		var ends []Pair
		for _, p := range Pairs {
			if p.Proxy() == v {
				ends = append(ends, p)
			}
		}
		if len(ends) == 0 {
			t.Errorf("%s has no pair", v)
			continue
		}
		for _, p := range []Pair{ends[0], ends[len(ends)-1]} {
			if p.Proof == NotRun {
				t.Errorf("%s is %s's oldest or newest pair and make test does not run it", p, v)
			}
			if p.KubeAPIServer == "" {
				t.Errorf("%s is %s's oldest or newest pair and make releases has no full kube-apiserver for it", p, v)
			}
		}
	}
	for _, p := range Pairs {
		if p.Proof == FullKubeAPIServer {
			full++
		}
	}
	if full != 1 {
		t.Errorf("%d pairs have the full kube-apiserver; tools/kube-apiserver builds exactly one", full)
	}
}

// hasMinor reports whether the staging tag v0.N.x is of Kubernetes 1.N.
func hasMinor(tag, kube string) bool {
	var major, minor, patch int
	var kMajor, kMinor int
	if _, err := fmt.Sscanf(tag, "v%d.%d.%d", &major, &minor, &patch); err != nil {
		return false
	}
	if _, err := fmt.Sscanf(kube, "%d.%d", &kMajor, &kMinor); err != nil {
		return false
	}
	return major == 0 && kMajor == 1 && minor == kMinor
}

// TestNodeToolsAreNamedAsTheKubeAPIServer: a pair's node tools carry its
// kube-apiserver's suffix (the default pair's none), and a pair without a
// whole kube-apiserver has none, so tools/build.sh and e2e agree on names.
func TestNodeToolsAreNamedAsTheKubeAPIServer(t *testing.T) {
	for _, tc := range []struct{ kube, kas, kubelet string }{
		{"1.27", "kube-apiserver-1.27", "kubelet-1.27"},
		{"1.28", "", ""},
		{"1.35", "kube-apiserver", "kubelet"},
		{"1.36", "kube-apiserver-1.36", "kubelet-1.36"},
	} {
		p, err := LookupPair(tc.kube)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.KubeAPIServerTool(); got != tc.kas {
			t.Errorf("pair %s: KubeAPIServerTool() = %q, want %q", p, got, tc.kas)
		}
		if got := p.NodeTool("kubelet"); got != tc.kubelet {
			t.Errorf("pair %s: NodeTool(kubelet) = %q, want %q", p, got, tc.kubelet)
		}
	}
}
