package render

import (
	"fmt"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// InputError is a bad value given to render; Field names the flag or file
// at fault so the message says what to change.
type InputError struct {
	Field   string // "--bootstrap-ip", "--root", "certificate file /opt/.../server.crt"; "" when Message names it
	Message string
	Fix     string
	// Sentence says Message continues Field as one sentence ("--image was
	// not given and ..."), rather than following a colon.
	Sentence bool
	// Usage says the fault is the flag itself, missing or refusing its
	// value on its own (syntax, range, unknown name): a usage error (the
	// CLI's exit 2). Without it the fault is in what render read, or a
	// flag's disagreement with it: bad input (exit 3).
	Usage bool
}

func (e *InputError) Error() string {
	sep := ": "
	if e.Field == "" { // the message names its file and field itself
		sep = ""
	}
	if e.Sentence {
		sep = " "
	}
	if e.Fix == "" {
		return e.Field + sep + e.Message
	}
	return fmt.Sprintf("%s%s%s (fix: %s)", e.Field, sep, e.Message, e.Fix)
}

func inputErrorf(field, fix, format string, args ...any) *InputError {
	return &InputError{Field: field, Message: fmt.Sprintf(format, args...), Fix: fix}
}

// inputSentencef is inputErrorf for a message that reads on from the field.
func inputSentencef(field, fix, format string, args ...any) *InputError {
	e := inputErrorf(field, fix, format, args...)
	e.Sentence = true
	return e
}

// usage marks e a flag problem (InputError.Usage).
func (e *InputError) usage() *InputError {
	e.Usage = true
	return e
}

// RefusedError lists destinations that exist with other content and were not
// written by an earlier render: overwriting them could destroy someone
// else's file, so render stops unless Force is set.
type RefusedError struct {
	Paths []string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("refusing to overwrite %d existing file(s) that render did not write: %s (fix: remove them, or pass --force to overwrite)",
		len(e.Paths), strings.Join(e.Paths, ", "))
}

// CheckError carries the error findings that stopped render before any
// write; it is render's own error (exit 4), worded as render reports checks.
type CheckError struct {
	Findings framework.Results
}

func (e *CheckError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the bundle failed %d check(s); nothing was written", result.Count(e.Findings, framework.Error))
	for _, f := range result.Only(e.Findings, framework.Error) {
		fmt.Fprintf(&b, "\n  %s", result.Text(f))
	}
	return b.String()
}
