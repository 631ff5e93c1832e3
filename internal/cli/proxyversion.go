package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/anp"
)

func newProxyVersionCommand() *Command {
	return &Command{
		Name:  "proxy-version",
		Args:  "--from-image REF | --from-help FILE|-",
		Short: "Print which apiserver-network-proxy version an image runs, for --proxy-version",
		Long: `Prints the proxy version (` + anp.Names() + `) that --proxy-version and
spec.proxyVersion take, learnt one of two ways:

  --from-image REF   from the image's OpenShift tag (:4.N); a reference by
                     digest or a tag that names no release cannot tell
  --from-help FILE   from the flags the image's own proxy-server lists,
                     which is what the bootkube stage does with the
                     payload's image (docs/bootkube.md):
                       podman run --rm --entrypoint /usr/bin/proxy-server IMAGE --help |
                         konnectivity-bundle proxy-version --from-help -

docs/proxy-versions.md says what each version renders and what wait sees.

Exit status: 0 printed; 1 the input does not tell; 2 usage error.`,
		Setup: func(fs *pflag.FlagSet) func(IO, []string) error {
			image := fs.String("from-image", "", "an apiserver-network-proxy image reference tagged with its OpenShift release")
			helpFile := fs.String("from-help", "", "the output of the image's `proxy-server --help` (- for stdin)")
			return func(io IO, args []string) error {
				if len(args) > 0 {
					return Usagef("proxy-version takes no arguments, got %d", len(args))
				}
				if (*image == "") == (*helpFile == "") {
					return Usagef("give exactly one of --from-image and --from-help")
				}
				v, err := proxyVersionOf(io.Stdin, *image, *helpFile)
				if err != nil {
					return err
				}
				_, err = fmt.Fprintln(io.Stdout, v.Name)
				return err
			}
		},
	}
}

// proxyVersionOf reads the version from the image's tag or its help text.
func proxyVersionOf(stdin io.Reader, image, helpFile string) (*anp.Version, error) {
	if image != "" {
		v, err := anp.FromImage(image)
		if err != nil {
			return nil, fmt.Errorf("%w (fix: %s)", err, anp.LearnFromImage(image))
		}
		return v, nil
	}
	var raw []byte
	var err error
	if helpFile == "-" {
		raw, err = io.ReadAll(io.LimitReader(stdin, 1<<20))
	} else {
		raw, err = os.ReadFile(helpFile)
	}
	if err != nil {
		return nil, fmt.Errorf("--from-help: %w", err)
	}
	v, err := anp.FromHelp(string(raw))
	if err != nil {
		return nil, fmt.Errorf("--from-help %s: %w", helpFile, err)
	}
	return v, nil
}
