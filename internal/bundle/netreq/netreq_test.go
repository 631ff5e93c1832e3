package netreq

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/goldenfile"
)

func TestRequirements(t *testing.T) {
	golden := func(o string) string { return filepath.Join(tooltest.RepoRoot(), "testdata", "golden", o+".yaml") }
	for _, tc := range []struct {
		name, in   string
		enabled    bool
		tunnelPort int
		tunnelTo   string
		fromHas    string
		warnings   []string
		local      map[string]int // purpose prefix -> port
	}{
		{name: "ipv4", in: golden("ipv4"), enabled: true, tunnelPort: 8091, tunnelTo: "192.0.2.10", fromHas: "any taint tolerated), pod network",
			local: map[string]int{"server /healthz": 2041, "server /metrics": 8095, "agent /healthz": 2041, "agent admin": 8094}},
		{name: "ipv6", in: golden("ipv6"), enabled: true, tunnelPort: 8091, tunnelTo: "2001:db8::10", fromHas: "pod network"},
		{name: "upi", in: golden("upi"), enabled: true, tunnelPort: 9091, tunnelTo: "192.0.2.10",
			fromHas: "nodes labelled node-role.kubernetes.io/worker; 2 tolerations), pod network"},
		{name: "sno", in: golden("sno")},
		{name: "mismatch", in: "testdata/in/mismatch.yaml", enabled: true, tunnelPort: 8091, tunnelTo: "192.0.2.10", fromHas: "pod network",
			warnings: []string{"agents dial port 8092 (--proxy-server-port) but the server listens on 8091", "binds its agent port to 192.0.2.99"}},
		{name: "hostnetwork-defaults", in: "testdata/in/hostnetwork-defaults.yaml", enabled: true, tunnelPort: 7091, tunnelTo: "192.0.2.10",
			fromHas: "node network (hostNetwork)", warnings: []string{"agents dial port 8091 (--proxy-server-port) but the server listens on 7091"},
			local: map[string]int{"server /healthz": 8092, "agent admin": 8094}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := requirementsOf(t, tc.name, tc.in)
			if rep.Enabled != tc.enabled {
				t.Fatalf("Enabled = %v, want %v", rep.Enabled, tc.enabled)
			}
			if tc.enabled {
				checkTunnel(t, rep, tc.tunnelPort, tc.tunnelTo, tc.fromHas)
			} else if len(rep.Requirements) != 0 {
				t.Errorf("disabled bundle has requirements %+v", rep.Requirements)
			}
			for prefix, port := range tc.local {
				if q := find(rep, prefix); q == nil || q.Port != port || q.Scope != scopeHost {
					t.Errorf("%s: got %+v, want host-local port %d", prefix, q, port)
				}
			}
			if len(rep.Warnings) != len(tc.warnings) {
				t.Errorf("warnings %q, want %d", rep.Warnings, len(tc.warnings))
			}
			for _, w := range tc.warnings {
				if !strings.Contains(strings.Join(rep.Warnings, "\n"), w) {
					t.Errorf("warnings %q lack %q", rep.Warnings, w)
				}
			}
			checkOutputs(t, tc.name, rep)
		})
	}
}

func requirementsOf(t *testing.T, label, file string) *Report {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	b, err := bundlemodel.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Requirements(label, b)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// checkTunnel: exactly one requirement crosses the network, the agent port
// to the bootstrap IP, for the bootstrap phase only.
func checkTunnel(t *testing.T, rep *Report, port int, to, fromHas string) {
	t.Helper()
	var net []Requirement
	for _, q := range rep.Requirements {
		if q.Scope == scopeNetwork {
			net = append(net, q)
		}
	}
	if len(net) != 1 {
		t.Fatalf("%d network requirements, want only the agent tunnel: %+v", len(net), net)
	}
	q := net[0]
	if q.Protocol != "tcp" || q.Port != port || !strings.HasSuffix(q.To, " "+to) || !strings.Contains(q.From, fromHas) || !strings.HasPrefix(q.Duration, "bootstrap phase only") {
		t.Errorf("tunnel %+v, want tcp %d to %s from ...%s... for the bootstrap phase only", q, port, to, fromHas)
	}
	if uds := find(rep, "kube-apiserver egress"); uds == nil || uds.Protocol != "unix" || uds.Path != "/etc/kubernetes/bootstrap-configs/konnectivity-server.socket" {
		t.Errorf("socket requirement %+v, want the host path of --uds-name", uds)
	}
}

func find(rep *Report, purposePrefix string) *Requirement {
	for i, q := range rep.Requirements {
		if strings.HasPrefix(q.Purpose, purposePrefix) {
			return &rep.Requirements[i]
		}
	}
	return nil
}

func checkOutputs(t *testing.T, name string, rep *Report) {
	t.Helper()
	for ext, write := range map[string]func(*bytes.Buffer) error{
		"txt":  func(b *bytes.Buffer) error { return rep.WriteText(b) },
		"json": func(b *bytes.Buffer) error { return output.Write(b, output.JSON, rep) },
	} {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			t.Fatal(err)
		}
		goldenfile.Assert(t, filepath.Join("testdata", "want", name+"."+ext), buf.Bytes())
	}
}

func TestRequirementsErrors(t *testing.T) {
	b, err := bundlemodel.Parse(mustRead(t, "testdata/in/no-agent.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Requirements("x", b); err == nil || !strings.Contains(err.Error(), "has a server pod but no agent DaemonSet") {
		t.Fatalf("error %v, want the missing DaemonSet named", err)
	}
	bad := strings.Replace(string(mustRead(t, filepath.Join(tooltest.RepoRoot(), "testdata", "golden", "ipv4.yaml"))), "--agent-port=8091", "--agent-port=http", 1)
	b, _ = bundlemodel.Parse([]byte(bad))
	if _, err := Requirements("x", b); err == nil || !strings.Contains(err.Error(), `--agent-port="http" is not a port number`) {
		t.Fatalf("error %v, want the bad port named", err)
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
