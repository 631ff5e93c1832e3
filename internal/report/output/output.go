// Package output is how every command writes its report, in the format
// --output names: JSON the one way (Write with JSON), text and every other
// format through a method of the report (TextWriter, FormatWriter). The
// commands declare their formats with Choice, which refuses any other value.
package output

import (
	"encoding/json"
	"fmt"
	"io"
)

// Format is an --output value.
type Format string

// The formats every report has; a command adds its own (diff's markdown,
// ports' firewall rules) through FormatWriter.
const (
	Text Format = "text"
	JSON Format = "json"
)

// TextWriter is a report's text form, the one a person reads.
type TextWriter interface {
	WriteText(w io.Writer) error
}

// Documenter is a report whose JSON document is another value than itself:
// fields added beside it, or a flat form of it.
type Documenter interface {
	JSONDocument() any
}

// FormatWriter is a report with formats beyond text and JSON, such as
// diff's markdown or ports' firewall rules.
type FormatWriter interface {
	WriteFormat(w io.Writer, f Format) error
}

// Write writes v to w in format f: JSON with the one encoder (v's
// JSONDocument when it has one), text with v's WriteText, any other format
// with v's WriteFormat.
func Write(w io.Writer, f Format, v any) error {
	switch f {
	case JSON:
		if d, ok := v.(Documenter); ok {
			v = d.JSONDocument()
		}
		return writeJSON(w, v)
	case Text:
		if t, ok := v.(TextWriter); ok {
			return t.WriteText(w)
		}
	default:
		if fw, ok := v.(FormatWriter); ok {
			return fw.WriteFormat(w, f)
		}
	}
	return fmt.Errorf("a %T has no %s form", v, f) // a command offered a format its report lacks
}

// writeJSON is the --output json form every command shares: indented, and
// with <, > and & left as they are (they appear in messages, URLs and agent
// identifiers, and CI reads the output as text too).
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
