package egressconfig

import (
	"strings"
	"testing"
)

// TestClusterUDS: the socket of the cluster selection, found as the
// kube-apiserver finds it, from a strict and from a lenient decode.
func TestClusterUDS(t *testing.T) {
	const sock = "/etc/kubernetes/config/konnectivity-server.socket"
	cases := []struct {
		name, file string
		strictOK   bool   // Decode loads it
		want       string // ClusterUDS after DecodeLenient; "-" for a decode error
	}{
		{"rendered", doc(sel("cluster", udsHTTP), sel("controlplane", direct), sel("etcd", direct)), true, sock},
		{"grpc", doc(sel("cluster", udsGRPC)), true, sock},
		{"capitalised name", doc(sel("Cluster", udsHTTP)), true, sock},
		{"no cluster selection", doc(sel("controlplane", direct)), true, ""},
		{"direct cluster", doc(sel("cluster", direct)), true, ""},
		{"tcp cluster", doc(sel("cluster", tcp("https://proxy:8131", ""))), true, ""},
		{"unknown field", doc(sel("cluster", udsHTTP+"bogus: 1\n")), false, sock},
		{"unknown version", strings.Replace(doc(sel("cluster", udsHTTP)), "v1beta1", "v1", 1), false, sock},
		{"wrong type", head + "egressSelections: {}\n", false, "-"},
		{"not YAML", "egressSelections: [\n", false, "-"},
	}
	for _, tc := range cases {
		strict, err := Decode([]byte(tc.file))
		if (err == nil) != tc.strictOK {
			t.Errorf("%s: Decode error %v, want loaded %v", tc.name, err, tc.strictOK)
		}
		if err == nil && strict.ClusterUDS() != tc.want {
			t.Errorf("%s: ClusterUDS after Decode = %q, want %q", tc.name, strict.ClusterUDS(), tc.want)
		}
		lenient, err := DecodeLenient([]byte(tc.file))
		switch {
		case tc.want == "-" && err == nil:
			t.Errorf("%s: DecodeLenient loaded it, want an error", tc.name)
		case tc.want != "-" && err != nil:
			t.Errorf("%s: DecodeLenient: %v", tc.name, err)
		case err == nil && lenient.ClusterUDS() != tc.want:
			t.Errorf("%s: ClusterUDS after DecodeLenient = %q, want %q", tc.name, lenient.ClusterUDS(), tc.want)
		}
	}
}

// TestClusterIndex: the cluster selection's index names its field in
// check's findings.
func TestClusterIndex(t *testing.T) {
	for _, tc := range []struct {
		file string
		want int
	}{
		{doc(sel("controlplane", direct), sel("CLUSTER", udsHTTP)), 1},
		{doc(sel("etcd", direct)), -1},
	} {
		cfg, err := DecodeLenient([]byte(tc.file))
		if err != nil {
			t.Fatal(err)
		}
		if sel, i := cfg.Cluster(); i != tc.want || (i >= 0) != (sel != nil) {
			t.Errorf("Cluster() index %d (selection %v), want %d", i, sel, tc.want)
		}
	}
}
