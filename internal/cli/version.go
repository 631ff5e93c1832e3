package cli

import (
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// versionFrom picks the version: the link-time value, else the module
// version the toolchain derived from VCS, else a pseudo-version made of the
// recorded vcs.revision/vcs.time/vcs.modified. It never answers "(devel)",
// which says nothing about what was built.
func versionFrom(linked string, bi *debug.BuildInfo) string {
	if linked != "" {
		return linked
	}
	if bi == nil {
		return "unknown"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	vcs := map[string]string{}
	for _, s := range bi.Settings {
		vcs[s.Key] = s.Value
	}
	rev := vcs["vcs.revision"]
	if rev == "" {
		return "unknown"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	stamp := "00000000000000"
	if t, err := time.Parse(time.RFC3339, vcs["vcs.time"]); err == nil {
		stamp = t.UTC().Format("20060102150405")
	}
	v := "v0.0.0-" + stamp + "-" + rev
	if vcs["vcs.modified"] == "true" {
		v += "+dirty"
	}
	return v
}

func versionString(linked string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return versionFrom(strings.TrimSpace(linked), bi)
}

// newVersionCommand prints linked, the version cmd/konnectivity-bundle was
// stamped with at link time, or what versionFrom falls back to.
func newVersionCommand(linked string) *command {
	return &command{
		Name:  "version",
		Short: "Print the version of konnectivity-bundle",
		Long: `Prints the version: the one make stamped from git describe, else the one
the Go toolchain recorded from version control, else "unknown" (a build with
neither, e.g. go run).`,
		Examples: []string{ProgramName + " version"},
		Setup: func(fs *pflag.FlagSet) func(IO, []string) error {
			return func(io IO, args []string) error {
				if len(args) > 0 {
					return usagef("version takes no arguments")
				}
				fmt.Fprintf(io.Stdout, "%s %s\n", ProgramName, versionString(linked))
				return nil
			}
		},
	}
}
