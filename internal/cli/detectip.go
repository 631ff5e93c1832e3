package cli

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
)

// newDetectIPCommand looks routes up with routes (the kernel's, or a
// test's stand-in).
func newDetectIPCommand(routes bootstrapip.RouteSource) *command {
	return &command{
		Name:  "detect-ip",
		Short: "Print the bootstrap node's IP address",
		Long: `Prints ` + bootstrapip.EnvOverride + ` when it is set (it must be a usable
address of the requested family), otherwise the source address the kernel
picks for a route to ` + bootstrapip.ProbeIPv4 + ` (ipv4) or ` + bootstrapip.ProbeIPv6 + ` (ipv6).
No packet is sent. Loopback, link-local, unspecified and multicast results
are errors.`,
		Examples: []string{
			ProgramName + " detect-ip",
			ProgramName + " detect-ip --family ipv6 --verbose",
		},
		Exits: exits(exitSuccess, "printed", exitFailure, "no usable address", exitUsage, ""),
		Setup: func(fs *pflag.FlagSet) func(IO, []string) error {
			family := fs.String("family", string(bootstrapip.IPv4), "address family: ipv4 or ipv6")
			markValues(fs, "family", []string{string(bootstrapip.IPv4), string(bootstrapip.IPv6)})
			verbose := fs.BoolP("verbose", "v", false, "also print where the address came from (stderr)")
			return func(io IO, args []string) error {
				if len(args) > 0 {
					return usagef("detect-ip takes no arguments, got %q", args)
				}
				fam, err := bootstrapip.ParseFamily(*family)
				if err != nil {
					return usagef("--family: %v", err)
				}
				d, err := bootstrapip.Detect(fam, io.Getenv, routes)
				if err != nil {
					return err
				}
				fmt.Fprintln(io.Stdout, d.Addr)
				if *verbose {
					fmt.Fprintf(io.Stderr, "%s from %s\n", d.Addr, d.Source)
				}
				return nil
			}
		},
	}
}
