package firewall

import (
	"bufio"
	"fmt"
)

// writeAzure writes az calls: one inbound NSG rule per family (a rule
// cannot mix families), destined to the address agents dial.
func writeAzure(w *bufio.Writer, p *Plan) {
	shellHeader(w, "azure", p,
		[2]string{"AZ_RESOURCE_GROUP", "the cluster's resource group"},
		[2]string{"AZ_NSG", "the network security group of the bootstrap NIC or subnet"})
	fmt.Fprintln(w, "priority=${AZ_PRIORITY:-200} # any free priority; a second family takes the next one")
	for i, f := range p.Families() {
		name := fmt.Sprintf("%s-%s", RuleName, f)
		if p.Revoke {
			fmt.Fprintf(w, "az network nsg rule delete --resource-group \"$AZ_RESOURCE_GROUP\" --nsg-name \"$AZ_NSG\" --name %s\n", name)
			continue
		}
		dest := "'*'"
		if a, ok := dialAddr(p, f); ok {
			dest = a.String()
		}
		fmt.Fprintf(w, "az network nsg rule create --resource-group \"$AZ_RESOURCE_GROUP\" --nsg-name \"$AZ_NSG\" --name %s \\\n", name)
		fmt.Fprintf(w, "  --priority \"$((priority + %d))\" --direction Inbound --access Allow --protocol Tcp \\\n", i)
		fmt.Fprintf(w, "  --source-address-prefixes %s --source-port-ranges '*' \\\n", prefixes(p, f, " "))
		fmt.Fprintf(w, "  --destination-address-prefixes %s --destination-port-ranges %d \\\n", dest, p.Req.Port)
		fmt.Fprintf(w, "  --description %s\n", shellQuote(ruleDescription))
	}
}
