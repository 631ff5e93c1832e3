package result

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// ExitCode is the exit code results call for: 1 when any is an error, else 0
// (warnings and info never fail a run), as kyaml's Results.ExitCode decides.
func ExitCode(rs framework.Results) int { return rs.ExitCode() }

// Err is the error results call for: nil when none is an error, else an
// *Error holding all of them. text words the error; nil lists every result
// as Lines does. A command passes its own text only to keep its published
// wording.
func Err(rs framework.Results, text func(framework.Results) string) error {
	if ExitCode(rs) == 0 {
		return nil
	}
	return &Error{Results: rs, text: text}
}

// Error is results of which at least one is an error, returned so that the
// caller exits non-zero.
type Error struct {
	Results framework.Results
	text    func(framework.Results) string
}

func (e *Error) Error() string {
	if e.text != nil {
		return e.text(e.Results)
	}
	return Lines(e.Results)
}

// Lines words results as Text, one per line (continuation lines indented
// under the first), for an error that carries them.
func Lines(rs framework.Results) string {
	lines := make([]string, 0, len(rs))
	for _, r := range rs {
		lines = append(lines, Text(r))
	}
	return strings.Join(lines, "\n  ")
}

// Collect is the one place a KRM processor's outcome becomes results. A
// processor reports in either way kyaml allows: it returns framework.Results
// as its error (a config it refuses), or it records results in rl.Results
// and returns their Err. Returned results are recorded in rl, so they are
// written with the ResourceList; the error is Err of everything recorded,
// or the processor's own error unchanged.
func Collect(rl *framework.ResourceList, err error) error {
	if rs, ok := err.(framework.Results); ok {
		rl.Results = append(rl.Results, rs...)
		err = nil
	}
	if err != nil {
		return err
	}
	return Err(rl.Results, nil)
}
