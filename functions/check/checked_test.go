package check

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
)

// TestCheckedLine: a clean check ends its text with the one line naming
// what it looked at; --quiet and an error finding leave the line out.
func TestCheckedLine(t *testing.T) {
	good := readGood(t)
	bad := bytes.Replace(good, []byte("--server-port=0"), []byte("--server-port=8091"), 1)
	if bytes.Equal(bad, good) {
		t.Fatal("the edit that makes an error does not apply")
	}
	const line = "ok: checked 6 object(s) of good.yaml (Pod kube-system/konnectivity-server (server), DaemonSet openshift-bootstrap-konnectivity/konnectivity-agent (agents), " +
		"EgressSelectorConfiguration konnectivity-egress-selector, KubeAPIServerConfig konnectivity-config-override, Secret openshift-bootstrap-konnectivity/konnectivity-agent-certs, " +
		"Namespace openshift-bootstrap-konnectivity, certificates): 0 error(s), 0 warning(s)\n"
	cases := []struct {
		name     string
		stream   []byte
		quiet    bool
		wantLine bool
	}{
		{"clean", good, false, true},
		{"clean, quiet", good, true, false},
		{"an error", bad, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs, err := Check(tc.stream, Options{CertFiles: goodCerts(t)})
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			c := Checked{Findings: result.Findings(fs), Stream: tc.stream, Target: "good.yaml", Certs: true, Quiet: tc.quiet}
			if err := c.WriteText(&out); err != nil {
				t.Fatal(err)
			}
			if got := strings.HasSuffix(out.String(), line); got != tc.wantLine {
				t.Errorf("ends with the checked line: %v, want %v; text:\n%s", got, tc.wantLine, out.String())
			}
			if tc.wantLine && strings.Count(out.String(), "ok: checked") != 1 {
				t.Errorf("the checked line is said more than once:\n%s", out.String())
			}
		})
	}
}
