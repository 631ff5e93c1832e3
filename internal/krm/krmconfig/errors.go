package krmconfig

import (
	"fmt"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
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

// Result is the error as a result (internal/krm/result): severity error, the
// field as its path (kept even when empty, the config as a whole), the fix
// as its fix. result.FromError is where a config error becomes results.
func (e FieldError) Result() *framework.Result {
	r := result.New(framework.Error, "", "", "", e.Message, e.Fix)
	r.Field = &framework.Field{Path: e.Field}
	return r
}

// Results is each field error as a result, in order.
func (es FieldErrors) Results() framework.Results {
	out := make(framework.Results, len(es))
	for i, e := range es {
		out[i] = e.Result()
	}
	return out
}
