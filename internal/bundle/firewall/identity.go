package firewall

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"k8s.io/apimachinery/pkg/util/validation"
)

// cloudFormats are the formats whose rules live in a cloud account shared
// with other clusters: each rule carries the cluster's infrastructure ID,
// and revoke removes only rules carrying it.
var cloudFormats = map[string]bool{
	"aws": true, "aws-cloudformation": true, "aws-terraform": true,
	"gcp": true, "azure": true, "openstack": true,
}

// IsCloud reports whether format writes cloud rules, which need --infra-id.
func IsCloud(format string) bool { return cloudFormats[format] }

// maxInfraID keeps the longest rule name, ID-konnectivity-bootstrap-ipv6-NN,
// within GCP's 63 characters. OpenShift's infrastructure IDs have at most 27.
const maxInfraID = 32

// ParseInfraID checks an --infra-id: the cluster's infrastructure ID
// (metadata.json's infraID, e.g. mycluster-x7k2p), which becomes part of
// rule names, descriptions and tags, so it must be a name every cloud takes.
func ParseInfraID(s string) error {
	const fix = "give the cluster's infrastructure ID (infraID in the installer's metadata.json, e.g. --infra-id mycluster-x7k2p)"
	if errs := validation.IsDNS1123Label(s); len(errs) > 0 || len(s) > maxInfraID || s[0] < 'a' || s[0] > 'z' {
		return fmt.Errorf("--infra-id %q is not an infrastructure ID: it must be lower-case letters, digits and '-', start with a letter, end with a letter or digit, and have at most %d characters; %s", s, maxInfraID, fix)
	}
	return nil
}

// nftName is an nft identifier as nft's scanner reads one, without the
// '/' it also allows (a table or chain name needs none): a letter or '_'
// first, then letters, digits, '_', '.' and '-'. Nothing else can reach
// the nft command line or file, so no quoting is needed there.
var nftName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]{0,254}$`)

// ParseNftChain checks an --nft-chain: FAMILY TABLE CHAIN separated by
// single spaces, the family ip, ip6 or inet, the names nft identifiers.
func ParseNftChain(s string) ([]string, error) {
	f := strings.Split(s, " ")
	if len(f) != 3 {
		return nil, fmt.Errorf("--nft-chain %q: give FAMILY TABLE CHAIN of an existing base chain, separated by single spaces, e.g. --nft-chain 'inet filter input'", s)
	}
	if fam := f[0]; fam != "ip" && fam != "ip6" && fam != "inet" {
		return nil, fmt.Errorf("--nft-chain %q: the chain's family must be inet (or ip/ip6 matching every --from), got %q", s, fam)
	}
	for i, what := range []string{"table", "chain"} {
		if !nftName.MatchString(f[i+1]) {
			return nil, fmt.Errorf("--nft-chain %q: the %s name %q is not an nft identifier: give letters, digits, '_', '.' and '-', starting with a letter or '_', as `nft list ruleset` shows it", s, what, f[i+1])
		}
	}
	return f, nil
}

// parseNftChain is ParseNftChain with a family that takes every --from.
func parseNftChain(s string, p *Plan) ([]string, error) {
	f, err := ParseNftChain(s)
	if err != nil {
		return nil, err
	}
	if fam := f[0]; (fam == "ip" && len(p.Sources[bootstrapip.IPv6]) > 0) || (fam == "ip6" && len(p.Sources[bootstrapip.IPv4]) > 0) {
		return nil, fmt.Errorf("--nft-chain %q: the chain's family must be inet (or ip/ip6 matching every --from), got %q", s, fam)
	}
	return f, nil
}

// ruleName names a cloud rule of the cluster: ID-konnectivity-bootstrap-ipv4,
// then -ipv4-2, ... for further sources of the family (i counts from 0).
func (p *Plan) ruleName(f bootstrapip.Family, i int) string {
	name := fmt.Sprintf("%s-%s-%s", p.InfraID, ruleSetName, f)
	if i > 0 {
		name += fmt.Sprintf("-%d", i+1)
	}
	return name
}

// ownerName is the name of everything the cluster's rules share: the AWS
// Name tag and the CloudFormation stack.
func (p *Plan) ownerName() string { return p.InfraID + "-" + ruleSetName }

// description says what a cloud rule is for and whose it is; OpenStack's
// revoke finds its rules by it, so it is the same for every rule of a plan.
func (p *Plan) description() string {
	return fmt.Sprintf("%s %s: Konnectivity agents to the bootstrap host (bootstrap phase only)", ruleSetName, p.InfraID)
}

// InfraIDFits checks that an infrastructure ID is given for exactly the
// cloud formats (the --infra-id flag).
func InfraIDFits(format, id string) error {
	switch {
	case IsCloud(format) && id == "":
		return fmt.Errorf("--infra-id is required for --output %s: the rules go into an account other clusters may share, so each carries the cluster's infrastructure ID and --revoke removes only those (infraID in the installer's metadata.json, e.g. --infra-id mycluster-x7k2p)", format)
	case !IsCloud(format) && id != "":
		return fmt.Errorf("--infra-id applies to the cloud formats only (%s), not --output %s", strings.Join(cloudList(), ", "), format)
	}
	return nil
}

func cloudList() []string {
	var out []string
	for _, f := range Formats() {
		if IsCloud(f) {
			out = append(out, f)
		}
	}
	return out
}
