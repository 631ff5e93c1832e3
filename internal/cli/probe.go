package cli

import (
	"context"
	"time"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/egressprobe"
)

const probeLong = `Dials TARGET through the Konnectivity socket exactly as the bootstrap
kube-apiserver does: the rendered EgressSelectorConfiguration under --root is
read by k8s.io/apiserver's egress selector and its cluster selection's dialer
is used, with the socket name mapped from the kube-apiserver container's view
to the host file. Reports success, the proxy's error and the time taken.

TARGET is host:port (a plain TCP connect, e.g. a webhook Service's ClusterIP
and port, or an endpoint pod IP and targetPort), or an http(s) URL, which is
also asked for with GET (the target's certificate is shown, not verified).

Exit status: 0 the target was reached; 1 it was not; 2 usage error.`

func init() {
	register(&Command{
		Name:  "probe",
		Args:  "TARGET",
		Short: "Dial a host:port or URL through the tunnel exactly as the kube-apiserver does",
		Long:  probeLong,
		Setup: setupProbe,
	})
}

func setupProbe(fs *pflag.FlagSet) func(IO, []string) error {
	var opts egressprobe.Options
	var output string
	fs.StringVar(&opts.Root, "root", "/", "host root render wrote under")
	fs.DurationVar(&opts.Timeout, "timeout", 10*time.Second, "give up after this long")
	fs.StringVarP(&output, "output", "o", "text", "output format: text or json")
	return func(io IO, args []string) error {
		if len(args) != 1 {
			return Usagef("probe needs exactly one TARGET (host:port or https URL), got %d", len(args))
		}
		if output != "text" && output != "json" {
			return Usagef("--output: unknown format %q; use text or json", output)
		}
		opts.Target = args[0]
		res, err := egressprobe.Probe(context.Background(), opts)
		if err != nil {
			return Usagef("%v", err)
		}
		write := egressprobe.WriteText
		if output == "json" {
			write = egressprobe.WriteJSON
		}
		if err := write(io.Stdout, res); err != nil {
			return err
		}
		if !res.OK {
			return &ExitError{Code: 1}
		}
		return nil
	}
}
