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

// NewCmdRender is render: the bundle onto the bootstrap host.
func NewCmdRender() *command {
	return &command{
		Name:           "render",
		GeneratesCerts: true,
		Args:           buildArgs,
		Short:          "Write the bundle onto the bootstrap host, atomically and idempotently",
		Long:           renderLong,
		Examples: []string{
			ProgramName + " render ipv4 --root / --bootstrap-ip auto --image " + exampleImage + needs("root on the bootstrap node"),
			ProgramName + " render ipv4 --root ./root --bootstrap-ip 192.0.2.10 --image " + exampleImage + " --dry-run",
		},
		Reads:  reads{Instead: "builds an overlay and writes under --root; no endpoint, no stream"},
		Writes: writesHost,
		Exits:  tableExits("render"),
		After: `
A second signal stops it at once (a shell shows 130 or 143); the next
render, teardown, certs or status finishes or undoes what it left.`,
		Sources: 1,
		Options: newRenderOptions,
	}
}

// renderOptions are render's flags and its overlay argument.
type renderOptions struct {
	takesNothing // Validate: render.Run refuses the options before it takes the root's lock (an InputError with Usage set)
	render.Options
	quiet       bool
	verbose     bool
	overlayFlag string
}

func newRenderOptions(fs *pflag.FlagSet) options {
	o := &renderOptions{}
	fs.StringVar(&o.overlayFlag, "overlay", "", "the overlay, as the argument gives it (kept for scripts)")
	if err := fs.MarkHidden("overlay"); err != nil {
		panic(err) // declared just above
	}
	rootFlag(fs, &o.Root, "host root directory to write the bundle under, / on the bootstrap node", rootPlaces)
	bootstrapIPAutoFlag(fs, &o.BootstrapIP, &o.AutoBootstrapIP, "optional when the overlay sets spec.bootstrapIP")
	imageFlag(fs, &o.Image, &o.Pin, "omit it when the overlay pins the image (images: or spec.image)")
	proxyVersionFlag(fs, &o.ProxyVersion)
	fs.BoolVar(&o.DryRun, "dry-run", false, "print the plan (path, action, size) and write nothing")
	fs.BoolVar(&o.Force, "force", false, "overwrite existing files render did not write and regenerate damaged certificates")
	keyFlags(fs, &o.KeyAlgorithm, &o.KeySize)
	quietFlag(fs, &o.quiet)
	verboseFlag(fs, &o.verbose)
	lockTimeoutFlag(fs, &o.LockTimeout)
	return o
}

// Complete takes the overlay, from the argument or the hidden --overlay,
// and the environment.
func (o *renderOptions) Complete(io IO, args []string) (err error) {
	if o.Overlay, err = overlayArg("render", args); err != nil {
		return err
	}
	if o.overlayFlag != "" {
		if o.Overlay != "" {
			return usagef("the overlay is given twice (%q and --overlay %q): give it as the argument only", o.Overlay, o.overlayFlag)
		}
		o.Overlay = o.overlayFlag
	}
	o.Getenv, o.Functions = io.Getenv, io.functions
	return nil
}

// Run renders onto the host, stopping at a signal, and reports.
func (o *renderOptions) Run(io IO) error {
	sigs := catchSignals(io.context(), io.Stderr, "render")
	rep, err := render.Run(sigs.ctx, o.Options)
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
	if err := result.Say(io.Stderr, rep.Warnings, result.SaysInfo(false, o.quiet, o.verbose)); err != nil {
		return err
	}
	if !o.quiet {
		// A report stdout refuses does not change the exit: that
		// says what happened to the host.
		_ = output.Write(io.Stdout, output.Text, rep)
	}
	if stop != nil {
		return stop
	}
	return nil
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
