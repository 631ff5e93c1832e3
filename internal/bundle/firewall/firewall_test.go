package firewall_test

import (
	"bytes"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/firewall"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/cli"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/goldenfile"
)

const source = "v1 Pod kube-system/konnectivity-server --agent-port; apps/v1 DaemonSet openshift-bootstrap-konnectivity/konnectivity-agent --proxy-server-host"

// planCase is a requirement and options whose every format is golden.
type planCase struct {
	name string
	req  firewall.Requirement
	opts firewall.Options
}

var (
	v4   = []bootstrapip.Family{bootstrapip.IPv4}
	v6   = []bootstrapip.Family{bootstrapip.IPv6}
	both = []bootstrapip.Family{bootstrapip.IPv4, bootstrapip.IPv6}
)

var planCases = []planCase{
	{"ipv4-two-subnets", firewall.Requirement{Port: 9443, Dial: "10.0.0.5", DialAddr: netip.MustParseAddr("10.0.0.5"), Families: v4, Source: source},
		firewall.Options{From: prefixes("10.0.0.0/24", "10.0.1.0/24")}},
	{"ipv6-bound", firewall.Requirement{Port: 8091, Dial: "fd00:10::5", DialAddr: netip.MustParseAddr("fd00:10::5"), Bind: netip.MustParseAddr("fd00:10::5"), Families: v6, Source: source},
		firewall.Options{From: prefixes("fd00:10::/64")}},
	{"dualstack-name", firewall.Requirement{Port: 8091, Dial: "bootstrap.cluster.example", Families: both, Source: source},
		firewall.Options{From: prefixes("10.0.0.0/24", "fd00:10::/64")}},
	{"ipv4-anywhere", firewall.Requirement{Port: 8091, Dial: "10.0.0.5", DialAddr: netip.MustParseAddr("10.0.0.5"), Families: v4, Source: source},
		firewall.Options{Anywhere: true}},
}

func prefixes(ss ...string) []netip.Prefix {
	var out []netip.Prefix
	for _, s := range ss {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}

// TestFormatsGolden: every format of every case, apply then revoke form,
// against a reviewed file; the nftables chain form too.
func TestFormatsGolden(t *testing.T) {
	for _, pc := range planCases {
		for _, format := range firewall.Formats() {
			t.Run(pc.name+"/"+format, func(t *testing.T) {
				goldenfile.Assert(t, filepath.Join("testdata", "golden", pc.name, format), bothForms(t, format, pc.req, pc.opts))
			})
		}
	}
	chain := planCases[2]
	chain.opts.NftChain = "inet filter input"
	goldenfile.Assert(t, filepath.Join("testdata", "golden", chain.name, "nftables-chain"), bothForms(t, "nftables", chain.req, chain.opts))
}

// bothForms is the apply form, a separator line, and the revoke form.
func bothForms(t *testing.T, format string, req firewall.Requirement, opts firewall.Options) []byte {
	t.Helper()
	var out bytes.Buffer
	for _, revoke := range []bool{false, true} {
		if revoke {
			out.WriteString("\n######## --revoke ########\n\n")
		}
		opts.Revoke = revoke
		out.Write(render(t, format, req, opts))
	}
	return out.Bytes()
}

// infraID is the cluster the golden cases' cloud rules are for.
const infraID = "mycluster-x7k2p"

// render writes one form; a cloud format gets the cluster's infraID
// unless opts name another.
func render(t *testing.T, format string, req firewall.Requirement, opts firewall.Options) []byte {
	t.Helper()
	if firewall.IsCloud(format) && opts.InfraID == "" {
		opts.InfraID = infraID
	}
	p, err := firewall.NewPlan(req, opts)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := p.WriteFormat(&b, output.Format(format)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestPlanErrors: every refusal names the flag or object and the fix.
func TestPlanErrors(t *testing.T) {
	ipv4 := firewall.Requirement{Port: 8091, Dial: "10.0.0.5", DialAddr: netip.MustParseAddr("10.0.0.5"), Families: v4, Source: source}
	for _, tc := range []struct {
		name string
		req  firewall.Requirement
		opts firewall.Options
		want string
	}{
		{"no source", ipv4, firewall.Options{}, "--from is required: give the node network"},
		{"both sources", ipv4, firewall.Options{From: prefixes("10.0.0.0/24"), Anywhere: true}, "--from and --from-anywhere exclude each other"},
		{"family the bundle does not use", ipv4, firewall.Options{From: prefixes("fd00::/64")}, "--from fd00::/64 is ipv6, but agents reach the server over ipv4 only (they dial 10.0.0.5"},
		{"family the bundle does not use: the fix reads", ipv4, firewall.Options{From: prefixes("fd00::/64")}, "; give an ipv4 CIDR of the node network"},
		{"no family", firewall.Requirement{Port: 8091, Dial: "10.0.0.5", DialAddr: netip.MustParseAddr("10.0.0.5")}, firewall.Options{Anywhere: true}, "names no address family"},
		{"bad chain", ipv4, firewall.Options{From: prefixes("10.0.0.0/24"), NftChain: "filter input"}, "--nft-chain \"filter input\": give FAMILY TABLE CHAIN"},
		{"chain of the wrong family", ipv4, firewall.Options{From: prefixes("10.0.0.0/24"), NftChain: "ip6 filter input"}, "must be inet (or ip/ip6 matching every --from)"},
		{"no port", firewall.Requirement{Dial: "10.0.0.5", DialAddr: netip.MustParseAddr("10.0.0.5"), Families: v4}, firewall.Options{Anywhere: true}, "agent port 0 is not a TCP port"},
		{"every IPv4 address as --from", ipv4, firewall.Options{From: prefixes("0.0.0.0/0")}, "--from 0.0.0.0/0 allows every address: give the node network's CIDR, or --from-anywhere (alone)"},
		{"every IPv6 address as --from", firewall.Requirement{Port: 8091, Dial: "fd00::5", DialAddr: netip.MustParseAddr("fd00::5"), Families: v6, Source: source}, firewall.Options{From: prefixes("::/0")}, "--from ::/0 allows every address"},
		{"chain with a command", ipv4, firewall.Options{From: prefixes("10.0.0.0/24"), NftChain: "inet filter input;touch${IFS}X"}, `the chain name "input;touch${IFS}X" is not an nft identifier`},
		{"chain with a quote", ipv4, firewall.Options{From: prefixes("10.0.0.0/24"), NftChain: "inet fil'ter input"}, `the table name "fil'ter" is not an nft identifier`},
		{"chain split by a tab", ipv4, firewall.Options{From: prefixes("10.0.0.0/24"), NftChain: "inet filter\tinput"}, "separated by single spaces"},
		{"infra ID with a command", ipv4, firewall.Options{From: prefixes("10.0.0.0/24"), InfraID: "c1$(id)"}, `--infra-id "c1$(id)" is not an infrastructure ID`},
		{"infra ID too long", ipv4, firewall.Options{From: prefixes("10.0.0.0/24"), InfraID: strings.Repeat("a", 33)}, "at most 32 characters"},
		{"infra ID starting with a digit", ipv4, firewall.Options{From: prefixes("10.0.0.0/24"), InfraID: "1cluster"}, "start with a letter"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := firewall.NewPlan(tc.req, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestParseFrom(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"10.0.0.0/24", ""},
		{"fd00:10::/64", ""},
		{"10.0.0.5", `--from "10.0.0.5" is not a CIDR: give the node network as ADDRESS/BITS`},
		{"10.0.0.0/33", "is not a CIDR"},
		{"nodes", "is not a CIDR"},
		{"10.0.0.5/24", "--from 10.0.0.5/24 has host bits set: give the network, --from 10.0.0.0/24"},
		{"::ffff:10.0.0.0/120", "IPv4-mapped"},
		{"0.0.0.0/0", "--from 0.0.0.0/0 allows every address"},
		{"::/0", "--from ::/0 allows every address"},
	} {
		_, err := firewall.ParseFrom(tc.in)
		if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("ParseFrom(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

// ports runs `konnectivity-bundle ports ARGS` in-process and returns its
// output; a non-zero exit fails the test.
func ports(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errb := runPorts(args...)
	if code != 0 {
		t.Fatalf("ports %v: exit %d: %s", args, code, errb)
	}
	return out
}

func runPorts(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	io := cli.IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	code := cli.New(cli.Config{}).Main(append([]string{cli.ProgramName, "ports"}, args...), io)
	return code, out.String(), errb.String()
}

func diff(t *testing.T, want, got string) string {
	return goldenfile.Diff(t, []byte(want), []byte(got))
}

// TestRepeatedFromOnce: a --from given twice, or spelled two ways, is one
// source in every format, in the order first given: AWS refuses a
// permission listing one range twice, and the other formats would repeat
// the rule. The output is the same as with each network given once.
func TestRepeatedFromOnce(t *testing.T) {
	for _, tc := range []struct {
		name             string
		req              firewall.Requirement
		repeated, unique []netip.Prefix
	}{
		{"ipv4", planCases[0].req, prefixes("10.0.0.0/24", "10.0.1.0/24", "10.0.0.0/24", "10.0.1.0/24"), prefixes("10.0.0.0/24", "10.0.1.0/24")},
		{"dual-stack, IPv6 spelled two ways", planCases[2].req, prefixes("fd00:10::/64", "10.0.0.0/24", "fd00:10:0:0::/64", "10.0.0.0/24"), prefixes("fd00:10::/64", "10.0.0.0/24")},
	} {
		for _, format := range firewall.Formats() {
			t.Run(tc.name+"/"+format, func(t *testing.T) {
				got := bothForms(t, format, tc.req, firewall.Options{From: tc.repeated})
				want := bothForms(t, format, tc.req, firewall.Options{From: tc.unique})
				if !bytes.Equal(got, want) {
					t.Fatalf("--from repeated:\n%s\nwant as given once:\n%s", got, want)
				}
				for _, pfx := range tc.unique {
					if n := strings.Count(string(render(t, format, tc.req, firewall.Options{From: tc.repeated})), pfx.String()); n == 0 {
						t.Fatalf("%s is not in the rules", pfx)
					}
				}
			})
		}
	}
}
