package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hosttxn"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/render"
)

func newCertsCommand() *Command {
	return &Command{
		Name:  "certs",
		Short: "Create or refresh the Konnectivity CA, server and agent certificates",
		Long: `Makes a self-signed CA (CN=konnectivity-signer), a server certificate for the
bootstrap IP (serverAuth) and one agent client certificate (clientAuth) in DIR:
ca.crt ca.key server.crt server.key agent.crt agent.key (keys 0600, DIR 0700).

Existing files are reused byte for byte while they are valid for the same IP
and CA with more than an hour left; otherwise what is bad is regenerated and
the reason printed.

It holds the lock of --root (the root directory's flock, shared with render
and teardown, waiting up to --lock-timeout), so it never interleaves with a
render writing the same certificates. --dir must be beneath --root, and a
symbolic link on its way or in place of a certificate file is refused.
Temporary files an older certs left in DIR (.NAME.tmp-DIGITS, regular files
of the running user) are removed and named on stderr.

` + exitHelp("certs") + `
A second signal stops it at once (a shell shows 130 or 143); the next certs,
render, teardown or status finishes or undoes what it left.`,
		Setup: setupCerts,
	}
}

func setupCerts(fs *pflag.FlagSet) func(IO, []string) error {
	var opts certs.Options
	bootstrapIPFlag(fs, &opts.BootstrapIP, "required; the server certificate's only SAN")
	markRequired(fs, "bootstrap-ip")
	fs.StringVar(&opts.Dir, "dir", "", "certificate directory (required), e.g. /opt/openshift/tls/konnectivity")
	markRequired(fs, "dir")
	fs.DurationVar(&opts.Validity, "validity", certs.DefaultValidity, "lifetime of new certificates")
	keyFlags(fs, &opts.KeyAlgorithm, &opts.KeySize)
	var lockRoot string
	rootFlag(fs, &lockRoot, "host root whose lock certs takes (shared with render and teardown) and that holds --dir", rootReads)
	var lockTimeout time.Duration
	lockTimeoutFlag(fs, &lockTimeout)
	return func(io IO, args []string) error {
		if len(args) > 0 {
			return Usagef("certs takes no arguments, got %q", args)
		}
		if err := opts.Validate(); err != nil {
			return certsFlagError(err)
		}
		sigs := catchSignals(io.Stderr, "certs")
		cleaned, err := lockedCerts(sigs.ctx, io, lockRoot, lockTimeout, opts)
		sigs.settle()
		if stop := interruption(sigs.ctx, "the certs run", "", cleaned, err); stop != nil {
			return stop
		}
		return err
	}
}

// lockedCerts takes the root's lock, recovers an interrupted run, removes
// what an older certs left and writes the set; cleaned says whether it
// changed the host before the set (then not "as before" it started).
func lockedCerts(ctx context.Context, io IO, root string, timeout time.Duration, opts certs.Options) (bool, error) {
	h, unlock, err := lockRootDir(ctx, root, timeout)
	if err != nil {
		return false, err // a locked root: exitForError
	}
	defer unlock()
	rel, err := confineCertsDir(h.Dir(), opts.Dir)
	if err != nil {
		return false, err
	}
	recovered, err := hosttxn.Recover(h)
	if err != nil {
		return false, err
	}
	if recovered != "" {
		fmt.Fprintf(io.Stderr, "recovered: %s\n", recovered)
	}
	swept, err := hosttxn.SweepLegacyCertTemps(h, rel)
	printSwept(io.Stderr, swept)
	cleaned := recovered != "" || len(swept) > 0
	if err != nil {
		return cleaned, err
	}
	return cleaned, runCerts(ctx, io, h, rel, opts)
}

// lockRootDir opens the root and takes its lock; unlock releases both.
func lockRootDir(ctx context.Context, root string, timeout time.Duration) (*hostfs.Root, func(), error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, nil, Usagef("--root: %v", err)
	}
	h, err := hostfs.Open(abs)
	if err != nil {
		return nil, nil, err
	}
	lock, err := h.Lock(ctx, timeout)
	if err != nil {
		h.Close()
		return nil, nil, err
	}
	return h, func() { lock.Unlock(); h.Close() }, nil
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
			return Usagef("%s: %v", flag, fe.Err)
		}
	}
	return err
}

// confineCertsDir requires --dir beneath --root and refuses a directory
// that is, or is reached through, a symbolic link: as root on a host that
// is not ours, certs writes keys only where the path says. It returns --dir
// relative to the root.
func confineCertsDir(root, dir string) (string, error) {
	absRoot, err1 := filepath.Abs(root)
	absDir, err2 := filepath.Abs(dir)
	if err := errors.Join(err1, err2); err != nil {
		return "", Usagef("--root/--dir: %v", err)
	}
	rel, err := filepath.Rel(absRoot, absDir)
	if err != nil || !filepath.IsLocal(rel) {
		return "", Usagef("--dir %s is not beneath --root %s (fix: pass a --root that holds it, / on the bootstrap node)", absDir, absRoot)
	}
	if err := render.ConfineCertDir(absRoot, filepath.ToSlash(rel)); err != nil {
		return "", fmt.Errorf("--dir: %w", err)
	}
	return filepath.ToSlash(rel), nil
}

// runCerts plans the set and writes what changed as one host transaction
// (writeCertSet), then makes the directory a safe place as certs.Write does.
// A cancelled ctx stops it before the write or, through hosttxn, between
// two steps of it.
func runCerts(ctx context.Context, io IO, h *hostfs.Root, rel string, opts certs.Options) error {
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	r, err := certs.Plan(opts)
	if err != nil {
		return err
	}
	written, err := writeCertSet(ctx, h, rel, r.Files)
	if err != nil {
		return fmt.Errorf("write the certificates: %w", err)
	}
	if err := certs.SecureDir(h.Abs(rel)); err != nil {
		return fmt.Errorf("the certificates are written, but %w", err)
	}
	if len(written) == 0 {
		fmt.Fprintf(io.Stdout, "reused %s: %s\n", opts.Dir, r.Reason)
		return nil
	}
	paths := make([]string, len(written))
	for i, name := range written {
		paths[i] = filepath.Join(opts.Dir, name)
	}
	fmt.Fprintf(io.Stdout, "wrote %s\n", strings.Join(paths, " "))
	fmt.Fprintf(io.Stdout, "generated because %s\n", r.Reason)
	return nil
}
