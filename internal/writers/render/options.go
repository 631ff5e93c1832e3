// Package render puts the Konnectivity bundle onto a bootstrap host: it
// builds the overlay in-process, plans the certificates, checks the whole
// stream, and writes every object to its host path under a root directory
// as one all-or-nothing, idempotent transaction.
package render

import (
	"net/netip"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/dispatch"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// Options is everything one render needs.
type Options struct {
	// Overlay is "" (the default overlay), an overlay name such as "ipv6",
	// or a kustomization directory.
	Overlay string
	// Root is the host's root directory; "/" on a real bootstrap node.
	Root string
	// BootstrapIP is --bootstrap-ip, the address agents dial, validated
	// where the flag is read (the zero Addr: not given). Render settles it
	// once with the overlay's own spec.bootstrapIP and ipFamily, read before
	// the build, by bootstrapip.Resolve, which checks it for any caller.
	BootstrapIP netip.Addr
	// AutoBootstrapIP is --bootstrap-ip auto: detect the address, unless the
	// overlay names one; BootstrapIP is ignored then.
	AutoBootstrapIP bool
	// Image is the apiserver-network-proxy image reference.
	Image string
	// ProxyVersion is --proxy-version: the proxy version the image runs
	// (kustbuild.Options.ProxyVersion); nil when not given.
	ProxyVersion *proxyversion.Version
	// Pin is what Image (or KONNECTIVITY_IMAGE) does to an image the overlay
	// pins: an error by default (kustbuild.PinPolicy).
	Pin kustbuild.PinPolicy
	// DryRun plans and reports but touches nothing.
	DryRun bool
	// Force overwrites destinations that render did not write.
	Force bool
	// KeyAlgorithm ("" or ecdsa, or rsa) and KeySize (0 for the default)
	// are what new certificates are made with, as for the certs command;
	// certificates of another algorithm or size are replaced.
	KeyAlgorithm string
	KeySize      int
	// LockTimeout is how long to wait for another run holding the root's
	// lock; 0 fails at once.
	LockTimeout time.Duration
	// Getenv is passed to the build and IP detection; nil means no environment.
	Getenv func(string) string
	// Functions are the kinds the build runs in-process (kustbuild.Options.Functions).
	Functions dispatch.Functions

	// deps replaces the collaborators in tests; nil uses the real ones.
	deps *deps
	// ownerID replaces the random owner id of a root's first render (tests
	// with golden files).
	ownerID string
}

// FileReport is one file of the plan.
type FileReport struct {
	Path      string // absolute path including the root
	RelPath   string // path relative to the root, as in the state file
	Placement string
	Action    hosttxn.Action
	Size      int
}

// Report says what render did, or with DryRun would do.
type Report struct {
	Root string
	// Overlay names the overlay as it was given, or the default overlay's
	// name when none was.
	Overlay     string
	DryRun      bool
	Disabled    bool // the overlay produces nothing (bootstrap-in-place)
	BootstrapIP string
	// BootstrapIPSource says where --bootstrap-ip auto found BootstrapIP
	// ("OPENSHIFT_INSTALL_BOOTSTRAP_NODE_IP", "source address of the route
	// to 1.1.1.1", the overlay's spec.bootstrapIP); "" when it was given.
	BootstrapIPSource string
	// CertsGenerated is false when the existing certificates are reused.
	CertsGenerated bool
	CertsReason    string
	// Recovered says how an interrupted earlier run was finished or undone.
	Recovered string
	// Swept lists the temporary files an older certs left in the
	// certificate directory, which this run removed.
	Swept    []string
	Files    []FileReport
	Warnings framework.Results // check findings that are not errors

	certDir string // absolute certificate directory, once planned
}

// Count returns how many files have the given action.
func (r *Report) Count(a hosttxn.Action) int {
	n := 0
	for _, f := range r.Files {
		if f.Action == a {
			n++
		}
	}
	return n
}

// Changed reports whether render wrote (or would write) anything.
func (r *Report) Changed() bool {
	return len(r.Files) != r.Count(hosttxn.Unchanged)
}

// Cleaned says whether the run changed the host before its own work
// (recovered an interrupted run, or swept an older certs' temporaries), as
// certset.Report.Cleaned does: then the host is not "as before" it started.
func (r *Report) Cleaned() bool {
	return r != nil && (r.Recovered != "" || len(r.Swept) > 0)
}
