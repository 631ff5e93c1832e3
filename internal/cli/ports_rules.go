package cli

import (
	"strings"

	"github.com/spf13/pflag"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/check"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/firewall"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
)

// ruleFlags are ports' flags for the firewall rule formats.
type ruleFlags struct {
	from     []string
	anywhere bool
	revoke   bool
	nftChain string
	infraID  string
}

func (rf *ruleFlags) register(fs *pflag.FlagSet) {
	fs.StringArrayVar(&rf.from, "from", nil, "rule formats: CIDR of the node network the agents connect from (repeat per family or subnet)")
	fs.BoolVar(&rf.anywhere, "from-anywhere", false, "rule formats: allow the agent port from every address instead of --from")
	fs.BoolVar(&rf.revoke, "revoke", false, "rule formats: write the form that removes the rules")
	fs.StringVar(&rf.nftChain, "nft-chain", "", "nftables: add the rules to this existing chain (e.g. 'inet filter input', for a default-drop host) instead of an own table")
	fs.StringVar(&rf.infraID, "infra-id", "", "cloud formats (required): the cluster's infrastructure ID (infraID of metadata.json), carried by every rule; --revoke removes only rules carrying it")
}

// options parses the flags for format; outside the rule formats they must be unset.
func (rf *ruleFlags) options(format string) (firewall.Options, error) {
	opts := firewall.Options{Anywhere: rf.anywhere, Revoke: rf.revoke, NftChain: rf.nftChain, InfraID: rf.infraID}
	if !firewall.IsFormat(format) {
		if len(rf.from) > 0 || rf.anywhere || rf.revoke || rf.nftChain != "" || rf.infraID != "" {
			return opts, usagef("--from, --from-anywhere, --revoke, --nft-chain and --infra-id apply to the rule formats only (--output %s)", strings.Join(firewall.Formats(), "|"))
		}
		return opts, nil
	}
	if rf.nftChain != "" && format != "nftables" {
		return opts, usagef("--nft-chain applies to --output nftables only, not %s", format)
	}
	if rf.nftChain != "" {
		if _, err := firewall.ParseNftChain(rf.nftChain); err != nil {
			return opts, &usageError{Msg: err.Error()}
		}
	}
	if err := firewall.InfraIDFits(format, rf.infraID); err != nil {
		return opts, &usageError{Msg: err.Error()}
	}
	if rf.infraID != "" {
		if err := firewall.ParseInfraID(rf.infraID); err != nil {
			return opts, &usageError{Msg: err.Error()}
		}
	}
	for _, s := range rf.from {
		p, err := firewall.ParseFrom(s)
		if err != nil {
			return opts, &usageError{Msg: err.Error()}
		}
		opts.From = append(opts.From, p)
	}
	if err := firewall.CheckSources(opts); err != nil {
		return opts, &usageError{Msg: err.Error()}
	}
	return opts, nil
}

// ruleInputFindings are check's error findings against the values ports
// copies into firewall rules, one line each: ports refuses what check
// refuses, in check's words.
func ruleInputFindings(b *bundlemodel.Bundle) []string {
	var lines []string
	for _, r := range result.Only(check.RuleInputs(b), framework.Error) {
		lines = append(lines, result.Text(r))
	}
	return lines
}
