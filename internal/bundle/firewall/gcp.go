package firewall

import (
	"bufio"
	"fmt"
	"strings"
)

// writeGCP writes gcloud calls: one VPC firewall rule per source (a rule
// takes source ranges of one family only), aimed at the bootstrap
// instance's network tag, named after the cluster so that two clusters in
// one project do not collide and revoke deletes this cluster's rules only.
func writeGCP(w *bufio.Writer, p *Plan) {
	if p.Revoke {
		shellHeader(w, "gcp", p)
		for _, f := range p.families() {
			fmt.Fprintf(w, "gcloud compute firewall-rules delete %s --quiet\n", p.ruleName(f, 0))
		}
		return
	}
	shellHeader(w, "gcp", p,
		[2]string{"GCP_NETWORK", "the cluster's VPC network"},
		[2]string{"BOOTSTRAP_TAG", "the network tag of the bootstrap instance"})
	for _, f := range p.families() {
		fmt.Fprintf(w, "gcloud compute firewall-rules create %s --network=\"$GCP_NETWORK\" \\\n", p.ruleName(f, 0))
		fmt.Fprintf(w, "  --direction=INGRESS --action=ALLOW --rules=tcp:%d \\\n", p.Req.Port)
		fmt.Fprintf(w, "  --source-ranges=%s", prefixes(p, f, ","))
		if a, ok := dialAddr(p, f); ok {
			fmt.Fprintf(w, " --destination-ranges=%s", hostPrefix(a))
		}
		fmt.Fprintf(w, " --target-tags=\"$BOOTSTRAP_TAG\" \\\n  --description=%s\n", shellQuote(p.description()))
	}
}

// shellQuote single-quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
