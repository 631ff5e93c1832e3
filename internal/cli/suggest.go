package cli

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/fieldhint"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// nearest are the candidates closest to name by edit distance (at most a
// third of the name's length, at least 2 edits), or that the name is a
// prefix of, sorted; none when nothing is near. Misspelled flags and
// commands are answered by the same rule.
func nearest(name string, candidates []string) []string {
	best := max(2, len(name)/3)
	var out []string
	for _, cand := range candidates {
		d := fieldhint.EditDistance(name, cand)
		if strings.HasPrefix(cand, name) && len(name) >= 3 {
			d = min(d, 1)
		}
		switch {
		case d < best:
			best, out = d, []string{cand}
		case d == best:
			out = append(out, cand)
		}
	}
	sort.Strings(out)
	return out
}

// nearestFlags are the command's visible flags nearest to an unknown
// name, each as --name.
func nearestFlags(fs *pflag.FlagSet, name string) []string {
	var names []string
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	out := nearest(name, names)
	for i := range out {
		out[i] = "--" + out[i]
	}
	return out
}

// echoMax is how much of a word the user typed an error echoes back
// (an unknown command or flag), escaped.
const echoMax = 80

// unknownCommand answers a command name the CLI does not have with the
// nearest ones and where the list is, not with the whole overview.
func (c *CLI) unknownCommand(w io.Writer, name string) {
	var names []string
	for _, cmd := range c.commands {
		names = append(names, cmd.Name)
	}
	fmt.Fprintf(w, "%s: unknown command \"%s\"", ProgramName, textsafe.Short(name, echoMax))
	if near := nearest(name, names); len(near) > 0 {
		quoted := make([]string, len(near))
		for i, n := range near {
			quoted[i] = fmt.Sprintf("%q", n)
		}
		fmt.Fprintf(w, "; did you mean %s?", strings.Join(quoted, " or "))
	}
	fmt.Fprintf(w, "\nRun '%s --help' for the commands.\n", ProgramName)
}

// flagHint answers an unknown flag of cmd: the overlay a command takes as
// its argument, the commands that declare the flag when cmd does not, or
// cmd's flags nearest to it; "" when none applies.
func (c *CLI) flagHint(cmd *command, fs *pflag.FlagSet, args []string) func(name string) string {
	return func(name string) string {
		if name == "overlay" && cmd.Sources == 1 {
			return fmt.Sprintf("%s takes the overlay as its argument: %s %s %s", cmd.Name, ProgramName, cmd.Name, textsafe.Short(flagValue(args, name, "OVERLAY"), echoMax))
		}
		if owners := c.flagOwners(name); len(owners) > 0 {
			return fmt.Sprintf("--%s is a flag of %s (not of %s)", name, strings.Join(owners, ", "), cmd.Name)
		}
		if near := nearestFlags(fs, name); len(near) > 0 {
			return fmt.Sprintf("did you mean %s?", strings.Join(near, " or "))
		}
		return ""
	}
}

// flagOwners are the commands that declare --name, visible.
func (c *CLI) flagOwners(name string) []string {
	var owners []string
	for _, cmd := range c.commands {
		fs := newFlagSet(cmd)
		cmd.Setup(fs)
		if f := fs.Lookup(name); f != nil && !f.Hidden {
			owners = append(owners, cmd.Name)
		}
	}
	return owners
}

// flagValue is the value args give --name (--name=V or --name V), else
// placeholder.
func flagValue(args []string, name, placeholder string) string {
	i := slices.IndexFunc(args, func(a string) bool { return a == "--"+name || strings.HasPrefix(a, "--"+name+"=") })
	switch {
	case i < 0:
		return placeholder
	case strings.Contains(args[i], "="):
		_, v, _ := strings.Cut(args[i], "=")
		return v
	case i+1 < len(args) && !strings.HasPrefix(args[i+1], "-"):
		return args[i+1]
	}
	return placeholder
}
