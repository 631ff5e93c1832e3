package bundlemodel

import (
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// FlagUse is one flag as written on the command line, and where.
type FlagUse struct {
	proxyversion.Use
	Field string // e.g. spec.containers[0].args[3]
}

// Flags is a command line parsed by proxyversion.Binary.Parse: the last use of a
// flag wins, as in pflag.
type Flags struct {
	Binary  *proxyversion.Binary // whose defaults fill in what is not given
	Last    map[string]FlagUse
	Order   []string  // names in the order first given
	Unknown []FlagUse // flags the binary does not have
	Missing []FlagUse // flags that need a value but are last on the line
}

// Get returns the last use of a flag and whether it was given.
func (s *Flags) Get(name string) (FlagUse, bool) {
	u, ok := s.Last[name]
	return u, ok
}

// Lookup returns the flag's value and whether it was given.
func (s *Flags) Lookup(name string) (string, bool) {
	u, ok := s.Last[name]
	return u.Value, ok
}

// ValueOr returns the flag's value, or the binary's default when it is not given.
func (s *Flags) ValueOr(name string) string {
	if u, ok := s.Last[name]; ok {
		return u.Value
	}
	return s.Binary.Default(name)
}

// Int returns an int flag's value (the binary's default when absent) and
// whether it parsed.
func (s *Flags) Int(name string) (int, bool) {
	n, err := strconv.ParseInt(s.ValueOr(name), 0, 64)
	return int(n), err == nil
}

// Duration returns a duration flag's value (the binary's default when
// absent) and whether it parsed.
func (s *Flags) Duration(name string) (time.Duration, bool) {
	d, err := time.ParseDuration(s.ValueOr(name))
	return d, err == nil
}

// FieldOr is where the flag is written, or def (the container's args) when it is not.
func (s *Flags) FieldOr(name, def string) string {
	if u, ok := s.Last[name]; ok {
		return u.Field
	}
	return def
}

// Value returns the flag's value, or "" when it is not given.
func (s *Flags) Value(name string) string {
	return s.Last[name].Value
}

// Strategies is --proxy-strategies in order as proxy-server reads it (the
// binary's default when absent); empty when the value lists none.
func (s *Flags) Strategies() []string {
	return proxyversion.ListItems(s.ValueOr("proxy-strategies"))
}

// Identifiers is --agent-identifiers as proxy-agent reads it (URL-query
// form, "" when absent), with the keys proxy-agent does not know; the error
// is for a value that is not URL-query form.
func (s *Flags) Identifiers() (q url.Values, unknown []string, err error) {
	return proxyversion.ParseIdentifiers(s.ValueOr("agent-identifiers"))
}

// parseFlags parses argv as bin does. fields[i] names where argv[i] is written.
func parseFlags(bin *proxyversion.Binary, argv, fields []string) *Flags {
	c := bin.Parse(argv)
	s := &Flags{Binary: bin, Last: map[string]FlagUse{}}
	for _, u := range c.Uses {
		if _, seen := s.Last[u.Name]; !seen {
			s.Order = append(s.Order, u.Name)
		}
		s.Last[u.Name] = useAt(u, fields)
	}
	for _, u := range c.Unknown {
		s.Unknown = append(s.Unknown, useAt(u, fields))
	}
	for _, u := range c.Missing {
		s.Missing = append(s.Missing, useAt(u, fields))
	}
	return s
}

func useAt(u proxyversion.Use, fields []string) FlagUse {
	return FlagUse{Use: u, Field: fields[u.Arg]}
}

// argvFields names where each argv entry is written inside a container.
func argvFields(containerField string, nCommand, nArgs int) []string {
	out := make([]string, 0, nCommand+nArgs)
	for i := 0; i < nCommand; i++ {
		out = append(out, fmt.Sprintf("%s.command[%d]", containerField, i))
	}
	for i := 0; i < nArgs; i++ {
		out = append(out, fmt.Sprintf("%s.args[%d]", containerField, i))
	}
	return out
}
