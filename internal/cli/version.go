package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/pflag"
)

// Version is set at link time (-ldflags "-X .../internal/cli.Version=v1.2.3");
// otherwise the module version recorded by the Go toolchain is used.
var Version = ""

func versionString() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

func init() {
	register(&Command{
		Name:  "version",
		Short: "Print the version of konnectivity-bundle",
		Setup: func(fs *pflag.FlagSet) func(IO, []string) error {
			return func(io IO, args []string) error {
				if len(args) > 0 {
					return Usagef("version takes no arguments")
				}
				fmt.Fprintf(io.Stdout, "%s %s\n", ProgramName, versionString())
				return nil
			}
		},
	})
}
