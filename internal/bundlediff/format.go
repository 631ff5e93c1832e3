package bundlediff

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Format is an output format.
type Format string

// Output formats.
const (
	Text     Format = "text"
	Markdown Format = "markdown"
	JSON     Format = "json"
)

// Formats lists every format, the first the default (diff --output).
var Formats = []Format{Text, Markdown, JSON}

// Write prints r in format f; colour applies to text only.
func Write(w io.Writer, r *Result, f Format, colour bool) error {
	switch f {
	case Markdown:
		return writeMarkdown(w, r)
	case JSON:
		return writeJSON(w, r)
	default:
		return writeText(w, r, colour)
	}
}

// summary is the closing count line, e.g. `2 changed, 1 added, 0 removed`.
func summary(r *Result) string {
	return fmt.Sprintf("%d changed, %d added, %d removed", r.Count(Changed), r.Count(Added), r.Count(Removed))
}

// display renders a value on one line: plain strings as they are, strings
// that would read as another type quoted, objects and lists as compact JSON.
func display(v any) string {
	switch t := v.(type) {
	case string:
		if plainString(t) {
			return t
		}
		return strconv.Quote(t)
	case json.Number:
		return t.String()
	case nil:
		return "null"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func plainString(s string) bool {
	if s == "" || strings.TrimSpace(s) != s || strings.ContainsAny(s, "\n\t\"") || strings.ContainsAny(s[:1], "{[") {
		return false
	}
	switch strings.ToLower(s) {
	case "true", "false", "null", "yes", "no", "on", "off", "~":
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err != nil
}

func opSign(op Op) string {
	switch op {
	case OpAdd:
		return "+"
	case OpRemove:
		return "-"
	}
	return "~"
}

func statusSign(s Status) string {
	switch s {
	case Added:
		return "+"
	case Removed:
		return "-"
	}
	return "~"
}

// changeText is the part after the path: `old -> new`, or the one value.
func changeText(c Change) string {
	switch c.Op {
	case OpAdd:
		return display(c.New)
	case OpRemove:
		return display(c.Old)
	}
	return display(c.Old) + " -> " + display(c.New)
}
