package bundlediff

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
)

// markdown is diff's format beyond text and JSON: a pull request comment.
const markdown output.Format = "markdown"

// Formats lists every format, the first the default (diff --output).
var Formats = []output.Format{output.Text, markdown, output.JSON}

// Report is a result as diff writes it; Colour applies to text only.
type Report struct {
	*Result
	Colour bool
}

// WriteText writes a unified-diff-like listing, coloured when asked.
func (r Report) WriteText(w io.Writer) error { return writeText(w, r.Result, r.Colour) }

// WriteFormat writes the formats beyond text and JSON: Markdown.
func (r Report) WriteFormat(w io.Writer, f output.Format) error {
	if f != markdown {
		return fmt.Errorf("diff has no %s output", f)
	}
	return writeMarkdown(w, r.Result)
}

// JSONDocument is the result with whether it is equal and the counts.
func (r Report) JSONDocument() any {
	return jsonDocument{Result: r.Result, Equal: r.Equal(), Summary: map[Status]int{
		changed: r.count(changed), added: r.count(added), removed: r.count(removed),
	}}
}

// jsonDocument is diff --output json.
type jsonDocument struct {
	*Result
	Equal   bool           `json:"equal"`
	Summary map[Status]int `json:"summary"`
}

// summary is the closing count line, e.g. `2 changed, 1 added, 0 removed`.
func summary(r *Result) string {
	return fmt.Sprintf("%d changed, %d added, %d removed", r.count(changed), r.count(added), r.count(removed))
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
	case opAdd:
		return "+"
	case opRemove:
		return "-"
	}
	return "~"
}

func statusSign(s Status) string {
	switch s {
	case added:
		return "+"
	case removed:
		return "-"
	}
	return "~"
}

// changeText is the part after the path: `old -> new`, or the one value.
func changeText(c Change) string {
	switch c.Op {
	case opAdd:
		return display(c.New)
	case opRemove:
		return display(c.Old)
	}
	return display(c.Old) + " -> " + display(c.New)
}
