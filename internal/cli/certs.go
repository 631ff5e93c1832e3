package cli

import (
	"errors"
	"path/filepath"
	"time"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/certset"
)

// NewCmdCerts is certs: the Konnectivity CA, server and agent certificates.
func NewCmdCerts() *command {
	return &command{
		Name:  "certs",
		Short: "Create or refresh the Konnectivity CA, server and agent certificates",
		Long: `Makes a self-signed CA (CN=konnectivity-signer), a server certificate for the
bootstrap IP (serverAuth) and one agent client certificate (clientAuth) in DIR:
ca.crt ca.key server.crt server.key agent.crt agent.key (keys 0600, DIR 0700).
Existing files are reused byte for byte while they are valid for the same IP
and CA with more than an hour left; otherwise what is bad is regenerated and
the reason printed. It holds the lock of --root, shared with render and
teardown; --dir must be beneath --root (docs/certificates.md, docs/render.md).`,
		Examples: []string{
			ProgramName + " certs --bootstrap-ip 192.0.2.10 --dir /opt/openshift/tls/konnectivity" + needs("root on the bootstrap node"),
			ProgramName + " certs --bootstrap-ip 192.0.2.10 --dir ./root/tls --root ./root --key-algorithm rsa --key-size 3072",
		},
		Reads:  reads{Instead: "reads and writes certificate files beneath its --dir; no endpoint, no stream"},
		Writes: writesBeneathDir,
		Exits:  tableExits("certs"),
		After: `
A second signal stops it at once (a shell shows 130 or 143); the next certs,
render, teardown or status finishes or undoes what it left.`,
		NoArgs:  true,
		Options: newCertsOptions,
	}
}

// certsOptions are certs' flags: the certificates' options, and the root
// whose lock it takes.
type certsOptions struct {
	certs.Options
	lockRoot    string
	lockTimeout time.Duration
}

func newCertsOptions(fs *pflag.FlagSet) options {
	o := &certsOptions{}
	bootstrapIPFlag(fs, &o.BootstrapIP, "required; the server certificate's only SAN")
	markRequired(fs, "bootstrap-ip")
	fs.StringVar(&o.Dir, "dir", "", "certificate directory (required), e.g. /opt/openshift/tls/konnectivity")
	markRequired(fs, "dir")
	fs.DurationVar(&o.Validity, "validity", certs.DefaultValidity, "lifetime of new certificates")
	keyFlags(fs, &o.KeyAlgorithm, &o.KeySize)
	rootFlag(fs, &o.lockRoot, "host root whose lock certs takes (shared with render and teardown) and that holds --dir", rootReads)
	lockTimeoutFlag(fs, &o.lockTimeout)
	return o
}

// Complete makes --dir absolute.
func (o *certsOptions) Complete(IO, []string) (err error) {
	if o.Dir, err = filepath.Abs(o.Dir); err != nil {
		return usagef("--dir: %v", err)
	}
	return nil
}

// Validate refuses certificate options certs.Options refuses, naming the flag.
func (o *certsOptions) Validate() error {
	if err := o.Options.Validate(); err != nil {
		return certsFlagError(err)
	}
	return nil
}

// Run writes or reuses the set under the root's lock, stopping at a signal.
func (o *certsOptions) Run(io IO) error {
	sigs := catchSignals(io.context(), io.Stderr, "certs")
	rep, err := certset.Run(sigs.ctx, certset.Options{Root: o.lockRoot, Dir: o.Dir, LockTimeout: o.lockTimeout, Certs: o.Options})
	sigs.settle()
	if rep != nil {
		rep.WriteNotes(io.Stderr)
	}
	if err == nil { // a report stdout refuses does not change the exit, as render's
		_ = output.Write(io.Stdout, output.Text, rep)
	}
	if stop := interruption(sigs.ctx, "the certs run", "", rep.Cleaned(), err); stop != nil {
		return stop
	}
	return certsExit(err)
}

// certsExit gives a --dir outside --root the exit code of a bad flag; a
// locked root keeps its LockedError, which exitForError gives the table's
// code.
func certsExit(err error) error {
	var outside *certset.NotBeneathError
	if errors.As(err, &outside) {
		return usagef("%v", outside)
	}
	return err
}

// certsFlagError names the flag behind an invalid option.
func certsFlagError(err error) error {
	flags := map[string]string{ // certs.Options field: this command's flag
		"Dir": "--dir", "BootstrapIP": "--bootstrap-ip", "Validity": "--validity",
		"KeyAlgorithm": "--key-algorithm", "KeySize": "--key-size",
	}
	var fe *certs.FieldError
	if errors.As(err, &fe) {
		if flag, ok := flags[fe.Field]; ok {
			return usagef("%s: %v", flag, fe.Err)
		}
	}
	return err
}
