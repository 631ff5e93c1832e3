package proxyversion

import "strings"

// Use is one flag as written on a command line.
type Use struct {
	Name     string
	Value    string // "true" for a bare boolean flag
	HasValue bool   // false for a bare boolean flag
	Arg      int    // index in argv of the flag itself
	ValueArg int    // index in argv of the value when it is the next entry ("--name value"), else 0
}

// CommandLine is argv read the way pflag reads it for one binary.
type CommandLine struct {
	Uses    []Use // known flags in the order given, repeats included
	Unknown []Use // flags the binary does not have: it exits with `unknown flag`
	Missing []Use // flags that need a value but are last on the line
	End     int   // index in argv where flags end: the "--" entry, or len(argv)
}

// Parse reads argv[1:] as b does. Parsing stops at "--"; other positional
// arguments are skipped, as cobra passes them on and ANP ignores them.
func (b *Binary) Parse(argv []string) *CommandLine {
	c := &CommandLine{End: len(argv)}
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			c.End = i
			break
		}
		name, value, hasValue, ok := b.splitFlag(a)
		if !ok {
			continue
		}
		use := Use{Name: name, Value: value, HasValue: hasValue, Arg: i}
		flag, known := b.Flags[name]
		if !known {
			c.Unknown = append(c.Unknown, use)
			continue
		}
		if !hasValue && flag.Kind != KindBool {
			if i+1 >= len(argv) {
				c.Missing = append(c.Missing, use)
				continue
			}
			i++
			use.Value, use.HasValue, use.ValueArg = argv[i], true, i
		}
		if !use.HasValue {
			use.Value = "true"
		}
		c.Uses = append(c.Uses, use)
	}
	return c
}

// splitFlag splits "--name=value", "--name" and the shorthands "-v2", "-v=2", "-v".
func (b *Binary) splitFlag(a string) (name, value string, hasValue, ok bool) {
	switch {
	case strings.HasPrefix(a, "--") && len(a) > 2:
		if n, v, found := strings.Cut(a[2:], "="); found {
			return n, v, true, true
		}
		return a[2:], "", false, true
	case strings.HasPrefix(a, "-") && len(a) > 1:
		long, isShort := b.Short[a[1:2]]
		if !isShort {
			return a, "", false, true // pflag refuses it as an unknown shorthand
		}
		if rest := a[2:]; rest != "" {
			return long, strings.TrimPrefix(rest, "="), true, true
		}
		return long, "", false, true
	}
	return "", "", false, false
}

// AnyProgram reads the command line of a program whose flags are not known:
// every -x and --x is an unknown flag, and it has a value only when written
// with '='. diff reads containers that run neither ANP binary with it.
var AnyProgram = &Binary{Flags: map[string]Flag{}, Short: map[string]string{}}

// Running is the binary of version v that argv starts: proxy-server,
// proxy-agent, else AnyProgram.
func (v *Version) Running(argv []string) *Binary {
	for _, b := range []*Binary{v.Server, v.Agent} {
		if b.Runs(argv) {
			return b
		}
	}
	return AnyProgram
}
