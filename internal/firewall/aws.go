package firewall

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"
)

const ruleDescription = "Konnectivity agents to the bootstrap host (bootstrap phase only)"

// writeAWSCLI writes aws ec2 calls on the bootstrap instance's security
// group; revoke removes the same permissions.
func writeAWSCLI(w *bufio.Writer, p *Plan) {
	shellHeader(w, "aws", p, [2]string{"BOOTSTRAP_SG", "the ID of the bootstrap instance's security group (sg-...)"})
	verb := "authorize-security-group-ingress"
	if p.Revoke {
		verb = "revoke-security-group-ingress"
	}
	perm := map[string]any{"IpProtocol": "tcp", "FromPort": p.Req.Port, "ToPort": p.Req.Port}
	for _, f := range p.Families() {
		key, field := "IpRanges", "CidrIp"
		if f == IPv6 {
			key, field = "Ipv6Ranges", "CidrIpv6"
		}
		var ranges []map[string]string
		for _, pfx := range p.Sources[f] {
			ranges = append(ranges, map[string]string{field: pfx.String(), "Description": ruleDescription})
		}
		perm[key] = ranges
	}
	js, _ := json.Marshal([]any{perm})
	fmt.Fprintf(w, "aws ec2 %s --group-id \"$BOOTSTRAP_SG\" --ip-permissions '%s'\n", verb, js)
}

// ingress is one source of the plan, named for cloud resources.
type ingress struct {
	Name   string // unique within the output: konnectivity-bootstrap-ipv4, -ipv4-2, ...
	Family Family
	CIDR   string
}

// ingresses lists the plan's sources with stable names.
func ingresses(p *Plan) []ingress {
	var out []ingress
	for _, f := range p.Families() {
		for i, pfx := range p.Sources[f] {
			name := fmt.Sprintf("%s-%s", RuleName, f)
			if i > 0 {
				name += fmt.Sprintf("-%d", i+1)
			}
			out = append(out, ingress{Name: name, Family: f, CIDR: pfx.String()})
		}
	}
	return out
}

// camel turns konnectivity-bootstrap-ipv4-2 into KonnectivityBootstrapIpv42.
func camel(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(s, "-") {
		if part != "" {
			b.WriteString(strings.ToUpper(part[:1]) + part[1:])
		}
	}
	return b.String()
}

// writeCloudFormation writes a template of AWS::EC2::SecurityGroupIngress
// resources, or, revoking, the command that deletes its stack.
func writeCloudFormation(w *bufio.Writer, p *Plan) {
	if p.Revoke {
		shellHeader(w, "aws-cloudformation", p, [2]string{"STACK", "the name of the stack the template was deployed as"})
		fmt.Fprintln(w, "aws cloudformation delete-stack --stack-name \"$STACK\"")
		fmt.Fprintln(w, "aws cloudformation wait stack-delete-complete --stack-name \"$STACK\"")
		return
	}
	res := map[string]any{}
	for _, in := range ingresses(p) {
		props := map[string]any{
			"GroupId": map[string]string{"Ref": "BootstrapSecurityGroupId"}, "IpProtocol": "tcp",
			"FromPort": p.Req.Port, "ToPort": p.Req.Port, "Description": ruleDescription,
		}
		props[map[Family]string{IPv4: "CidrIp", IPv6: "CidrIpv6"}[in.Family]] = in.CIDR
		res[camel(in.Name)] = map[string]any{"Type": "AWS::EC2::SecurityGroupIngress", "Properties": props}
	}
	tmpl := map[string]any{
		"AWSTemplateFormatVersion": "2010-09-09",
		"Description":              fmt.Sprintf("Konnectivity agents in: TCP %d from %s (konnectivity-bundle ports --output aws-cloudformation; delete the stack after bootstrap)", p.Req.Port, sourceList(p)),
		"Parameters": map[string]any{"BootstrapSecurityGroupId": map[string]string{
			"Type": "AWS::EC2::SecurityGroup::Id", "Description": "the bootstrap instance's security group",
		}},
		"Resources": res,
	}
	js, _ := json.MarshalIndent(tmpl, "", "  ")
	w.Write(js)
	w.WriteString("\n")
}

// writeTerraform writes aws_vpc_security_group_ingress_rule resources, or,
// revoking, the terraform destroy call that removes exactly them.
func writeTerraform(w *bufio.Writer, p *Plan) {
	if p.Revoke {
		shellHeader(w, "aws-terraform", p)
		fmt.Fprint(w, "terraform destroy")
		for _, in := range ingresses(p) {
			fmt.Fprintf(w, " \\\n  -target=aws_vpc_security_group_ingress_rule.%s", tfName(in.Name))
		}
		fmt.Fprintln(w)
		return
	}
	header(w, "#", "aws-terraform", p)
	fmt.Fprintln(w, "\nvariable \"bootstrap_security_group_id\" {\n  type        = string\n  description = \"The bootstrap instance's security group.\"\n}")
	for _, in := range ingresses(p) {
		cidr := map[Family]string{IPv4: "cidr_ipv4", IPv6: "cidr_ipv6"}[in.Family]
		fmt.Fprintf(w, "\nresource \"aws_vpc_security_group_ingress_rule\" %q {\n", tfName(in.Name))
		fmt.Fprintln(w, "  security_group_id = var.bootstrap_security_group_id")
		fmt.Fprintf(w, "  description       = %q\n  ip_protocol       = \"tcp\"\n", ruleDescription)
		fmt.Fprintf(w, "  from_port         = %d\n  to_port           = %d\n", p.Req.Port, p.Req.Port)
		fmt.Fprintf(w, "  %-17s = %q\n}\n", cidr, in.CIDR)
	}
}

func tfName(s string) string { return strings.ReplaceAll(s, "-", "_") }
