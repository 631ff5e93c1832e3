package hoststatus

import (
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
)

// TestClusterUDS: status reads the cluster socket from the rendered egress
// file typed and leniently: faults the kube-apiserver's strict loader would
// refuse are check's to report, not a missing socket.
func TestClusterUDS(t *testing.T) {
	const head = "apiVersion: apiserver.k8s.io/v1beta1\nkind: EgressSelectorConfiguration\n"
	const sock = "/etc/kubernetes/config/konnectivity-server.socket"
	const uds = "    proxyProtocol: HTTPConnect\n    transport:\n      uds:\n        udsName: " + sock + "\n"
	cases := []struct{ name, file, want string }{
		{"rendered", head + "egressSelections:\n- name: cluster\n  connection:\n" + uds + "- name: etcd\n  connection:\n    proxyProtocol: Direct\n", sock},
		{"unknown field", head + "egressSelections:\n- name: cluster\n  extra: 1\n  connection:\n" + uds, sock},
		{"direct", head + "egressSelections:\n- name: cluster\n  connection:\n    proxyProtocol: Direct\n", ""},
		{"no cluster", head + "egressSelections:\n- name: etcd\n  connection:\n    proxyProtocol: Direct\n", ""},
		{"selections not a list", head + "egressSelections: {}\n", ""},
	}
	for _, tc := range cases {
		b, err := bundlemodel.Parse([]byte(tc.file))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if b.Egress == nil {
			t.Fatalf("%s: no egress object", tc.name)
		}
		if got := clusterUDS(b.Egress); got != tc.want {
			t.Errorf("%s: clusterUDS = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := clusterUDS(nil); got != "" {
		t.Errorf("no egress file: clusterUDS = %q, want \"\"", got)
	}
}
