package netreq

import (
	"fmt"
	"io"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/firewall"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
)

// Printed is what the ports command writes: the requirements in text and
// JSON, and in the rule formats the agent tunnel as firewall rules.
type Printed struct {
	*Report
	// Rules are the rule formats' options (--from, --revoke, ...).
	Rules firewall.Options
	// Refused are the findings check gives the values the rules would
	// carry (check.RuleInputs), one line each: rules are written from
	// none of them while there is one.
	Refused []string
}

// JSONDocument is the requirements report itself.
func (p Printed) JSONDocument() any { return p.Report }

// WriteFormat writes the bundle's agent tunnel, as the report read it, as
// firewall rules in format f, or refuses with check's findings.
func (p Printed) WriteFormat(w io.Writer, f output.Format) error {
	rep := p.Report
	t := rep.Tunnel
	if t == nil {
		return fmt.Errorf("%s: the bundle has no proxy-server static pod, so there is no agent port to open: give a bundle, overlay or root that deploys the tunnel (not bootstrap-in-place)", rep.Bundle)
	}
	if len(p.Refused) > 0 {
		return fmt.Errorf("%s: refusing to write rules from values check refuses:\n  %s", rep.Bundle, strings.Join(p.Refused, "\n  "))
	}
	req := firewall.Requirement{Port: t.Port, Dial: t.Host, DialAddr: t.Addr, Bind: t.BindAddress, Families: t.Families, Source: rep.Requirements[0].Source}
	plan, err := firewall.NewPlan(req, p.Rules)
	if err != nil {
		return fmt.Errorf("%s: %w", rep.Bundle, err)
	}
	return plan.WriteFormat(w, f)
}
