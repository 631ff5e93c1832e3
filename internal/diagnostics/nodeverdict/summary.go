package nodeverdict

import (
	"fmt"
	"strings"

	"net/netip"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/firewall"
)

// causeOrder ranks causes for ties in the summary: the earlier in a node's
// life, the more it explains.
var causeOrder = []Cause{NoDaemonSet, NotSelected, TaintNotTolerated, NodeNotReady, NoPod, NotScheduled,
	ImagePull, SecretMissing, ConfigError, CrashLoop, PodNotRunning, HandshakeRefused, PortBlocked, NotReady, ServerDown, NotCounted}

// summarize picks the cause most nodes not connected share; ties go to the
// cause earlier in causeOrder. Nil when every node is connected or none
// should run an agent.
func summarize(lines []Line) *Summary {
	count := map[Cause]int{}
	first := map[Cause]Line{}
	of := 0
	for _, l := range lines {
		if l.Cause == Connected {
			continue
		}
		of++
		if count[l.Cause] == 0 {
			first[l.Cause] = l
		}
		count[l.Cause]++
	}
	var best Cause
	for _, c := range causeOrder {
		if count[c] > count[best] {
			best = c
		}
	}
	if best == "" {
		return nil
	}
	l := first[best]
	return &Summary{Cause: best, Nodes: count[best], Of: of, Detail: l.Node + ": " + l.Detail, Fix: l.Fix}
}

// portRule says where to open the agent port for one node: the rule on
// the bootstrap host as `ports` writes it, and the same in any firewall
// or security group on the way.
func (st *state) portRule(nodeAddr string) string {
	ip, ok := bootstrapip.ParseAddr(nodeAddr)
	if !ok || st.in.Port <= 0 {
		return fmt.Sprintf("from the node to %s port %d (konnectivity-bundle ports)", st.in.Tunnel.Host, st.in.Port)
	}
	req := firewall.Requirement{Port: st.in.Port, Dial: st.in.Tunnel.Host, DialAddr: st.in.Tunnel.Addr, Families: []bootstrapip.Family{bootstrapip.FamilyOf(ip)}}
	plan, err := firewall.NewPlan(req, firewall.Options{From: []netip.Prefix{netip.PrefixFrom(ip, ip.BitLen())}})
	if err != nil {
		return fmt.Sprintf("tcp %d from %s to %s (konnectivity-bundle ports)", st.in.Port, nodeAddr, st.in.Tunnel.Host)
	}
	ipt := "iptables"
	if !ip.Is4() {
		ipt = "ip6tables"
	}
	from := plan.Sources[bootstrapip.FamilyOf(ip)][0]
	return fmt.Sprintf("tcp %d from %s to %s: on the bootstrap host `konnectivity-bundle ports %s --output nftables --from %s` writes the rule (by hand: %s -w -I INPUT -p tcp -s %s --dport %d -j ACCEPT), and allow the same in every firewall or security group between them",
		st.in.Port, nodeAddr, st.in.Tunnel.Host, st.in.root(), from, ipt, from, st.in.Port)
}

// String is the line as text: node (address) pod: cause: detail.
func (l Line) String() string {
	var b strings.Builder
	b.WriteString(l.Node)
	if l.Address != "" {
		b.WriteString(" (" + l.Address + ")")
	}
	if l.Pod != "" {
		b.WriteString(" pod " + l.Pod)
	}
	fmt.Fprintf(&b, ": %s: %s", l.Cause, l.Detail)
	return b.String()
}
