package render

import (
	"errors"
	"net/netip"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/installprofile"
)

// buildModel builds the overlay once, for the bootstrap IP settled before
// the build: kustbuild.ReadSpec reads the overlay's config first (its own
// spec.bootstrapIP, ipFamily and whether it is enabled; nothing generated),
// settleIP decides the address from it, and the build hands that address
// to the generator. It returns the model, the address (the zero Addr when
// the overlay has no KonnectivityBundle config and no flag gave one) and,
// for auto, where the address came from. cluster, when there is one, is
// the install's APIServer manifest, whose TLS profile the generator follows.
func buildModel(d *deps, opts Options, cluster *installprofile.Found) (*kustbuild.Model, netip.Addr, string, error) {
	kopts := kustbuild.Options{Image: opts.Image, ProxyVersion: opts.ProxyVersion, Pin: opts.Pin, Getenv: getenvOf(opts), Functions: opts.Functions}
	if cluster != nil {
		kopts.TLSProfile, kopts.TLSProfileFrom = cluster.Profile, cluster.Path
	}
	if !opts.AutoBootstrapIP {
		kopts.BootstrapIP = opts.BootstrapIP // what a function other than the generator may take before the build
	}
	spec, err := d.readSpec(opts.Overlay, kopts)
	if err != nil {
		return nil, netip.Addr{}, "", buildError(err)
	}
	ip, source, err := settleIP(d, opts, spec)
	if err != nil {
		return nil, netip.Addr{}, "", err
	}
	if err := kustbuild.VersionUntold(spec, overlayName(opts.Overlay)); err != nil { // after the address, as the build orders them
		return nil, netip.Addr{}, "", buildError(err)
	}
	kopts.BootstrapIP, kopts.Settled = ip, settled(ip, opts, spec, source)
	m, err := d.build(opts.Overlay, kopts)
	if err != nil {
		return nil, netip.Addr{}, "", buildError(err)
	}
	return m, ip, source, nil
}

// buildError words an error of the overlay's build (or of reading its
// spec, which is the same build stopped early). The build's own text
// already names the overlay and the field at fault, with its fix, so a bad
// input is passed on as that text, neither named again nor given a second
// fix.
func buildError(err error) error {
	var input *InputError
	if errors.As(err, &input) {
		return input // already says which flag or field to change
	}
	var conflict *bootstrapip.ConflictError
	if errors.As(err, &conflict) { // two configs of the overlay name two addresses
		return settleError(conflict, "")
	}
	var untold *kustbuild.FlagError
	if errors.As(err, &untold) { // a flag left out: a usage error, worded alike in every command
		return (&InputError{Field: untold.Flag, Message: untold.Message, Fix: untold.Fix, Sentence: true}).usage()
	}
	var pin *kustbuild.PinConflictError
	if errors.As(err, &pin) {
		return &InputError{Field: pin.Source, Message: pin.Conflict(), Fix: pin.Fix(), Sentence: true}
	}
	var unknown *kustbuild.UnknownTargetError
	if errors.As(err, &unknown) {
		return inputErrorf("OVERLAY", unknown.Fix(), "%s", unknown.Message())
	}
	if kustbuild.IsBadInput(err) || errors.Is(err, inputread.ErrTooLarge) { // a file over its cap too
		e := &InputError{Message: err.Error()}
		if !strings.Contains(e.Message, "(fix: ") { // the YAML guard says what it refused, not what to do
			e.Fix = "correct that YAML"
		}
		return e
	}
	var failed *kustbuild.ValidatorError
	if errors.As(err, &failed) {
		return &CheckError{Findings: failed.Findings}
	}
	return err // the build's errors name the overlay ("building overlay ipv4: ...")
}

// getenvOf never returns nil: a nil Getenv means no environment, where the
// build would otherwise fall back to the process's.
func getenvOf(opts Options) func(string) string {
	if opts.Getenv == nil {
		return func(string) string { return "" }
	}
	return opts.Getenv
}

func overlayName(o string) string {
	if o == "" {
		return kustbuild.DefaultOverlay
	}
	return o
}
