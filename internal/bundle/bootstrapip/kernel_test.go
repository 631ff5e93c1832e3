package bootstrapip

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/testutil/tooltest"
)

// childEnv makes the test binary print what KernelRouteSource finds, from
// inside a network namespace the parent test prepared.
const childEnv = "KB_BOOTSTRAPIP_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		for _, fam := range []Family{IPv4, IPv6} {
			d, err := Detect(fam, nil, nil)
			fmt.Printf("%s: %v %v\n", fam, d.Addr, err)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestKernelRouteSource asks the real kernel inside private network
// namespaces: one with default routes over a veth pair (both families),
// one with nothing but loopback.
func TestKernelRouteSource(t *testing.T) {
	tooltest.Integration(t, "creates network namespaces")
	for _, tool := range []string{"unshare", "ip", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			tooltest.Missing(t, fmt.Sprintf("%s not on PATH (apt-get install util-linux iproute2): %v", tool, err))
		}
	}
	if os.Geteuid() != 0 {
		tooltest.Missing(t, fmt.Sprintf("creating network namespaces needs root (euid %d)", os.Geteuid()))
	}
	routed := `ip link set lo up
ip link add v0 type veth peer name v1
ip link set v0 up; ip link set v1 up
ip addr add 198.51.100.7/24 dev v0
ip route add default via 198.51.100.1
ip -6 addr add 2001:db8::7/64 dev v0 nodad
ip -6 route add default via 2001:db8::1
`
	cases := []struct{ name, setup, want string }{
		{"default routes", routed, "ipv4: 198.51.100.7 <nil>\nipv6: 2001:db8::7 <nil>\nneighbours: \n"},
		// Control: a datagram really sent does show up as a neighbour entry.
		{"control: a real send", routed + "echo x > /dev/udp/1.1.1.1/53\n",
			"ipv4: 198.51.100.7 <nil>\nipv6: 2001:db8::7 <nil>\nneighbours: 198.51.100.1 dev v0 INCOMPLETE\n"},
		{"loopback only", "ip link set lo up\n", "ipv4: invalid IP detect ipv4 bootstrap IP: no route to 1.1.1.1: dial udp4 1.1.1.1:53: connect: network is unreachable (set OPENSHIFT_INSTALL_BOOTSTRAP_NODE_IP to override)\n" +
			"ipv6: invalid IP detect ipv6 bootstrap IP: no route to 2001:4860:4860::8888: dial udp6 [2001:4860:4860::8888]:53: connect: network is unreachable (set OPENSHIFT_INSTALL_BOOTSTRAP_NODE_IP to override)\nneighbours: \n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// A sent packet would make the kernel resolve the gateway; an empty
			// neighbour table afterwards shows the "dial" sent nothing.
			script := "set -e\n" + tc.setup + `"$0"; echo "neighbours: $(ip neigh show | sed "s/ *$//")"`
			cmd := exec.Command("unshare", "--net", "bash", "-c", script, os.Args[0])
			cmd.Env = append(os.Environ(), childEnv+"=1")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("namespace run: %v\n%s", err, out)
			}
			if got := string(out); got != tc.want {
				t.Errorf("in namespace:\n%s\nwant:\n%s", got, tc.want)
			}
			if strings.Contains(string(out), "192.0.2.2") {
				t.Errorf("saw the host's address: the namespace leaked")
			}
		})
	}
}
