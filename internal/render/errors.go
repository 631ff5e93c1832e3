package render

import (
	"fmt"
	"strings"
)

// InputError is a bad value given to render; Field names the flag or file
// at fault so the message says what to change.
type InputError struct {
	Field   string // "--bootstrap-ip", "--root", "certificate file /opt/.../server.crt"
	Message string
	Fix     string
	// Sentence says Message continues Field as one sentence ("--image was
	// not given and ..."), rather than following a colon.
	Sentence bool
}

func (e *InputError) Error() string {
	sep := ": "
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

// CheckError carries the error findings that stopped render before any write.
type CheckError struct {
	Findings []Finding
}

func (e *CheckError) Error() string {
	var b strings.Builder
	n := 0
	for _, f := range e.Findings {
		if f.Severity == "error" {
			n++
		}
	}
	fmt.Fprintf(&b, "the bundle failed %d check(s); nothing was written", n)
	for _, f := range e.Findings {
		if f.Severity != "error" {
			continue
		}
		fmt.Fprintf(&b, "\n  %s", f)
	}
	return b.String()
}

// Finding is one check result as render reports it.
type Finding struct {
	Severity string // "error" | "warning"
	Rule     string
	Object   string
	Field    string
	Message  string
	Fix      string
}

func (f Finding) String() string {
	s := fmt.Sprintf("[%s] %s", f.Rule, f.Object)
	if f.Field != "" {
		s += " " + f.Field
	}
	s += ": " + f.Message
	if f.Fix != "" {
		s += " (fix: " + f.Fix + ")"
	}
	return s
}
