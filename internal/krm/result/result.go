// Package result is the one vocabulary for what this program reports about a
// bundle, a config or a host: kyaml's framework.Result, the type KRM
// functions already return to kustomize and kpt. Check findings, render's
// check errors and warnings, the results of the three functions and the host
// status checks are all framework.Results; nothing else describes a problem.
//
// framework.Result has no field for a rule id, a fix or an object named as a
// user reads it ("Pod kube-system/konnectivity-server", or "(bundle)" for the
// stream as a whole, which no ResourceRef can name), so New carries them in
// Tags under tagRule, tagObject and tagFix; Field.Path holds the field inside
// the object or config. Rule, Object and Fix read them back. A status check
// is a result too: its name is the rule, its detail the message, its hint the
// fix. Severities are kyaml's: framework.Error fails a run, framework.Warning
// does not, and framework.Info is a status check that passed (printed "ok").
//
// A refusal of the call itself stays a Go error, because it stops the call
// rather than being one of many things found: krmconfig.FieldError (a config
// field Decode or Validate refuses) and render's InputError (a bad flag).
// FieldError has a Result method, and FromError is the one place such errors
// become results, for the functions that return them to kustomize.
//
// Results leave for kustomize in the form it shows: the fix folded into the
// message and the object resolved to a ResourceRef. Function is that one
// conversion; Text (and Say, Lines and Findings, which use it) words
// results for this program's own output, in one shape whichever command
// prints them.
//
// ExitCode and Err are the one adapter from results to an exit code or an
// error; Collect is the one place a KRM processor's outcome becomes results.
package result

import (
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// Tag keys New stores in framework.Result.Tags.
const (
	// tagRule is the stable id of the rule (check) or the name of the check
	// (status) that produced the result.
	tagRule = "rule"
	// tagObject names the object the result is about, as findings print it.
	tagObject = "object"
	// tagFix says what to change.
	tagFix = "fix"
)

// New builds a result; an empty rule, object, field or fix is left out.
func New(sev framework.Severity, rule, object, field, msg, fix string) *framework.Result {
	r := &framework.Result{Severity: sev, Message: msg}
	setTag(r, tagRule, rule)
	setTag(r, tagObject, object)
	setTag(r, tagFix, fix)
	if field != "" {
		r.Field = &framework.Field{Path: field}
	}
	return r
}

func setTag(r *framework.Result, key, value string) {
	if value == "" {
		return
	}
	if r.Tags == nil {
		r.Tags = make(map[string]string, 3)
	}
	r.Tags[key] = value
}

// Rule is the rule id or check name of r, or "".
func Rule(r *framework.Result) string { return r.Tags[tagRule] }

// Object is the object r is about, as findings print it, or "".
func Object(r *framework.Result) string { return r.Tags[tagObject] }

// Fix is what to change, or "".
func Fix(r *framework.Result) string { return r.Tags[tagFix] }

// FieldPath is the field r is about, or "".
func FieldPath(r *framework.Result) string {
	if r.Field == nil {
		return ""
	}
	return r.Field.Path
}

// Count is how many results have severity sev.
func Count(rs framework.Results, sev framework.Severity) int {
	n := 0
	for _, r := range rs {
		if r.Severity == sev {
			n++
		}
	}
	return n
}

// Only returns the results of severity sev, in order.
func Only(rs framework.Results, sev framework.Severity) framework.Results {
	var out framework.Results
	for _, r := range rs {
		if r.Severity == sev {
			out = append(out, r)
		}
	}
	return out
}
