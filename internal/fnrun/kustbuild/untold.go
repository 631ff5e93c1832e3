package kustbuild

import (
	"errors"
	"fmt"
	"strings"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// FlagError is a build that stops because a flag was not given and
// nothing in the kustomization or the environment stands in for it: a
// usage error (exit 2) in every command that builds, worded once here so
// build, check, diff, ports and render say it alike.
type FlagError struct {
	Flag    string // the flag to give: "--proxy-version"
	Message string // the sentence after it, starting "was not given"
	Fix     string
}

func (e *FlagError) Error() string { return e.Flag + " " + e.Message + " (fix: " + e.Fix + ")" }

// flagProblem is the first flag problem config c shows before it is
// generated: a flag given wrong (familyMismatch) before one left out, the
// address (ipUntold) before the version (versionUntold); nil for none.
func (f *fnFS) flagProblem(c *yaml.RNode) error {
	for _, check := range []func(*yaml.RNode) error{f.familyMismatch, f.ipUntold, f.versionUntold} {
		if err := check(c); err != nil {
			return err
		}
	}
	return nil
}

// IsFlagError says err stops a build for a flag problem the flags alone
// could not show: a flag left out (FlagError), or --bootstrap-ip of a family
// the overlay does not take (FamilyError). Either is a usage error (exit 2)
// in every command, as a missing --bootstrap-ip is.
func IsFlagError(err error) bool {
	return errors.As(err, new(*FlagError)) || errors.As(err, new(*FamilyError))
}

// ipUntold is the FlagError of config c, an enabled KonnectivityBundle
// config, when nothing gives its bootstrap IP: no --bootstrap-ip, no
// $KONNECTIVITY_BOOTSTRAP_IP and no spec.bootstrapIP of its own. The
// generator would refuse it too, naming spec.bootstrapIP; the flag is what
// to give, worded alike in every command that builds.
func (f *fnFS) ipUntold(c *yaml.RNode) error {
	if c.GetKind() != bundle.Kind || f.ip.Addr.IsValid() || f.getenv(bundle.EnvBootstrapIP) != "" {
		return nil
	}
	spec, err := decodeSpec(c)
	if err != nil || spec.BootstrapIP != "" || spec.Enabled != nil && !*spec.Enabled {
		return nil
	}
	return &FlagError{Flag: "--bootstrap-ip", Fix: "pass --bootstrap-ip IP, or set $" + bundle.EnvBootstrapIP + " or spec.bootstrapIP in the overlay",
		Message: fmt.Sprintf("was not given, and overlay %s sets no spec.bootstrapIP: agents dial that address and the server certificate names it", f.overlay)}
}

// versionFix is how a user names the proxy version, in every command.
func versionFix() string {
	names := make([]string, len(proxyversion.Versions))
	for i, v := range proxyversion.Versions {
		names[i] = v.Describe()
	}
	return "pass --proxy-version " + strings.Join(names, " or ") + ", or an --image tagged with its OpenShift release (:4.N), or set $" +
		bundle.EnvProxyVersion + " or spec.proxyVersion in the overlay"
}

// versionUntold is VersionUntold for config c, as its generator would get
// it; nil for any other kind, and for a config that does not decode or
// names a version the generator does not know (the generator says those).
func (f *fnFS) versionUntold(c *yaml.RNode) error {
	if c.GetKind() != bundle.Kind {
		return nil
	}
	spec, err := decodeSpec(c)
	if err != nil || spec.ProxyVersion != "" {
		return nil
	}
	own := f.ownSpec(*spec)
	return VersionUntold(&own, f.overlay)
}

// VersionUntold is the FlagError of an enabled KonnectivityBundle spec,
// defaulted as ReadSpec returns it, when nothing names the proxy version its
// image runs: no --proxy-version, no $KONNECTIVITY_PROXY_VERSION, no
// spec.proxyVersion, and an image whose reference names no OpenShift
// release. The generator would refuse it too, but naming spec.proxyVersion,
// which the user did not write; a flag is what to give. nil for every other
// spec (nil too), and for an image the generator refuses on its own.
func VersionUntold(own *bundle.Spec, overlay string) error {
	if own == nil || own.Version() != nil || own.ProxyVersion != "" || own.Enabled != nil && !*own.Enabled || proxyversion.Unsupported(own.Image) != nil {
		return nil
	}
	why := "is the placeholder, which kustomize images: may replace later"
	fix := versionFix()
	if own.Image != bundle.DefaultImage {
		var untold *proxyversion.NoReleaseError
		if _, err := proxyversion.FromImage(own.Image); errors.As(err, &untold) {
			why = untold.Why
		}
		fix += ", or " + proxyversion.LearnFromImage(own.Image)
	}
	return &FlagError{Flag: "--proxy-version", Fix: fix, Message: fmt.Sprintf(
		"was not given, and overlay %s sets no spec.proxyVersion: its image %q %s, so nothing says which proxy version it runs, "+
			"and a flag the image's proxy lacks crash-loops the server", overlay, own.Image, why)}
}
