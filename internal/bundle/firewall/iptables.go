package firewall

import (
	"bufio"
	"fmt"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
)

// iptChain is the chain the iptables form creates and jumps to.
const iptChain = "KONNECTIVITY-BOOTSTRAP"

// writeIptables writes an sh script for iptables and ip6tables: a chain of
// its own that accepts the nodes and drops everyone else, reached from
// INPUT only for the agent port. An ACCEPT is final for the filter table,
// so the same rules open the port on a default-drop INPUT and restrict it
// on a default-accept one.
func writeIptables(w *bufio.Writer, p *Plan) {
	shellHeader(w, "iptables", p)
	for _, f := range p.Req.guarded() {
		ipt := map[bootstrapip.Family]string{bootstrapip.IPv4: "iptables -w", bootstrapip.IPv6: "ip6tables -w"}[f]
		jump := fmt.Sprintf("INPUT -p tcp --dport %d%s -j %s", p.Req.Port, iptDest(p, f), iptChain)
		if p.Revoke {
			fmt.Fprintf(w, "if %s -C %s 2>/dev/null; then %s -D %s; fi\n", ipt, jump, ipt, jump)
			fmt.Fprintf(w, "if %s -n -L %s >/dev/null 2>&1; then %s -F %s && %s -X %s; fi\n", ipt, iptChain, ipt, iptChain, ipt, iptChain)
			continue
		}
		fmt.Fprintf(w, "%s -N %s 2>/dev/null || %s -F %s\n", ipt, iptChain, ipt, iptChain)
		for _, pfx := range p.Sources[f] {
			fmt.Fprintf(w, "%s -A %s -s %s -j ACCEPT\n", ipt, iptChain, pfx)
		}
		fmt.Fprintf(w, "%s -A %s -j DROP\n", ipt, iptChain)
		fmt.Fprintf(w, "%s -C %s 2>/dev/null || %s -I %s\n", ipt, jump, ipt, insertAt1(jump))
	}
}

func iptDest(p *Plan, f bootstrapip.Family) string {
	if b := p.bindIn(f); b.IsValid() {
		return " -d " + hostPrefix(b).String()
	}
	return ""
}

// insertAt1 turns "INPUT rest" into "INPUT 1 rest": first, before any
// rule of the host that would drop or accept the port.
func insertAt1(rule string) string { return "INPUT 1" + rule[len("INPUT"):] }
