package firewall

import (
	"bufio"
	"fmt"
	"strings"
)

// writeGCP writes gcloud calls: one VPC firewall rule per family (a rule
// takes source ranges of one family only), aimed at the bootstrap
// instance's network tag.
func writeGCP(w *bufio.Writer, p *Plan) {
	shellHeader(w, "gcp", p,
		[2]string{"GCP_NETWORK", "the cluster's VPC network"},
		[2]string{"BOOTSTRAP_TAG", "the network tag of the bootstrap instance"})
	for _, f := range p.Families() {
		name := fmt.Sprintf("%s-%s", RuleName, f)
		if p.Revoke {
			fmt.Fprintf(w, "gcloud compute firewall-rules delete %s --quiet\n", name)
			continue
		}
		fmt.Fprintf(w, "gcloud compute firewall-rules create %s --network=\"$GCP_NETWORK\" \\\n", name)
		fmt.Fprintf(w, "  --direction=INGRESS --action=ALLOW --rules=tcp:%d \\\n", p.Req.Port)
		fmt.Fprintf(w, "  --source-ranges=%s", prefixes(p, f, ","))
		if a, ok := dialAddr(p, f); ok {
			fmt.Fprintf(w, " --destination-ranges=%s", hostPrefix(a))
		}
		fmt.Fprintf(w, " --target-tags=\"$BOOTSTRAP_TAG\" \\\n  --description=%s\n", shellQuote(ruleDescription))
	}
}

// shellQuote single-quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
