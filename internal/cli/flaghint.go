package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/fieldhint"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// flagError is how a command reports flags cobra could not read: a usage
// error in every command (exitTable's rule for a flag problem). An
// unknown flag gets hint's answer for its name, if any.
//
// pflag's message quotes what was typed, so it is escaped and cut to one
// bounded line: an unknown flag to about echoMax characters of its name,
// any other (a value refused) to flagErrorMax.
func flagError(err error, hint func(name string) string) error {
	var unknown *pflag.NotExistError
	if !errors.As(err, &unknown) {
		return &usageError{Msg: textsafe.Short(err.Error(), flagErrorMax)}
	}
	msg := textsafe.Short(err.Error(), len("unknown shorthand flag: 'x' in -")+echoMax)
	if unknown.GetSpecifiedName() != "" {
		if h := hint(unknown.GetSpecifiedName()); h != "" {
			return &usageError{Msg: fmt.Sprintf("%s: %s", msg, h)}
		}
	}
	return &usageError{Msg: msg}
}

// flagErrorMax bounds a flag error's line.
const flagErrorMax = 400

// flagHint answers an unknown flag of cc (spec nil: the program itself):
// the overlay a command takes as its argument, the commands that declare
// the flag when cc does not, or cc's flags near it, by the rule cobra
// suggests commands by; "" when none applies. args are the words given.
func (c *CLI) flagHint(spec *command, cc *cobra.Command, args []string) func(name string) string {
	return func(name string) string {
		short := len(name) == 1
		if spec == nil && (name == "v" || name == "V") {
			return "the version is " + ProgramName + " --version (or " + ProgramName + " version)"
		}
		if spec != nil && name == "overlay" && spec.Sources == 1 {
			return fmt.Sprintf("%s takes the overlay as its argument: %s %s %s", spec.Name, ProgramName, spec.Name, textsafe.Short(flagValue(args, name, "OVERLAY"), echoMax))
		}
		if owners := flagOwners(cc.Root(), name); len(owners) > 0 {
			dashed := "--" + name
			if short {
				dashed = "-" + name
			}
			return fmt.Sprintf("%s is a flag of %s (not of %s)", dashed, strings.Join(owners, ", "), cc.Name())
		}
		if near := nearFlags(cc, name); len(near) > 0 {
			return fmt.Sprintf("did you mean %s?", strings.Join(near, " or "))
		}
		return ""
	}
}

// flagOwners are the commands that declare --name (or -name, one letter), visible.
func flagOwners(root *cobra.Command, name string) []string {
	var owners []string
	for _, cmd := range root.Commands() {
		f := cmd.Flags().Lookup(name)
		if len(name) == 1 {
			f = cmd.Flags().ShorthandLookup(name)
		}
		if f != nil && !f.Hidden && cmd.IsAvailableCommand() {
			owners = append(owners, cmd.Name())
		}
	}
	return owners
}

// nearFlags are cc's visible flags near name, each as --name: within
// cobra's SuggestionsMinimumDistance edits, or starting with it, the rule
// cobra answers a misspelled command by.
func nearFlags(cc *cobra.Command, name string) []string {
	var out []string
	cc.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden || len(name) < 2 {
			return
		}
		if fieldhint.EditDistance(strings.ToLower(name), f.Name) <= cc.Root().SuggestionsMinimumDistance || strings.HasPrefix(f.Name, strings.ToLower(name)) {
			out = append(out, "--"+f.Name)
		}
	})
	slices.Sort(out)
	return out
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
