package firewall

import (
	"bufio"
	"fmt"
)

// firewalldMark is the priority every rich rule of ours carries. A rich
// rule has no name or comment, and removing one removes the rule of that
// exact text; without a mark, revoke would also remove an identical rule
// the host's owner had added by hand. The priority only orders the rule
// (before the zone's own rules, harmless for an accept of the nodes).
const firewalldMark = -30091

// writeFirewalld writes firewall-cmd calls for rich rules, runtime and
// permanent. A firewalld zone rejects what it does not allow, so accepting
// the nodes is all it takes. Adding or removing twice only warns.
func writeFirewalld(w *bufio.Writer, p *Plan) {
	shellHeader(w, "firewalld", p)
	fmt.Fprintln(w, "# The default zone; add --zone=ZONE to each call when the bootstrap interface is in another.")
	fmt.Fprintf(w, "# Rich rules cannot be named: these carry priority=\"%d\", by which revoke tells them from\n", firewalldMark)
	fmt.Fprintln(w, "# a rule added by hand (revoke would remove a hand-made rule only if it had that priority too).")
	op := "--add-rich-rule"
	if p.Revoke {
		op = "--remove-rich-rule"
	}
	for _, r := range RichRules(p) {
		for _, perm := range []string{"", " --permanent"} {
			fmt.Fprintf(w, "firewall-cmd%s %s='%s'\n", perm, op, r)
		}
	}
}

// RichRules are the firewalld rich rules of the plan, one per source, as
// firewalld lists them.
func RichRules(p *Plan) []string {
	var out []string
	for _, f := range p.families() {
		dest := ""
		if b := p.bindIn(f); b.IsValid() {
			dest = fmt.Sprintf(` destination address="%s"`, b)
		}
		for _, pfx := range p.Sources[f] {
			src := fmt.Sprintf(` source address="%s"`, pfx)
			if p.Anywhere {
				src = ""
			}
			out = append(out, fmt.Sprintf(`rule priority="%d" family="%s"%s%s port port="%d" protocol="tcp" accept`, firewalldMark, f, src, dest, p.Req.Port))
		}
	}
	return out
}
