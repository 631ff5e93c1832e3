package firewall

import (
	"bufio"
	"fmt"
)

// writeAzure writes az calls: one inbound NSG rule per family (a rule
// cannot mix families), destined to the address agents dial, named after
// the cluster. Priorities must be unique per direction within an NSG, so
// the script takes the first free ones from $AZ_PRIORITY (200) up rather
// than a fixed one another cluster may hold.
func writeAzure(w *bufio.Writer, p *Plan) {
	shellHeader(w, "azure", p,
		[2]string{"AZ_RESOURCE_GROUP", "the cluster's resource group"},
		[2]string{"AZ_NSG", "the network security group of the bootstrap NIC or subnet"})
	if p.Revoke {
		for _, f := range p.families() {
			fmt.Fprintf(w, "az network nsg rule delete --resource-group \"$AZ_RESOURCE_GROUP\" --nsg-name \"$AZ_NSG\" --name %s\n", p.ruleName(f, 0))
		}
		return
	}
	fmt.Fprintln(w, `taken=$(az network nsg rule list --resource-group "$AZ_RESOURCE_GROUP" --nsg-name "$AZ_NSG" \`)
	fmt.Fprintln(w, `  --query "[?direction=='Inbound'].priority" --output tsv)`)
	fmt.Fprintln(w, `taken=" $(echo $taken) " # the inbound priorities already taken, on one line: " 100 200 "`)
	fmt.Fprintln(w, "priority=${AZ_PRIORITY:-200}")
	for _, f := range p.families() {
		dest := "'*'"
		if a, ok := dialAddr(p, f); ok {
			dest = a.String()
		}
		fmt.Fprintln(w, `while case "$taken" in *" $priority "*) true ;; *) false ;; esac; do priority=$((priority + 1)); done`)
		fmt.Fprintf(w, "az network nsg rule create --resource-group \"$AZ_RESOURCE_GROUP\" --nsg-name \"$AZ_NSG\" --name %s \\\n", p.ruleName(f, 0))
		fmt.Fprintln(w, "  --priority \"$priority\" --direction Inbound --access Allow --protocol Tcp \\")
		fmt.Fprintf(w, "  --source-address-prefixes %s --source-port-ranges '*' \\\n", prefixes(p, f, " "))
		fmt.Fprintf(w, "  --destination-address-prefixes %s --destination-port-ranges %d \\\n", dest, p.Req.Port)
		fmt.Fprintf(w, "  --description %s\n", shellQuote(p.description()))
		fmt.Fprintln(w, `taken="$taken$priority "`)
	}
}
