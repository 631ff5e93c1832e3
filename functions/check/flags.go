package check

import (
	"fmt"
	"strconv"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/anp"
)

// flagUse is one flag as written on the command line, and where.
type flagUse struct {
	anp.Use
	Field string // e.g. spec.containers[0].args[3]
}

// flagSet is a parsed command line: the last use of a flag wins, as in pflag.
type flagSet struct {
	bin     *anp.Binary // whose defaults fill in what is not given
	last    map[string]flagUse
	order   []string // names in the order first given
	unknown []flagUse
	missing []flagUse // flags that need a value but are last on the line
}

// get returns the value of a flag and whether it was given.
func (s *flagSet) get(name string) (flagUse, bool) {
	u, ok := s.last[name]
	return u, ok
}

// valueOr returns the flag's value, or the binary's default when it is not given.
func (s *flagSet) valueOr(name string) string {
	if u, ok := s.last[name]; ok {
		return u.Value
	}
	return s.bin.Default(name)
}

// intFlag returns an int flag's value (the binary's default when absent) and
// whether it parsed.
func (s *flagSet) intFlag(name string) (int, bool) {
	n, err := strconv.ParseInt(s.valueOr(name), 0, 64)
	return int(n), err == nil
}

// durationFlag returns a duration flag's value (the binary's default when
// absent) and whether it parsed.
func (s *flagSet) durationFlag(name string) (time.Duration, bool) {
	d, err := time.ParseDuration(s.valueOr(name))
	return d, err == nil
}

// fieldOr is where the flag is written, or def (the container's args) when it is not.
func (s *flagSet) fieldOr(name, def string) string {
	if u, ok := s.last[name]; ok {
		return u.Field
	}
	return def
}

// value returns the flag's value, or "" when it is not given.
func (s *flagSet) value(name string) string {
	return s.last[name].Value
}

// parseFlags parses argv as bin does. fields[i] names where argv[i] is written.
func parseFlags(bin *anp.Binary, argv, fields []string) *flagSet {
	c := bin.Parse(argv)
	s := &flagSet{bin: bin, last: map[string]flagUse{}}
	for _, u := range c.Uses {
		if _, seen := s.last[u.Name]; !seen {
			s.order = append(s.order, u.Name)
		}
		s.last[u.Name] = useAt(u, fields)
	}
	for _, u := range c.Unknown {
		s.unknown = append(s.unknown, useAt(u, fields))
	}
	for _, u := range c.Missing {
		s.missing = append(s.missing, useAt(u, fields))
	}
	return s
}

func useAt(u anp.Use, fields []string) flagUse {
	return flagUse{Use: u, Field: fields[u.Arg]}
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
