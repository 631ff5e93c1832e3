package result

import (
	"encoding/json"
	"fmt"
	"io"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// message is r's message with its fix, as one sentence a user reads:
// `message (fix: ...)`.
func message(r *framework.Result) string {
	if fix := Fix(r); fix != "" {
		return r.Message + " (fix: " + fix + ")"
	}
	return r.Message
}

// Text words r as every command's text output says a result, in one
// shape: `severity: [rule] object field: message (fix: ...)`, leaving out
// the rule, object or field r lacks. The object is the one r names, or the
// item kustomize resolved it to (Function). Object names and the values a
// message quotes come from the bundle, so the line is escaped
// (internal/report/textsafe): one result is one line, whatever the bundle holds.
func Text(r *framework.Result) string {
	s := string(r.Severity) + ":"
	if rule := Rule(r); rule != "" {
		s += " [" + rule + "]"
	}
	if o := objectOf(r); o != "" {
		s += " " + o
	}
	if p := FieldPath(r); p != "" {
		s += " " + p
	}
	return textsafe.Escape(s + ": " + message(r))
}

// objectOf is the object r is about as findings print it: its tag, else
// its ResourceRef as "Kind namespace/name".
func objectOf(r *framework.Result) string {
	if o := Object(r); o != "" {
		return o
	}
	ref := r.ResourceRef
	if ref == nil {
		return ""
	}
	if ref.Namespace == "" {
		return ref.Kind + " " + ref.Name
	}
	return ref.Kind + " " + ref.Namespace + "/" + ref.Name
}

// Say writes results as Text, one a line, each once: a result equal to
// one said before in the same call (a check run on an included
// kustomization and again on the whole, say) is not repeated. info says the
// info results too (SaysInfo); warnings and errors are always said.
func Say(w io.Writer, rs framework.Results, info bool) error {
	said := map[string]bool{}
	for _, r := range rs {
		line := Text(r)
		if said[line] || !info && r.Severity == framework.Info {
			continue
		}
		said[line] = true
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	return nil
}

// SaysInfo is whether a command says its info results, the one rule of
// every command: an info result's fix is nothing to set (a protection the
// proxy version lacks, say), so a command whose results only accompany its
// work (build, render: lists false) says them when -v asks, and stays
// silent on success, as kustomize does; check, whose output is the list of
// results (lists true), says them unless -q. -q wins over -v.
func SaysInfo(lists, quiet, verbose bool) bool {
	return !quiet && (lists || verbose)
}

// Findings are check's results as its --output writes them.
type Findings framework.Results

// WriteText says each finding once (Say).
func (f Findings) WriteText(w io.Writer) error {
	return Say(w, framework.Results(f), true)
}

// Report is the JSON document of `check --output json`.
type Report struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	// Info counts findings that only inform (a proxy version without the
	// dial bound, say); omitted when there are none.
	Info     int      `json:"info,omitempty"`
	Findings []Record `json:"findings"`
}

// Record is one result in a Report: flat, with the tags as fields.
type Record struct {
	Severity framework.Severity `json:"severity"`
	// Rule is a stable kebab-case id (functions/check/README.md lists every one).
	Rule string `json:"rule"`
	// Object is "Kind namespace/name", or "Kind name" without a namespace.
	Object string `json:"object"`
	// Field is the path inside Object, e.g. spec.containers[0].args[3].
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`
}

// NewReport counts the results by severity (errors, info, and anything
// else as a warning) and flattens them into records.
func NewReport(rs framework.Results) Report {
	rep := Report{Findings: make([]Record, 0, len(rs))}
	for _, r := range rs {
		switch r.Severity {
		case framework.Error:
			rep.Errors++
		case framework.Info:
			rep.Info++
		default:
			rep.Warnings++
		}
		rep.Findings = append(rep.Findings, Record{Severity: r.Severity, Rule: Rule(r), Object: Object(r),
			Field: FieldPath(r), Message: r.Message, Fix: Fix(r)})
	}
	return rep
}

// JSONDocument is the findings as a Report. check's JSON has always written
// <, > and & as \u003c, \u003e and \u0026, unlike the other commands', and
// scripts may compare its bytes: htmlEscaped keeps them so.
func (f Findings) JSONDocument() any {
	return htmlEscaped{NewReport(framework.Results(f))}
}

// htmlEscaped encodes v as encoding/json does by default, with <, > and &
// escaped; the shared encoder indents it and leaves the escapes as they are.
type htmlEscaped struct{ v any }

func (h htmlEscaped) MarshalJSON() ([]byte, error) { return json.Marshal(h.v) }
