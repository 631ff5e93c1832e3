package firewall

import (
	"bufio"
	"fmt"
)

// writeFirewalld writes firewall-cmd calls for rich rules, runtime and
// permanent. A firewalld zone rejects what it does not allow, so accepting
// the nodes is all it takes. Adding or removing twice only warns.
func writeFirewalld(w *bufio.Writer, p *Plan) {
	shellHeader(w, "firewalld", p)
	fmt.Fprintln(w, "# The default zone; add --zone=ZONE to each call when the bootstrap interface is in another.")
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

// RichRules are the firewalld rich rules of the plan, one per source.
func RichRules(p *Plan) []string {
	var out []string
	for _, f := range p.Families() {
		dest := ""
		if b := p.BindIn(f); b.IsValid() {
			dest = fmt.Sprintf(` destination address="%s"`, b)
		}
		for _, pfx := range p.Sources[f] {
			src := fmt.Sprintf(` source address="%s"`, pfx)
			if p.Anywhere {
				src = ""
			}
			out = append(out, fmt.Sprintf(`rule family="%s"%s%s port port="%d" protocol="tcp" accept`, f, src, dest, p.Req.Port))
		}
	}
	return out
}
