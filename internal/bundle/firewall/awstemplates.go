package firewall

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
)

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
// resources, or, revoking, the command that deletes its stack: the
// cluster's own, ID-konnectivity-bootstrap unless $STACK names another.
func writeCloudFormation(w *bufio.Writer, p *Plan) {
	if p.Revoke {
		shellHeader(w, "aws-cloudformation", p)
		fmt.Fprintf(w, "stack=\"${STACK:-%s}\" # the name the template was deployed as\n", p.ownerName())
		fmt.Fprintln(w, "aws cloudformation delete-stack --stack-name \"$stack\"")
		fmt.Fprintln(w, "aws cloudformation wait stack-delete-complete --stack-name \"$stack\"")
		return
	}
	res := map[string]any{}
	for _, in := range ingresses(p) {
		props := map[string]any{
			"GroupId": map[string]string{"Ref": "BootstrapSecurityGroupId"}, "IpProtocol": "tcp",
			"FromPort": p.Req.Port, "ToPort": p.Req.Port, "Description": p.description(),
		}
		props[map[bootstrapip.Family]string{bootstrapip.IPv4: "CidrIp", bootstrapip.IPv6: "CidrIpv6"}[in.Family]] = in.CIDR
		res[camel(in.Local)] = map[string]any{"Type": "AWS::EC2::SecurityGroupIngress", "Properties": props}
	}
	tmpl := map[string]any{
		"AWSTemplateFormatVersion": "2010-09-09",
		"Description": fmt.Sprintf("Konnectivity agents in: TCP %d from %s, cluster %s (konnectivity-bundle ports --output aws-cloudformation; deploy as stack %s, delete the stack after bootstrap)",
			p.Req.Port, sourceList(p), p.InfraID, p.ownerName()),
		"Parameters": map[string]any{"BootstrapSecurityGroupId": map[string]string{
			"Type": "AWS::EC2::SecurityGroup::Id", "Description": "the bootstrap instance's security group",
		}},
		"Resources": res,
	}
	js, _ := json.MarshalIndent(tmpl, "", "  ")
	w.Write(js)
	w.WriteString("\n")
}

// writeTerraform writes aws_vpc_security_group_ingress_rule resources
// tagged with the cluster, or, revoking, the terraform destroy call that
// removes exactly them.
func writeTerraform(w *bufio.Writer, p *Plan) {
	if p.Revoke {
		shellHeader(w, "aws-terraform", p)
		fmt.Fprint(w, "terraform destroy")
		for _, in := range ingresses(p) {
			fmt.Fprintf(w, " \\\n  -target=aws_vpc_security_group_ingress_rule.%s", tfName(in.Local))
		}
		fmt.Fprintln(w)
		return
	}
	header(w, "#", "aws-terraform", p)
	fmt.Fprintln(w, "\nvariable \"bootstrap_security_group_id\" {\n  type        = string\n  description = \"The bootstrap instance's security group.\"\n}")
	for _, in := range ingresses(p) {
		cidr := map[bootstrapip.Family]string{bootstrapip.IPv4: "cidr_ipv4", bootstrapip.IPv6: "cidr_ipv6"}[in.Family]
		fmt.Fprintf(w, "\nresource \"aws_vpc_security_group_ingress_rule\" %s {\n", hclString(tfName(in.Local)))
		fmt.Fprintln(w, "  security_group_id = var.bootstrap_security_group_id")
		fmt.Fprintf(w, "  description       = %s\n  ip_protocol       = \"tcp\"\n", hclString(p.description()))
		fmt.Fprintf(w, "  from_port         = %d\n  to_port           = %d\n", p.Req.Port, p.Req.Port)
		fmt.Fprintf(w, "  %-17s = %s\n", cidr, hclString(in.CIDR))
		fmt.Fprintln(w, "  tags = {")
		tags, width := awsTags(p), 0
		for _, t := range tags {
			width = max(width, len(hclString(t["Key"])))
		}
		for _, t := range tags {
			fmt.Fprintf(w, "    %-*s = %s\n", width, hclString(t["Key"]), hclString(t["Value"]))
		}
		fmt.Fprintln(w, "  }\n}")
	}
}

func tfName(s string) string { return strings.ReplaceAll(s, "-", "_") }

// hclString quotes s as an HCL string literal. Every value written here is
// validated to letters, digits and a few punctuation marks; this also
// escapes what HCL would read as a template ("${", "%{") or an escape.
func hclString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case (c == '$' || c == '%') && i+1 < len(s) && s[i+1] == '{':
			b.WriteByte(c)
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
