// Package jsonout writes the --output json form every command shares:
// indented, and with <, > and & left as they are (they appear in messages,
// URLs and agent identifiers, and CI reads the output as text too).
package jsonout

import (
	"encoding/json"
	"io"
)

// Write encodes v to w.
func Write(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
