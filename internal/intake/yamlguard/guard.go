// Package yamlguard is the one gate every YAML (or JSON) input of this module
// passes before anything parses it for real: files and standard input of
// check, diff, ports, fn and render, every file a kustomization build reads,
// KRM ResourceLists and the render state file. It bounds what one input may
// cost (total size, nodes added by aliases, nesting depth) and refuses
// duplicate and non-scalar mapping keys, which different readers resolve
// differently. Every refusal is an *Error that names the limit and its value,
// or the key and where it is.
//
// API for callers:
//
//	data, err := inputread.Read(arg, stdin, inputread.Bundle) // the one bounded reader
//	err = yamlguard.CheckInput(arg, data)                      // Check, syntax errors pass
//	err := yamlguard.Check(data)                               // bytes already in memory
//
// errors.Is(err, yamlguard.ErrNotYAML) tells a syntax error (which callers
// may leave to their parser to report in its own words) from a refusal.
package yamlguard

import (
	"errors"
	"fmt"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
)

// Limits every input is held to. They are far above any real bundle or
// kustomization (a bundle is tens of kilobytes, objects nest about fifteen
// levels) and far below what exhausts the memory of a bootstrap host.
const (
	// maxAliasNodes is how many nodes aliases may add when expanded, over
	// the whole input: a few lines of nested aliases ("billion laughs")
	// otherwise expand to billions.
	maxAliasNodes = 1_000_000
	// maxDepth is the deepest nesting of mappings and sequences, aliases
	// expanded.
	maxDepth = 200
)

// Limit names which bound an input broke.
type Limit string

// The refusals Check can report.
const (
	LimitSize        Limit = "size"
	LimitAliases     Limit = "alias expansion"
	LimitDepth       Limit = "nesting depth"
	LimitAliasCycle  Limit = "alias cycle"
	LimitDuplicate   Limit = "duplicate key"
	LimitComplexKey  Limit = "non-scalar key"
	limitSyntaxError Limit = "syntax"
)

// ErrNotYAML is wrapped by the error for input that does not parse.
var ErrNotYAML = errors.New("not valid YAML")

// Error is one refusal: which limit or rule, its value, and where.
type Error struct {
	Limit Limit
	// Max is the limit's value (bytes, nodes or levels); 0 for key rules.
	Max int64
	// Where is "document N" plus the field path, when known.
	Where string
	// Path is the field path inside the document (spec.agent.nodeSelector,
	// items[0].metadata), "" at the top or when unknown.
	Path    string
	Message string
	err     error
}

// Error is "document N at PATH: message".
func (e *Error) Error() string {
	s := e.Message
	if e.Where != "" {
		s = e.Where + ": " + s
	}
	return s
}

// Unwrap exposes ErrNotYAML for syntax errors.
func (e *Error) Unwrap() error { return e.err }

// CheckInput checks an input read whole (internal/intake/inputread), named name
// in a refusal. Input that is not valid YAML passes: the caller's parser
// reports it in its own words.
func CheckInput(name string, data []byte) error {
	if err := Check(data); err != nil && !errors.Is(err, ErrNotYAML) {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// CheckSize refuses n bytes when they are more than inputread.MaxYAML; for inputs
// that are not necessarily YAML (files a kustomization reads).
func CheckSize(n int64) error {
	if n > inputread.MaxYAML {
		return &Error{Limit: LimitSize, Max: inputread.MaxYAML, Message: fmt.Sprintf(
			"input is larger than the size limit of %d bytes (%d MiB); a bundle or kustomization file is far smaller, so this is not one", inputread.MaxYAML, inputread.MaxYAML>>20)}
	}
	return nil
}
