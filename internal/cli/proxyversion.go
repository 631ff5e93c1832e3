package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
)

// NewCmdProxyVersion is proxy-version: which version an image runs.
func NewCmdProxyVersion() *command {
	return &command{
		Name:  "proxy-version",
		Args:  "--from-image REF | --from-help FILE|- | --list",
		Short: "Print which apiserver-network-proxy version an image runs, for --proxy-version",
		Long: wrap(`Prints the proxy version that --proxy-version and spec.proxyVersion take,
`+proxyversion.Names()+`:
from the image's OpenShift tag (:4.N; a reference by
digest or a tag that names no release cannot tell), or from the flags the
image's own proxy-server --help lists, which is what the bootkube stage does
with the payload's image (docs/bootkube.md). docs/proxy-versions.md says
what each version renders and what wait sees. --list prints every supported
version, one a line, oldest first (tools/build.sh builds them).`, helpWidth),
		Examples: []string{
			ProgramName + " proxy-version --from-image " + exampleImage,
			"podman run --rm --entrypoint /usr/bin/proxy-server IMAGE --help | " + ProgramName + " proxy-version --from-help -" + needs("podman and an IMAGE"),
			ProgramName + " proxy-version --list",
		},
		Reads:  reads{Input: true, Unusable: exitFailure},
		Exits:  []exitLine{{exitSuccess, "printed"}, {exitFailure, "the input does not tell"}, usageExit},
		NoArgs: true,
		Options: func(fs *pflag.FlagSet) options {
			o := &proxyVersionOptions{}
			fs.StringVar(&o.image, "from-image", "", "an apiserver-network-proxy image reference (`REF`) tagged with its OpenShift release")
			fs.StringVar(&o.helpFile, "from-help", "", "a `FILE` holding what the image's proxy-server --help prints (- for stdin)")
			fs.BoolVar(&o.list, "list", false, "print every supported version's name, one a line, oldest first")
			return o
		},
	}
}

// proxyVersionOptions are proxy-version's flags: where the version is
// read from, or --list.
type proxyVersionOptions struct {
	takesNothing
	image, helpFile string
	list            bool
}

// Validate asks for exactly one source, or --list alone.
func (o *proxyVersionOptions) Validate() error {
	switch {
	case o.list && (o.image != "" || o.helpFile != ""):
		return usagef("--list takes neither --from-image nor --from-help")
	case !o.list && (o.image == "") == (o.helpFile == ""):
		return usagef("give exactly one of --from-image and --from-help, or --list")
	}
	return nil
}

// Run prints the version's name, or every name.
func (o *proxyVersionOptions) Run(io IO) error {
	if o.list {
		_, err := fmt.Fprintln(io.Stdout, strings.Join(proxyversion.VersionNames(), "\n"))
		return err
	}
	v, err := proxyVersionOf(io.Stdin, o.image, o.helpFile)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(io.Stdout, v.Name)
	return err
}

// proxyVersionOf reads the version from the image's tag or its help text.
func proxyVersionOf(stdin io.Reader, image, helpFile string) (*proxyversion.Version, error) {
	if image != "" {
		v, err := proxyversion.FromImage(image)
		if err != nil {
			return nil, fmt.Errorf("%w (fix: %s)", err, proxyversion.LearnFromImage(image))
		}
		return v, nil
	}
	raw, err := inputread.Read(helpFile, stdin, inputread.HelpText)
	if err != nil {
		return nil, fmt.Errorf("--from-help: %w", err)
	}
	v, err := proxyversion.FromHelp(string(raw))
	if err != nil {
		return nil, fmt.Errorf("--from-help %s: %w", helpFile, err)
	}
	return v, nil
}
