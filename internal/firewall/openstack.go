package firewall

import (
	"bufio"
	"fmt"
)

// writeOpenStack writes openstack calls: one ingress rule per source on
// the bootstrap server's security group. Rules have no name, so the revoke
// form finds them by protocol, port and remote prefix.
func writeOpenStack(w *bufio.Writer, p *Plan) {
	shellHeader(w, "openstack", p, [2]string{"BOOTSTRAP_SG", "the bootstrap server's security group (name or ID)"})
	for _, in := range ingresses(p) {
		if p.Revoke {
			fmt.Fprintf(w, "openstack security group rule list \"$BOOTSTRAP_SG\" --ingress --protocol tcp -f value -c ID -c 'IP Range' -c 'Port Range' |\n")
			fmt.Fprintf(w, "  awk '$2 == \"%s\" && $3 == \"%d:%d\" { print $1 }' |\n", in.CIDR, p.Req.Port, p.Req.Port)
			fmt.Fprintln(w, "  while read -r id; do openstack security group rule delete \"$id\"; done")
			continue
		}
		ether := map[Family]string{IPv4: "IPv4", IPv6: "IPv6"}[in.Family]
		fmt.Fprintf(w, "openstack security group rule create --ingress --ethertype %s --protocol tcp --dst-port %d \\\n", ether, p.Req.Port)
		fmt.Fprintf(w, "  --remote-ip %s --description %s \"$BOOTSTRAP_SG\"\n", in.CIDR, shellQuote(ruleDescription))
	}
}
