package firewall

import (
	"bufio"
	"fmt"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
)

// writeOpenStack writes openstack calls: one ingress rule per source on
// the bootstrap server's security group. Rules have no name, so each
// carries the cluster's description, and the revoke form deletes the
// ingress rules whose description is exactly that: an identical rule of
// the user's or another cluster's stays.
func writeOpenStack(w *bufio.Writer, p *Plan) {
	shellHeader(w, "openstack", p, [2]string{"BOOTSTRAP_SG", "the bootstrap server's security group (name or ID)"})
	desc := shellQuote(p.description())
	if p.Revoke {
		fmt.Fprintln(w, "openstack security group rule list \"$BOOTSTRAP_SG\" --ingress --protocol tcp -f value -c ID |")
		fmt.Fprintln(w, "while read -r id; do")
		fmt.Fprintf(w, "  if [ \"$(openstack security group rule show \"$id\" -f value -c description)\" = %s ]; then\n", desc)
		fmt.Fprintln(w, "    openstack security group rule delete \"$id\"")
		fmt.Fprintln(w, "  fi")
		fmt.Fprintln(w, "done")
		return
	}
	for _, in := range ingresses(p) {
		ether := map[bootstrapip.Family]string{bootstrapip.IPv4: "IPv4", bootstrapip.IPv6: "IPv6"}[in.Family]
		fmt.Fprintf(w, "openstack security group rule create --ingress --ethertype %s --protocol tcp --dst-port %d \\\n", ether, p.Req.Port)
		fmt.Fprintf(w, "  --remote-ip %s --description %s \"$BOOTSTRAP_SG\"\n", in.CIDR, desc)
	}
}
