package textsafe

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// Value is a string the tool does not control (an object or field name, a
// key, a file name, a server's message) on its way into an error or a line
// of text. Every verb prints it escaped, so a format string that puts it in
// (fmt.Errorf("delete %s: ...", textsafe.Value(name))) cannot have it break
// or forge the line: %s and %v print Escape's text, %q Go's quoted string,
// which writes every control and format character as an escape too.
type Value string

// Format prints v escaped under every verb, keeping width and flags.
func (v Value) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		fmt.Fprint(f, strconv.Quote(string(v)))
		return
	}
	if verb != 's' && verb != 'v' {
		verb = 's'
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), Escape(string(v)))
}

// String is v escaped.
func (v Value) String() string { return Escape(string(v)) }

// Err is err as an error from outside: its text is Escape's (one line,
// nothing raw), while errors.Is and errors.As still reach err. It is for a
// library's error that quotes what it read, such as a kube-apiserver's
// message or a parser's excerpt of a file; nil stays nil.
func Err(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(*outsideError); ok {
		return err
	}
	return &outsideError{err: err}
}

// outsideError is Err's error.
type outsideError struct{ err error }

func (e *outsideError) Error() string { return Escape(e.err.Error()) }

func (e *outsideError) Unwrap() error { return e.err }

// Short is Escape of at most max bytes of s, "..." marking a cut: an input
// echoed back (an unknown command or flag as typed) stays one short line
// however long or hostile it is.
func Short(s string, max int) string {
	if len(s) <= max {
		return Escape(s)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return Escape(s[:cut]) + "..."
}
