package cli

import (
	bundlev1 "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
)

// missingBootstrapIP is the usage error of a build (build, ports) that
// would stop only because no address was given: no --bootstrap-ip, no
// $KONNECTIVITY_BOOTSTRAP_IP, and an enabled KonnectivityBundle config in
// target without its own spec.bootstrapIP. A missing flag is a usage error
// in every command (exitTable), as render says it; nil for anything else,
// which the build reports itself (a file, stdin, an unknown overlay).
func missingBootstrapIP(target string, opts kustbuild.Options) error {
	if opts.BootstrapIP.IsValid() || opts.Getenv != nil && opts.Getenv(bundlev1.EnvBootstrapIP) != "" {
		return nil
	}
	spec, err := kustbuild.ReadSpec(target, opts)
	if err != nil || spec == nil || spec.Enabled != nil && !*spec.Enabled || spec.BootstrapIP != "" {
		return nil
	}
	if target == "" {
		target = kustbuild.DefaultOverlay
	}
	return usagef("--bootstrap-ip was not given, and overlay %s sets no spec.bootstrapIP: agents dial that address and the server certificate names it "+
		"(fix: pass --bootstrap-ip IP, or set $%s or spec.bootstrapIP in the overlay)", target, bundlev1.EnvBootstrapIP)
}
