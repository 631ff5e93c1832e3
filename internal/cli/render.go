package cli

import (
	"errors"

	"github.com/spf13/pflag"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/result"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/output"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/render"
)

const renderLong = `Builds OVERLAY (an embedded overlay or a kustomization directory; default
` + kustbuild.DefaultOverlay + `) with the bootstrap IP and image, plans the certificates (reusing
valid ones), checks the complete bundle and writes every object to its host
path under --root: all or nothing, and a second run with the same inputs
writes nothing. teardown removes what it recorded. docs/render.md says where
the bootstrap IP comes from, which certificates are reused, the lock and
how an interrupted run is finished or undone.`

func newRenderCommand() *command {
	return &command{
		Name:  "render",
		Args:  buildArgs,
		Short: "Write the bundle onto the bootstrap host, atomically and idempotently",
		Long:  renderLong,
		Examples: []string{
			ProgramName + " render ipv4 --root / --bootstrap-ip auto --image " + exampleImage,
			ProgramName + " render ./my-overlay --root /tmp/root --bootstrap-ip 192.0.2.10 --dry-run",
		},
		More: exitHelp("render") + `
A second signal stops it at once (a shell shows 130 or 143); the next
render, teardown, certs or status finishes or undoes what it left.`,
		Sources: 1,
		Setup:   setupRender,
	}
}

func setupRender(fs *pflag.FlagSet) func(IO, []string) error {
	var opts render.Options
	var quiet, verbose bool
	var overlayFlag string
	fs.StringVar(&overlayFlag, "overlay", "", "the overlay, as the argument gives it (kept for scripts)")
	if err := fs.MarkHidden("overlay"); err != nil {
		panic(err) // declared just above
	}
	rootFlag(fs, &opts.Root, "host root directory to write the bundle under, / on the bootstrap node", rootPlaces)
	bootstrapIPAutoFlag(fs, &opts.BootstrapIP, &opts.AutoBootstrapIP, "optional when the overlay sets spec.bootstrapIP")
	imageFlag(fs, &opts.Image, &opts.Pin, "omit it when the overlay pins the image (images: or spec.image)")
	proxyVersionFlag(fs, &opts.ProxyVersion)
	fs.BoolVar(&opts.DryRun, "dry-run", false, "print the plan (path, action, size) and write nothing")
	fs.BoolVar(&opts.Force, "force", false, "overwrite existing files render did not write and regenerate damaged certificates")
	keyFlags(fs, &opts.KeyAlgorithm, &opts.KeySize)
	quietFlag(fs, &quiet)
	verboseFlag(fs, &verbose)
	lockTimeoutFlag(fs, &opts.LockTimeout)
	return func(io IO, args []string) error {
		overlay, err := overlayArg("render", args)
		if err != nil {
			return err
		}
		if opts.Overlay = overlay; overlayFlag != "" {
			if overlay != "" {
				return usagef("the overlay is given twice (%q and --overlay %q): give it as the argument only", overlay, overlayFlag)
			}
			opts.Overlay = overlayFlag
		}
		opts.Getenv, opts.Functions = io.Getenv, served
		sigs := catchSignals(io.context(), io.Stderr, "render")
		rep, err := render.Run(sigs.ctx, opts)
		sigs.settle()
		if rep != nil {
			rep.WriteNotes(io.Stderr)
		}
		stop := interruption(sigs.ctx, "the render", "", rep.Cleaned(), err)
		switch {
		case stop != nil && err != nil:
			return stop
		case err != nil:
			return renderExit(err)
		}
		if err := result.Say(io.Stderr, rep.Warnings, result.SaysInfo(false, quiet, verbose)); err != nil {
			return err
		}
		if !quiet {
			// A report stdout refuses does not change the exit: that
			// says what happened to the host.
			_ = output.Write(io.Stdout, output.Text, rep)
		}
		if stop != nil {
			return stop
		}
		return nil
	}
}

func renderExit(err error) error {
	var input *render.InputError
	var check *render.CheckError
	var refused *render.RefusedError
	var unsafe *hostfs.UnsafeError
	var durable *hosttxn.DurabilityError
	switch { // a locked root is exitLocked for every command: exitForError
	case errors.As(err, &durable):
		return &exitError{Code: exitNotDurable, Err: err}
	case errors.As(err, &input) && input.Usage: // a flag missing or refusing its value: exitTable's rule
		return &usageError{Msg: err.Error()}
	case errors.As(err, &input), errors.As(err, &unsafe), errors.Is(err, inputread.ErrTooLarge):
		return &exitError{Code: exitBadInput, Err: err}
	case errors.As(err, &check):
		return &exitError{Code: exitCheckFailed, Err: err}
	case errors.As(err, &refused):
		return &exitError{Code: exitRefused, Err: err}
	}
	return err
}
