package firewall

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
)

// nftTable is the table the own-table form creates; nft names take no dash.
const nftTable = "konnectivity_bootstrap"

// writeNftables writes an `nft -f` file that replaces the own table (so
// applying twice gives one copy), or, with --nft-chain, a script that adds
// accept rules to the host's existing chain.
func writeNftables(w *bufio.Writer, p *Plan) {
	if p.NftChain != nil {
		writeNftChain(w, p)
		return
	}
	fmt.Fprintln(w, "#!/usr/sbin/nft -f")
	header(w, "#", "nftables", p)
	fmt.Fprintln(w, "# Its own table: the nodes are accepted here, everyone else is dropped on the agent port,")
	fmt.Fprintln(w, "# every other port is left to the host's rules. For a host whose firewall lets the port")
	fmt.Fprintln(w, "# through (policy accept); on a default-drop nftables host use --nft-chain instead.")
	// Declaring, then deleting, makes the delete succeed whether or not
	// the table exists; nft applies the whole file atomically.
	fmt.Fprintf(w, "table inet %s\ndelete table inet %s\n", nftTable, nftTable)
	if p.Revoke {
		return
	}
	fmt.Fprintf(w, "table inet %s {\n\tchain input {\n", nftTable)
	fmt.Fprintln(w, "\t\ttype filter hook input priority filter - 10; policy accept;")
	for _, f := range p.families() {
		fmt.Fprintf(w, "\t\t%s tcp dport %d accept\n", nftMatch(p, f), p.Req.Port)
	}
	// Without a bind address one rule closes the port in both families.
	fmt.Fprintf(w, "\t\t%stcp dport %d drop\n", nftDaddr(p, p.Req.guarded()[0]), p.Req.Port)
	fmt.Fprintln(w, "\t}\n}")
}

// nftMatch matches a family's allowed sources (and the bind address).
func nftMatch(p *Plan, f bootstrapip.Family) string {
	fam := nftFamily(f)
	s := fmt.Sprintf("%s saddr { %s }", fam, prefixes(p, f, ", "))
	if p.Anywhere {
		s = "meta nfproto " + map[bootstrapip.Family]string{bootstrapip.IPv4: "ipv4", bootstrapip.IPv6: "ipv6"}[f]
	}
	return nftDaddr(p, f) + s
}

func nftDaddr(p *Plan, f bootstrapip.Family) string {
	if b := p.bindIn(f); b.IsValid() {
		return fmt.Sprintf("%s daddr %s ", nftFamily(f), b)
	}
	return ""
}

func nftFamily(f bootstrapip.Family) string {
	if f == bootstrapip.IPv4 {
		return "ip"
	}
	return "ip6"
}

// writeNftChain writes the form for a host whose own chain drops by
// default: an accept in a separate table cannot override another table's
// drop, so the rules go into that chain, tagged with a comment by which
// the revoke form (and a second apply) finds and deletes them.
func writeNftChain(w *bufio.Writer, p *Plan) {
	chain := strings.Join(p.NftChain, " ")
	shellHeader(w, "nftables", p)
	fmt.Fprintf(w, "# Rules in the host's chain %s, for a host whose firewall drops by default.\n", chain)
	fmt.Fprintf(w, "nft -a list chain %s | sed -n 's/.* comment \"%s\" # handle \\([0-9][0-9]*\\)$/\\1/p' |\n", chain, ruleSetName)
	fmt.Fprintf(w, "while read -r handle; do nft delete rule %s handle \"$handle\"; done\n", chain)
	if p.Revoke {
		return
	}
	fmt.Fprintln(w, "nft -f - <<'EOF'")
	for _, f := range p.families() {
		fmt.Fprintf(w, "insert rule %s %s tcp dport %d accept comment \"%s\"\n", chain, nftMatch(p, f), p.Req.Port, ruleSetName)
	}
	fmt.Fprintln(w, "EOF")
}
