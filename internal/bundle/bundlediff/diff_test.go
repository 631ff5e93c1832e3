package bundlediff

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/manifest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/goldenfile"
)

// diffCases are the kinds of change; each directory holds a.yaml and b.yaml
// and the golden output for every format. want lists `op path` of every
// change (in order) so the semantics are asserted, not only the bytes.
var diffCases = []struct {
	name   string
	status map[string]Status // object -> status; nil means equal bundles
	want   []string
}{
	{name: "reformatted"},
	{name: "owner-id"}, // render's per-root owner marker is not part of the bundle
	{name: "null-is-absent"},
	{name: "flags-reordered"},
	{name: "flag-changed",
		status: map[string]Status{"v1 Pod kube-system/konnectivity-server": changed},
		want:   []string{"change spec.containers[konnectivity-server].args[--agent-port]"}},
	{name: "flags-added-removed",
		status: map[string]Status{"v1 Pod kube-system/konnectivity-server": changed},
		want: []string{
			"remove spec.containers[konnectivity-server].args[--health-port]",
			"add spec.containers[konnectivity-server].args[--admin-port]",
			"add spec.containers[konnectivity-server].args[--agent-bind-address]",
		}},
	{name: "positional-and-repeated",
		status: map[string]Status{"v1 Pod default/p": changed},
		want: []string{
			"change spec.containers[c].args[0]",
			"change spec.containers[c].args[--agent-identifiers#2]",
			"change spec.containers[c].command[0]",
		}},
	{name: "containers-by-name",
		status: map[string]Status{"apps/v1 DaemonSet openshift-bootstrap-konnectivity/konnectivity-agent": changed},
		want: []string{
			"change spec.template.spec.containers[konnectivity-agent].image",
			"change spec.template.spec.containers[konnectivity-agent].resources.requests.memory",
			"remove spec.template.spec.containers[sidecar]",
			"add spec.template.spec.containers[debug]",
		}},
	{name: "volumes-mounts-env",
		status: map[string]Status{"v1 Pod kube-system/konnectivity-server": changed},
		want: []string{
			"change spec.containers[konnectivity-server].env[GODEBUG].value",
			"add spec.containers[konnectivity-server].env[NO_PROXY]",
			"remove spec.containers[konnectivity-server].volumeMounts[konnectivity-certs].readOnly",
			"change spec.volumes[konnectivity-certs].hostPath.path",
		}},
	{name: "objects-added-removed",
		status: map[string]Status{
			"v1 ConfigMap openshift-bootstrap-konnectivity/old-settings": removed,
			"v1 ConfigMap kube-system/same-name":                         removed,
			"v1 ConfigMap openshift-bootstrap-konnectivity/same-name":    added,
			"v1 Secret openshift-bootstrap-konnectivity/new-secret":      added,
		}},
	{name: "annotations",
		status: map[string]Status{"apiserver.k8s.io/v1beta1 EgressSelectorConfiguration konnectivity-egress-selector": changed},
		want: []string{
			"change egressSelections[cluster].connection.proxyProtocol",
			"add egressSelections[etcd]",
			`change metadata.annotations["bundle.konnectivity.io/host-path"]`,
			`add metadata.annotations["bundle.konnectivity.io/kas-config-mount"]`,
		}},
	{name: "type-change",
		status: map[string]Status{"v1 Pod kube-system/p": changed},
		want: []string{
			"change spec.containers[c].livenessProbe.httpGet.port",
			"change spec.containers[c].ports[0].containerPort",
		}},
	{name: "tolerations-resized",
		status: map[string]Status{"apps/v1 DaemonSet openshift-bootstrap-konnectivity/konnectivity-agent": changed},
		want: []string{
			"add spec.template.spec.nodeSelector",
			"add spec.template.spec.tolerations[0]",
		}},
	{name: "secret-rotated",
		status: map[string]Status{
			"v1 ConfigMap openshift-bootstrap-konnectivity/server-ca":             changed,
			"v1 Secret openshift-bootstrap-konnectivity/konnectivity-agent-certs": changed,
		},
		want: []string{
			`change data["server.crt"]`,
			`change data["ca.crt"]`,
			`change data["tls.crt"]`,
			`change data["tls.key"]`,
		}},
}

func TestDiffCases(t *testing.T) {
	for _, tc := range diffCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join("testdata", "cases", tc.name)
			r := compareFiles(t, dir)
			if got, want := r.Equal(), tc.status == nil; got != want {
				t.Fatalf("Equal() = %v, want %v; result: %+v", got, want, r.Objects)
			}
			var ops []string
			for _, o := range r.Objects {
				if want, ok := tc.status[o.ID.String()]; !ok || want != o.Status {
					t.Errorf("object %s: status %s, want %q", o.ID, o.Status, want)
				}
				for _, c := range o.Changes {
					ops = append(ops, string(c.Op)+" "+c.Path)
				}
			}
			if len(r.Objects) != len(tc.status) {
				t.Errorf("%d objects differ, want %d", len(r.Objects), len(tc.status))
			}
			if !slices.Equal(ops, tc.want) {
				t.Errorf("changes:\n  %s\nwant:\n  %s", strings.Join(ops, "\n  "), strings.Join(tc.want, "\n  "))
			}
			for _, f := range Formats {
				checkGolden(t, dir, r, f)
			}
		})
	}
}

func compareFiles(t *testing.T, dir string) *Result {
	t.Helper()
	var sides [2][]manifest.Object
	for i, n := range []string{"a.yaml", "b.yaml"} {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		if sides[i], err = manifest.Parse(b); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
	}
	return Compare("a.yaml", sides[0], "b.yaml", sides[1])
}

var goldenExt = map[output.Format]string{output.Text: "want.txt", markdown: "want.md", output.JSON: "want.json"}

func checkGolden(t *testing.T, dir string, r *Result, f output.Format) {
	t.Helper()
	var buf bytes.Buffer
	if err := output.Write(&buf, f, Report{r, false}); err != nil {
		t.Fatal(err)
	}
	goldenfile.Assert(t, filepath.Join(dir, goldenExt[f]), buf.Bytes())
}

// TestSecretsNeverPrinted: no output format may contain any line of the PEM
// or base64 data, only the summaries.
func TestSecretsNeverPrinted(t *testing.T) {
	dir := filepath.Join("testdata", "cases", "secret-rotated")
	var secrets []string
	for _, n := range []string{"a.yaml", "b.yaml"} {
		objs, err := manifest.Parse(mustRead(t, filepath.Join(dir, n)))
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range objs {
			for _, v := range o.Body["data"].(map[string]any) {
				s := v.(string)
				if dec, err := base64.StdEncoding.DecodeString(s); err == nil {
					secrets = append(secrets, s[:40])
					s = string(dec)
				}
				for _, line := range strings.Split(s, "\n") {
					if len(line) > 20 && !strings.HasPrefix(line, "-----") {
						secrets = append(secrets, line)
					}
				}
			}
		}
	}
	if len(secrets) < 10 {
		t.Fatalf("found only %d secret fragments in the fixtures; the test would prove nothing", len(secrets))
	}
	r := compareFiles(t, dir)
	for _, f := range Formats {
		var buf bytes.Buffer
		if err := output.Write(&buf, f, Report{r, true}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, s := range secrets {
			if strings.Contains(out, s) {
				t.Errorf("%s output contains secret material %q", f, s)
			}
		}
		for _, want := range []string{"certificate sha256:", "subject=CN=konnectivity-agent,O=openshift", "SANs=IP:192.0.2.10", "notAfter=2026-11-02T00:00:00Z", "private key (EC PRIVATE KEY) sha256:"} {
			if f != output.JSON {
				want = strings.ReplaceAll(want, `\"`, `"`)
			}
			if !strings.Contains(out, want) {
				t.Errorf("%s output lacks the summary part %q:\n%s", f, want, out)
			}
		}
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
