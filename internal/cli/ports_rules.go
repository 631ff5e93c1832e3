package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/check"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/firewall"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/netreq"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
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

// portsReport is what ports writes: the network requirements in text and
// JSON, the agent tunnel as firewall rules in the rule formats.
type portsReport struct {
	*netreq.Report
	bundle *bundlemodel.Bundle
	rules  firewall.Options
}

// JSONDocument is the requirements report itself.
func (p portsReport) JSONDocument() any { return p.Report }

// WriteFormat writes the bundle's agent tunnel, as the report read it, as
// firewall rules in format f. The bundle values the rules carry must first
// pass the checks `check` applies to them, and are refused with check's
// findings.
func (p portsReport) WriteFormat(w io.Writer, f output.Format) error {
	rep := p.Report
	t := rep.Tunnel
	if t == nil {
		return fmt.Errorf("%s: the bundle has no proxy-server static pod, so there is no agent port to open: give a bundle, overlay or root that deploys the tunnel (not bootstrap-in-place)", rep.Bundle)
	}
	if rs := result.Only(check.RuleInputs(p.bundle), framework.Error); len(rs) > 0 {
		lines := make([]string, len(rs))
		for i, r := range rs {
			lines[i] = result.Text(r)
		}
		return fmt.Errorf("%s: refusing to write rules from values check refuses:\n  %s", rep.Bundle, strings.Join(lines, "\n  "))
	}
	req := firewall.Requirement{Port: t.Port, Dial: t.Host, DialAddr: t.Addr, Bind: t.BindAddress, Families: t.Families, Source: rep.Requirements[0].Source}
	plan, err := firewall.NewPlan(req, p.rules)
	if err != nil {
		return fmt.Errorf("%s: %w", rep.Bundle, err)
	}
	return plan.WriteFormat(w, f)
}
