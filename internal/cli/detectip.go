package cli

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
)

// NewCmdDetectIP is detect-ip; it looks routes up with routes (the kernel's, or a
// test's stand-in).
func NewCmdDetectIP(routes bootstrapip.RouteSource) *command {
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
		Reads:  reads{Instead: "asks the kernel for a route; no endpoint, no stream"},
		Exits:  []exitLine{{exitSuccess, "printed"}, {exitFailure, "no usable address"}, usageExit},
		NoArgs: true,
		Options: func(fs *pflag.FlagSet) options {
			o := &detectIPOptions{routes: routes}
			fs.StringVar(&o.familyName, "family", string(bootstrapip.IPv4), "address family: ipv4 or ipv6")
			markValues(fs, "family", []string{string(bootstrapip.IPv4), string(bootstrapip.IPv6)})
			fs.BoolVarP(&o.verbose, "verbose", "v", false, "also print where the address came from (stderr)")
			return o
		},
	}
}

// detectIPOptions are detect-ip's flags and the routes it reads.
type detectIPOptions struct {
	takesNothing
	routes     bootstrapip.RouteSource
	familyName string
	family     bootstrapip.Family
	verbose    bool
}

// Complete reads --family.
func (o *detectIPOptions) Complete(IO, []string) (err error) {
	if o.family, err = bootstrapip.ParseFamily(o.familyName); err != nil {
		return usagef("--family: %v", err)
	}
	return nil
}

// Run prints the address, and with -v where it came from.
func (o *detectIPOptions) Run(io IO) error {
	d, err := bootstrapip.Detect(o.family, io.Getenv, o.routes)
	if err != nil {
		return err
	}
	fmt.Fprintln(io.Stdout, d.Addr)
	if o.verbose {
		fmt.Fprintf(io.Stderr, "%s from %s\n", d.Addr, d.Source)
	}
	return nil
}
