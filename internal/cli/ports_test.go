package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/firewall"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/render"
)

func TestPortsCommand(t *testing.T) {
	root := t.TempDir()
	if _, err := render.Run(context.Background(), render.Options{Overlay: "ipv6", Root: root, BootstrapIP: netip.MustParseAddr("2001:db8::10"), Image: goldenImage}); err != nil {
		t.Fatal(err)
	}
	upi := filepath.Join(tooltest.RepoRoot(), "overlays", "upi")
	empty := t.TempDir() // like `ports /` on a host render has not run on
	runCLICases(t, []cliCase{
		{"customised overlay dir", []string{"ports", upi}, 0, []string{"TCP 9091  agent tunnel", "to:     the bootstrap host 192.0.2.10", "nodes labelled node-role.kubernetes.io/worker"}, ""},
		{"golden file", []string{"ports", golden("ipv4")}, 0, []string{"TCP 8091  agent tunnel", "unix socket /etc/kubernetes/bootstrap-configs/konnectivity-server.socket"}, ""},
		{"rendered root", []string{"ports", root}, 0, []string{"Network requirements of the host root " + root, "to:     the bootstrap host 2001:db8::10"}, ""},
		{"overlay name with inputs", []string{"ports", "--bootstrap-ip", "192.0.2.77", "--image", goldenImage, "dualstack"}, 0, []string{"the bootstrap host 192.0.2.77"}, ""},
		{"bootstrap-in-place", []string{"ports", golden("sno")}, 0, []string{"None: the bundle deploys no Konnectivity tunnel"}, ""},
		{"bad output", []string{"ports", "-o", "yaml", upi}, 2, nil, `invalid argument "yaml" for "-o, --output" flag: use one of text, json, aws,`},
		{"two args", []string{"ports", upi, upi}, 2, nil, "at most one"},
		{"unknown target", []string{"ports", "nope"}, 1, nil, `"nope" is not a file, a directory or an overlay`},
		{"a root with nothing rendered", []string{"ports", empty}, 1, nil, empty + ": nothing rendered here (no var/lib/konnectivity-bundle/state.json)"},
	})
}

func TestPortsCommandJSON(t *testing.T) {
	code, stdout, stderr := runCLI(t, "", "ports", "-o", "json", filepath.Join(tooltest.RepoRoot(), "overlays", "upi"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep struct {
		Enabled      bool
		Requirements []struct {
			Protocol, Scope, To string
			Port                int
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	if !rep.Enabled || len(rep.Requirements) == 0 || rep.Requirements[0].Port != 9091 || rep.Requirements[0].Scope != "network" {
		t.Fatalf("report %+v, want the agent tunnel on 9091 first", rep)
	}
}

// TestPortsRules: the rule formats read the same bundle as the report, so a
// patched agent port or bind address is what the rules open; bad input is a
// usage error or a read error naming the flag or object and the fix.
func TestPortsRules(t *testing.T) {
	upi := filepath.Join(tooltest.RepoRoot(), "overlays", "upi")
	raw, err := os.ReadFile(golden("ipv4"))
	if err != nil {
		t.Fatal(err)
	}
	bound := strings.Replace(string(raw), "    - --agent-port=8091\n", "    - --agent-port=8091\n    - --agent-bind-address=192.0.2.10\n", 1)
	for _, tc := range []struct {
		name   string
		stdin  string
		args   []string
		code   int
		stdout []string
		stderr string
	}{
		{"patched port from an overlay", "", []string{"ports", "-o", "nftables", "--from", "192.0.2.0/24", upi}, 0, []string{"ip saddr { 192.0.2.0/24 } tcp dport 9091 accept", "tcp dport 9091 drop"}, ""},
		{"bind address flows through", bound, []string{"ports", "-o", "iptables", "--from", "192.0.2.0/24", "-"}, 0, []string{"-I INPUT 1 -p tcp --dport 8091 -d 192.0.2.10/32 -j KONNECTIVITY-BOOTSTRAP"}, ""},
		{"revoke", "", []string{"ports", "-o", "nftables", "--from", "192.0.2.0/24", "--revoke", golden("ipv4")}, 0, []string{"delete table inet konnectivity_bootstrap"}, ""},
		{"anywhere, explicitly", "", []string{"ports", "-o", "firewalld", "--from-anywhere", golden("ipv4")}, 0, []string{`rule priority="-30091" family="ipv4" port port="8091" protocol="tcp" accept`}, ""},
		{"from is not a CIDR", "", []string{"ports", "-o", "nftables", "--from", "10.0.0.5", golden("ipv4")}, 2, nil, `--from "10.0.0.5" is not a CIDR: give the node network as ADDRESS/BITS`},
		{"no from", "", []string{"ports", "-o", "aws", "--infra-id", "c1", golden("ipv4")}, 2, nil, "--from is required"},
		{"family the bundle does not use", "", []string{"ports", "-o", "nftables", "--from", "fd00::/64", golden("ipv4")}, 1, nil, "--from fd00::/64 is ipv6, but agents reach the server over ipv4 only"},
		{"bundle without a server", "", []string{"ports", "-o", "nftables", "--from", "192.0.2.0/24", golden("sno")}, 1, nil, "the bundle has no proxy-server static pod, so there is no agent port to open"},
		{"rule flags with text", "", []string{"ports", "--from", "192.0.2.0/24", golden("ipv4")}, 2, nil, "apply to the rule formats only"},
		{"nft-chain with iptables", "", []string{"ports", "-o", "iptables", "--from", "192.0.2.0/24", "--nft-chain", "inet filter input", golden("ipv4")}, 2, nil, "--nft-chain applies to --output nftables only"},
		{"nft-chain with a command", "", []string{"ports", "-o", "nftables", "--from", "192.0.2.0/24", "--nft-chain", "inet filter input;touch${IFS}X", golden("ipv4")}, 2, nil, `the chain name "input;touch${IFS}X" is not an nft identifier`},
		{"nft-chain of a family no --from has", "", []string{"ports", "-o", "nftables", "--from", "192.0.2.0/24", "--nft-chain", "ip6 filter input", golden("ipv4")}, 1, nil, "the chain's family must be inet (or ip/ip6 matching every --from)"},
		{"cloud rules carry the cluster", "", []string{"ports", "-o", "gcp", "--from", "192.0.2.0/24", "--infra-id", "c1-x7k2p", golden("ipv4")}, 0, []string{"gcloud compute firewall-rules create c1-x7k2p-konnectivity-bootstrap-ipv4 "}, ""},
		{"cloud without infra-id", "", []string{"ports", "-o", "azure", "--from", "192.0.2.0/24", golden("ipv4")}, 2, nil, "--infra-id is required for --output azure"},
		{"infra-id on a host format", "", []string{"ports", "-o", "nftables", "--from", "192.0.2.0/24", "--infra-id", "c1", golden("ipv4")}, 2, nil, "--infra-id applies to the cloud formats only"},
		{"infra-id that is not one", "", []string{"ports", "-o", "aws", "--from", "192.0.2.0/24", "--infra-id", "c1;id", golden("ipv4")}, 2, nil, `--infra-id "c1;id" is not an infrastructure ID`},
		{"every address as a CIDR", "", []string{"ports", "-o", "iptables", "--from", "0.0.0.0/0", golden("ipv4")}, 2, nil, "--from 0.0.0.0/0 allows every address: give the node network's CIDR, or --from-anywhere"},
		{"a host check refuses", hostile("- --proxy-server-host=192.0.2.10", "- \"--proxy-server-host=evil.example\\ntouch /tmp/x #\""), []string{"ports", "-o", "iptables", "--from", "192.0.2.0/24", "-"}, 1,
			nil, `[proxy-server-host-invalid] DaemonSet openshift-bootstrap-konnectivity/konnectivity-agent spec.template.spec.containers[0].args[4]: --proxy-server-host="evil.example\ntouch /tmp/x #" is neither an IP address nor a DNS name`},
		{"a loopback host", hostile("--proxy-server-host=192.0.2.10", "--proxy-server-host=127.0.0.1"), []string{"ports", "-o", "nftables", "--from", "192.0.2.0/24", "-"}, 1,
			nil, "--proxy-server-host=127.0.0.1 is not the bootstrap node"},
		{"a name check refuses", hostile("name: konnectivity-server\n  namespace: kube-system", "name: konnectivity-server\n  namespace: \"kube-system\\ntouch /tmp/x #\""), []string{"ports", "-o", "nftables", "--from", "192.0.2.0/24", "-"}, 1,
			nil, `[object-name-invalid] "Pod kube-system\ntouch /tmp/x #/konnectivity-server" metadata.namespace: metadata.namespace "kube-system\ntouch /tmp/x #" is not a valid Kubernetes name`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.stdin, tc.args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.code, stdout, stderr)
			}
			for _, s := range tc.stdout {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, stdout)
				}
			}
			if !strings.Contains(stderr, tc.stderr) {
				t.Errorf("stderr %q lacks %q", stderr, tc.stderr)
			}
			if code != 0 && stdout != "" {
				t.Errorf("a refused call wrote rules:\n%s", stdout)
			}
		})
	}
}

// hostile is the ipv4 golden bundle with old replaced by with (once).
func hostile(old, with string) string {
	raw, err := os.ReadFile(golden("ipv4"))
	if err != nil || !strings.Contains(string(raw), old) {
		panic(fmt.Sprintf("the ipv4 golden bundle lacks %q (%v)", old, err))
	}
	return strings.Replace(string(raw), old, with, 1)
}

// TestPortsRepeatedFrom: ports with the same --from twice writes every
// rule format as with it once (AWS refuses one range twice in a
// permission; the others would repeat the rule).
func TestPortsRepeatedFrom(t *testing.T) {
	for _, format := range firewall.Formats() {
		t.Run(format, func(t *testing.T) {
			args := []string{"ports", "-o", format, golden("ipv4")}
			if firewall.IsCloud(format) {
				args = append(args, "--infra-id", "mycluster-x7k2p")
			}
			twice := append(slices.Clone(args), "--from", "10.0.0.0/24", "--from", "10.0.1.0/24", "--from", "10.0.0.0/24")
			onceEach := append(slices.Clone(args), "--from", "10.0.0.0/24", "--from", "10.0.1.0/24")
			code, want, stderr := runCLI(t, "", onceEach...)
			if code != 0 || !strings.Contains(want, "10.0.1.0/24") {
				t.Fatalf("once each: exit %d, stdout:\n%s\nstderr:\n%s", code, want, stderr)
			}
			code, repeated, stderr := runCLI(t, "", twice...)
			if code != 0 {
				t.Fatalf("twice: exit %d, stderr:\n%s", code, stderr)
			}
			if repeated != want {
				t.Fatalf("--from 10.0.0.0/24 given twice:\n%s\nwant as given once:\n%s", repeated, want)
			}
		})
	}
}

// TestPortsNotABundle: ports given what is no bundle (a text file, on
// stdin or named) says so as check does, and fails, instead of printing
// that the bundle deploys no tunnel. (An empty stream is read as the
// bootstrap-in-place bundle it may be: overlay sno builds one.)
func TestPortsNotABundle(t *testing.T) {
	text := filepath.Join(t.TempDir(), "passwd")
	if err := os.WriteFile(text, []byte("root:x:0:0:root:/root:/bin/bash\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const fix = "; give ports a bundle: the output of konnectivity-bundle build or kustomize build, an overlay name, a kustomization directory, or a root render wrote\n"
	for _, tc := range []struct {
		name, stdin string
		args        []string
		stderr      string
	}{
		{"text on stdin", "a: b\n", []string{"ports", "-"}, `stdin: not a bundle: none of its 1 YAML document(s) is a Kubernetes object (apiVersion and kind); the first is a mapping without apiVersion and kind, beginning "a: b"` + fix},
		{"a text file", "", []string{"ports", text}, text + `: not a bundle: none of its 1 YAML document(s) is a Kubernetes object (apiVersion and kind); the first is plain text (a YAML scalar), beginning "root:x:0:0:root:/root:/bin/bash"` + fix},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.stdin, tc.args...)
			if code != 1 || stdout != "" || stderr != ProgramName+" ports: "+tc.stderr {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 1, no stdout, stderr:\n%s", code, stdout, stderr, ProgramName+" ports: "+tc.stderr)
			}
		})
	}
}
