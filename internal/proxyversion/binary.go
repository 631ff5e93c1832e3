package proxyversion

import (
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Kind is how pflag parses a flag's value.
type Kind int

// The kinds of value the ANP binaries' flags take.
const (
	KindString Kind = iota
	KindBool
	KindInt
	KindDuration
	KindFloat
)

var kindNames = [...]string{KindString: "string", KindBool: "bool", KindInt: "int", KindDuration: "duration", KindFloat: "float"}

// String names the kind as pflag's --help does.
func (k Kind) String() string { return kindNames[k] }

// Flag is one command-line flag of an ANP binary.
type Flag struct {
	Kind Kind
	// Default is the value the binary uses when the flag is absent, written
	// as its --help prints it; "" for an empty default or one computed at
	// start (a fresh UUID for --server-id and --agent-id).
	Default string
	// Allowed, when set, are the only values the binary starts with; with
	// List, each comma-separated item must be one of them.
	Allowed []string
	List    bool
	// Repeatable flags are string slices: each use appends. Any other flag
	// given twice keeps only its last value, silently.
	Repeatable bool
	// Since is the first upstream tag that has the flag; "" for a flag every
	// supported version has. An older binary exits with `unknown flag`.
	Since string
	// Hidden flags are parsed but not listed by --help (deprecated).
	Hidden bool
}

// Allows reports whether the binary accepts v as this flag's value, beyond
// parsing as its Kind: one of Allowed, or a list of them. Empty list items
// are skipped, as proxy-server does for --proxy-strategies.
func (f Flag) Allows(v string) bool {
	if f.Allowed == nil {
		return true
	}
	if !f.List {
		return slices.Contains(f.Allowed, v)
	}
	for _, item := range ListItems(v) {
		if !slices.Contains(f.Allowed, item) {
			return false
		}
	}
	return true
}

// ListItems is a list flag's value as the binary reads it: comma-separated,
// empty items skipped, nothing trimmed (proxy-server's ParseProxyStrategies,
// the only list flag).
func ListItems(v string) []string {
	var out []string
	for _, item := range strings.Split(v, ",") {
		if item != "" {
			out = append(out, item)
		}
	}
	return out
}

// ParseError returns what a value of this kind should have been, or "" when
// pflag accepts v.
func (k Kind) ParseError(v string) string {
	var err error
	var what string
	switch k {
	case KindBool:
		_, err = strconv.ParseBool(v)
		what = "a boolean"
	case KindInt:
		_, err = strconv.ParseInt(v, 0, 64)
		what = "an integer"
	case KindDuration:
		_, err = time.ParseDuration(v)
		what = "a duration (like 30s)"
	case KindFloat:
		_, err = strconv.ParseFloat(v, 32)
		what = "a number"
	}
	if err != nil {
		return what
	}
	return ""
}

// Binary is one ANP command-line program of one version and the flags it
// accepts.
type Binary struct {
	Name    string            // basename of the executable
	Version *Version          // the release family it belongs to; nil for AnyProgram
	Flags   map[string]Flag   // by long name
	Short   map[string]string // pflag shorthand -> long name
	// Missing are the flags of the table a newer version has and this one
	// lacks, so that check can name when a refused flag appeared.
	Missing map[string]Flag
}

// Runs reports whether argv[0] of a container starts this binary.
func (b *Binary) Runs(argv []string) bool {
	return len(argv) > 0 && path.Base(argv[0]) == b.Name
}

// Default is the value the binary uses when flag name is not given.
func (b *Binary) Default(name string) string { return b.Flags[name].Default }

// newBinary joins a binary's own flags with those every ANP binary has,
// keeping those that version v has.
func newBinary(name string, v *Version, own map[string]Flag) *Binary {
	b := &Binary{Name: name, Version: v, Flags: map[string]Flag{}, Missing: map[string]Flag{},
		Short: map[string]string{"v": "v", "h": "help"}}
	all := map[string]Flag{}
	for _, set := range []map[string]Flag{klogFlags, sharedFlags, own} {
		maps.Copy(all, set)
	}
	for name, f := range all {
		if f.Since == "" || !tagBefore(v.Upstream, f.Since) {
			b.Flags[name] = f
		} else {
			b.Missing[name] = f
		}
	}
	return b
}

// tagBefore reports whether upstream tag a (vX.Y.Z) is older than b.
func tagBefore(a, b string) bool {
	pa, pb := tagParts(a), tagParts(b)
	for i := range pa {
		if pa[i] != pb[i] {
			return pa[i] < pb[i]
		}
	}
	return false
}

func tagParts(tag string) [3]int {
	var out [3]int
	for i, p := range strings.SplitN(strings.TrimPrefix(tag, "v"), ".", 3) {
		out[i], _ = strconv.Atoi(p)
	}
	return out
}
