package krmconfig

import (
	"errors"
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// FieldError is one invalid field, with the fix.
type FieldError struct {
	Field   string // spec.agent.keepaliveTime
	Message string
	Fix     string
}

func (e FieldError) Error() string {
	if e.Fix == "" {
		return fmt.Sprintf("%s: %s", e.Field, e.Message)
	}
	return fmt.Sprintf("%s: %s (fix: %s)", e.Field, e.Message, e.Fix)
}

// FieldErrors is every problem found in one config, in field order.
type FieldErrors []FieldError

func (es FieldErrors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// Results turns an error into framework results, one per field error (also
// inside errors.Join), so kustomize and kpt show each with its field path.
func Results(err error) framework.Results {
	var results framework.Results
	for _, e := range flatten(err) {
		r := &framework.Result{Severity: framework.Error, Message: e.Error()}
		if fe, ok := asFieldError(e); ok {
			r.Message = fe.Message
			if fe.Fix != "" {
				r.Message += " (fix: " + fe.Fix + ")"
			}
			r.Field = &framework.Field{Path: fe.Field}
		}
		results = append(results, r)
	}
	return results
}

// flatten opens joined errors before FieldErrors: errors.As would find the
// first FieldErrors inside a join and lose its siblings.
func flatten(err error) []error {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range joined.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	if fes, ok := err.(FieldErrors); ok {
		out := make([]error, len(fes))
		for i, fe := range fes {
			out[i] = fe
		}
		return out
	}
	return []error{err}
}

func asFieldError(err error) (FieldError, bool) {
	var fe FieldError
	if errors.As(err, &fe) {
		return fe, true
	}
	var pfe *FieldError
	if errors.As(err, &pfe) {
		return *pfe, true
	}
	return FieldError{}, false
}
