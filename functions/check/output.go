package check

import (
	"encoding/json"
	"fmt"
	"io"
)

// WriteText writes one line per finding:
// `severity  object  field: message (fix: ...)`.
func WriteText(w io.Writer, fs []Finding) error {
	for _, f := range fs {
		if _, err := fmt.Fprintln(w, f.String()); err != nil {
			return err
		}
	}
	return nil
}

// Report is the JSON document of `check --output json`.
type Report struct {
	Errors   int       `json:"errors"`
	Warnings int       `json:"warnings"`
	Findings []Finding `json:"findings"`
}

// NewReport counts the findings by severity.
func NewReport(fs []Finding) Report {
	r := Report{Findings: fs}
	if r.Findings == nil {
		r.Findings = []Finding{}
	}
	for _, f := range fs {
		if f.Severity == SeverityError {
			r.Errors++
		} else {
			r.Warnings++
		}
	}
	return r
}

// WriteJSON writes the findings as an indented Report.
func WriteJSON(w io.Writer, fs []Finding) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(NewReport(fs))
}
