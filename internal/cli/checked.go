package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// checkReport is what check writes: its findings, and in text, when none
// is an error, the line saying what was checked.
type checkReport struct {
	result.Findings
	stream []byte
	target string
	certs  bool // the certificates were checked
	clean  bool // no finding is an error
	quiet  bool // --quiet: no info, no checked line
}

// WriteText says each finding once, then the checked line when clean;
// --quiet leaves out info and the checked line (JSON always has them all).
func (r checkReport) WriteText(w io.Writer) error {
	if err := result.Say(w, framework.Results(r.Findings), r.quiet); err != nil || !r.clean || r.quiet {
		return err
	}
	_, err := fmt.Fprintln(w, checkedLine(r.stream, r.target, r.certs, framework.Results(r.Findings)))
	return err
}

// checkedLine is the one line check prints in text mode when nothing is an
// error, so a clean run says what it looked at instead of nothing: the
// objects by role, whether certificates were checked, and the counts.
func checkedLine(stream []byte, target string, certs bool, findings framework.Results) string {
	var parts []string
	n := 0
	if b, err := bundlemodel.Parse(stream); err == nil {
		n = len(b.Objects)
		for _, role := range []struct {
			name string
			o    *bundlemodel.Object
		}{
			{" (server)", workloadObject(b.Server)}, {" (agents)", workloadObject(b.Agent)},
			{"", b.Egress}, {"", b.Override}, {"", b.Secret}, {"", b.Namespace},
		} {
			if role.o != nil {
				parts = append(parts, role.o.Ref()+role.name)
			}
		}
	}
	if certs {
		parts = append(parts, "certificates")
	}
	r := result.NewReport(findings)
	what := "no object of the bundle"
	if len(parts) > 0 {
		what = strings.Join(parts, ", ")
	}
	line := fmt.Sprintf("ok: checked %d object(s) of %s (%s): %d error(s), %d warning(s)", n, describeTarget(target), what, r.Errors, r.Warnings)
	if r.Info > 0 {
		line += fmt.Sprintf(", %d info", r.Info)
	}
	return line
}

func workloadObject(w *bundlemodel.Workload) *bundlemodel.Object {
	if w == nil {
		return nil
	}
	return w.Object
}
