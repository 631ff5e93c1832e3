package firewall

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
)

// writeAWSCLI writes aws ec2 calls on the bootstrap instance's security
// group. The rules are tagged with the cluster (Name ID-konnectivity-bootstrap,
// kubernetes.io/cluster/ID owned); revoke looks their rule IDs up by that
// tag and revokes those IDs only, so an identical rule of the user's or of
// another cluster stays.
func writeAWSCLI(w *bufio.Writer, p *Plan) {
	shellHeader(w, "aws", p, [2]string{"BOOTSTRAP_SG", "the ID of the bootstrap instance's security group (sg-...)"})
	if p.Revoke {
		fmt.Fprintf(w, "ids=$(aws ec2 describe-security-group-rules --filters \"Name=group-id,Values=$BOOTSTRAP_SG\" %s \\\n", shellQuote("Name=tag:Name,Values="+p.ownerName()))
		fmt.Fprintln(w, "  --query 'SecurityGroupRules[].SecurityGroupRuleId' --output text)")
		fmt.Fprintln(w, "if [ -n \"$ids\" ]; then")
		fmt.Fprintln(w, "  # shellcheck disable=SC2086 # one argument per rule ID")
		fmt.Fprintln(w, "  aws ec2 revoke-security-group-ingress --group-id \"$BOOTSTRAP_SG\" --security-group-rule-ids $ids")
		fmt.Fprintln(w, "fi")
		return
	}
	perm := map[string]any{"IpProtocol": "tcp", "FromPort": p.Req.Port, "ToPort": p.Req.Port}
	for _, f := range p.families() {
		key, field := "IpRanges", "CidrIp"
		if f == bootstrapip.IPv6 {
			key, field = "Ipv6Ranges", "CidrIpv6"
		}
		var ranges []map[string]string
		for _, pfx := range p.Sources[f] {
			ranges = append(ranges, map[string]string{field: pfx.String(), "Description": p.description()})
		}
		perm[key] = ranges
	}
	perms, _ := json.Marshal([]any{perm})
	tags, _ := json.Marshal([]any{map[string]any{"ResourceType": "security-group-rule", "Tags": awsTags(p)}})
	fmt.Fprintf(w, "aws ec2 authorize-security-group-ingress --group-id \"$BOOTSTRAP_SG\" \\\n  --ip-permissions %s \\\n", shellQuote(string(perms)))
	fmt.Fprintf(w, "  --tag-specifications %s\n", shellQuote(string(tags)))
}

// awsTags mark a rule as the cluster's: the Name revoke looks for, and the
// tag by which the installer's destroy finds what a cluster owns.
func awsTags(p *Plan) []map[string]string {
	return []map[string]string{
		{"Key": "Name", "Value": p.ownerName()},
		{"Key": "kubernetes.io/cluster/" + p.InfraID, "Value": "owned"},
	}
}

// ingress is one source of the plan, named for cloud resources.
type ingress struct {
	Name   string // the cluster's, unique within the output: ID-konnectivity-bootstrap-ipv4, -ipv4-2, ...
	Local  string // the same without the ID, for resource names that are local to a template
	Family bootstrapip.Family
	CIDR   string
}

// ingresses lists the plan's sources with stable names.
func ingresses(p *Plan) []ingress {
	var out []ingress
	for _, f := range p.families() {
		for i, pfx := range p.Sources[f] {
			name := p.ruleName(f, i)
			out = append(out, ingress{Name: name, Local: strings.TrimPrefix(name, p.InfraID+"-"), Family: f, CIDR: pfx.String()})
		}
	}
	return out
}
