package anp

import "strings"

// Use is one flag as written on a command line.
type Use struct {
	Name     string
	Value    string // "true" for a bare boolean flag
	HasValue bool   // false for a bare boolean flag
	Arg      int    // index in argv of the flag itself (its value may follow)
}

// CommandLine is argv read the way pflag reads it for one binary.
type CommandLine struct {
	Uses    []Use // known flags in the order given, repeats included
	Unknown []Use // flags the binary does not have: it exits with `unknown flag`
	Missing []Use // flags that need a value but are last on the line
}

// Parse reads argv[1:] as b does. Parsing stops at "--"; other positional
// arguments are skipped, as cobra passes them on and ANP ignores them.
func (b *Binary) Parse(argv []string) *CommandLine {
	c := &CommandLine{}
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
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
			use.Value, use.HasValue = argv[i], true
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
