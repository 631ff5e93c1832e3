package check

import (
	"fmt"
	"io"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// Checked is what the check command writes: the findings (in JSON their
// document, result.Findings), and in text, when none is an error, the line
// saying what was checked.
type Checked struct {
	result.Findings
	// Stream is the bundle that was checked.
	Stream []byte
	// Target names what was checked, as the line says it ("standard input").
	Target string
	// Certs is set when the certificates were checked too.
	Certs bool
	// Quiet leaves out info findings and the checked line (--quiet); the
	// JSON document always has them all.
	Quiet bool
}

// WriteText says each finding once, then the checked line when none is an
// error.
func (c Checked) WriteText(w io.Writer) error {
	rs := framework.Results(c.Findings)
	if err := result.Say(w, rs, result.SaysInfo(true, c.Quiet, false)); err != nil || result.ExitCode(rs) != 0 || c.Quiet {
		return err
	}
	_, err := fmt.Fprintln(w, c.line(rs))
	return err
}

// line is the one line a clean run prints, so it says what it looked at
// instead of nothing: the objects by role, whether certificates were
// checked, and the counts.
func (c Checked) line(findings framework.Results) string {
	var parts []string
	n := 0
	if b, err := bundlemodel.Parse(c.Stream); err == nil {
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
	if c.Certs {
		parts = append(parts, "certificates")
	}
	r := result.NewReport(findings)
	what := "no object of the bundle"
	if len(parts) > 0 {
		what = strings.Join(parts, ", ")
	}
	line := fmt.Sprintf("ok: checked %d object(s) of %s (%s): %d error(s), %d warning(s)", n, textsafe.Value(c.Target), what, r.Errors, r.Warnings)
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
