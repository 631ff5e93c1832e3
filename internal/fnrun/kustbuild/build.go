// Package kustbuild builds kustomizations in-process with the
// bundle.konnectivity.io functions available, and without a kustomize binary
// or a konnectivity-bundle binary on PATH.
package kustbuild

import (
	"errors"
	"fmt"
	"io/fs"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	konnectivitybundle "github.com/bootstrap-konnectivity/konnectivity-bundle"
	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/dispatch"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
	configv1 "github.com/openshift/api/config/v1"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
)

// DefaultOverlay is what a build with no target builds.
const DefaultOverlay = "ipv4"

// Options are the runtime values of a build.
type Options struct {
	// BootstrapIP is the address the generator gets as a value (never
	// through KONNECTIVITY_BOOTSTRAP_IP), validated where it was read
	// (bootstrapip.Validate); the generator checks only its family. The
	// zero Addr leaves it to each config's own spec.bootstrapIP or the
	// environment. Build and BuildModel take it as --bootstrap-ip and
	// settle it against each config's spec.bootstrapIP (bootstrapip.Settle).
	BootstrapIP netip.Addr
	// Settled, when its Addr is valid, is the address the caller settled
	// against the overlay before the build (render, by bootstrapip.Resolve),
	// and what it settled it against: it stands for BootstrapIP, and the
	// config it was settled for takes it as it is, not settled again
	// (bootstrapip.Settled.For).
	Settled bootstrapip.Settled
	Image   string // KONNECTIVITY_IMAGE for the generator
	// ProxyVersion is --proxy-version, which the generator gets as a value
	// (bundle.Inputs.ProxyVersion, never through KONNECTIVITY_PROXY_VERSION)
	// in place of the environment's; nil leaves it to the environment.
	ProxyVersion *proxyversion.Version
	// TLSProfile and TLSProfileFrom are the cluster's TLS security
	// profile and the manifest it was read from (render), for the
	// generator (bundle.Inputs.TLSProfile); nil leaves it to the config.
	TLSProfile     *configv1.TLSSecurityProfile
	TLSProfileFrom string
	Getenv         func(string) string // the rest of the environment; nil = os.Getenv
	// Notes, when set, receives the warnings and info results of the
	// checks the kustomization wires in (an error result fails the build):
	// `build` prints them, as kustomize would not.
	Notes *framework.Results
	// Pin says what an image given by Image (or KONNECTIVITY_IMAGE) does to
	// an image the overlay pins (an images: entry for the placeholder, or
	// spec.image): by default the two together are a PinConflictError.
	Pin PinPolicy
	// Functions are the kinds the build runs in-process, with the host
	// writer the binary hands them (dispatch.Functions): the zero value
	// refuses KonnectivityCerts' spec.generate.
	Functions dispatch.Functions
}

// Build builds target ("" = the default overlay, an embedded overlay name, or
// a kustomization directory) and returns the YAML stream. The output is
// byte-identical to `kustomize build --enable-alpha-plugins --enable-exec`.
func Build(target string, opts Options) ([]byte, error) {
	fsys, dir, err := resolve(target)
	if err != nil {
		return nil, err
	}
	return build(fsys, dir, target, opts)
}

// BuildOverlay builds an embedded overlay by name, even when a directory of
// that name exists in the working directory.
func BuildOverlay(name string, opts Options) ([]byte, error) {
	if !slices.Contains(Overlays(), name) {
		return nil, fmt.Errorf("%q is not an overlay; overlays: %s", name, strings.Join(Overlays(), ", "))
	}
	fsys, err := embeddedFS()
	if err != nil {
		return nil, err
	}
	return build(fsys, "/overlays/"+name, name, opts)
}

func build(fsys filesys.FileSystem, dir, target string, opts Options) ([]byte, error) {
	m, _, err := run(fsys, dir, target, opts, false)
	if err != nil {
		return nil, err
	}
	return m.AsYaml()
}

// run is one kustomize run with our functions in-process and the wired
// checks applied to its result. A specOnly run (ReadSpec) stops at the
// first KonnectivityBundle config and returns no resources.
func run(fsys filesys.FileSystem, dir, target string, opts Options, specOnly bool) (resmap.ResMap, *fnFS, error) {
	wrapped := newFnFS(fsys, opts.env(), opts.Functions)
	wrapped.ip, wrapped.specOnly, wrapped.overlay = bootstrapip.Settled{Addr: opts.BootstrapIP.Unmap()}, specOnly, overlayName(target)
	if opts.Settled.Addr.IsValid() {
		wrapped.ip = opts.Settled
	}
	wrapped.version = opts.ProxyVersion
	wrapped.tlsProfile, wrapped.tlsProfileFrom = opts.TLSProfile, opts.TLSProfileFrom
	wrapped.overridePin = opts.Pin == PinOverride
	_, wrapped.immutable = fsys.(embeddedTree)
	if err := wrapped.refuseRemote(dir); err != nil {
		return nil, nil, fmt.Errorf("building %s: %w", describe(target, dir), err)
	}
	k := krusty.MakeKustomizer(kustomizerOptions())
	m, err := k.Run(wrapped, dir)
	if specOnly && (errors.Is(wrapped.err, errSpecRead) || wrapped.err == nil && err == nil) {
		return nil, wrapped, nil // the spec is read, or there is none: the build reports the rest
	}
	if IsFlagError(wrapped.err) { // names the overlay itself, said alike in every command
		return nil, nil, wrapped.err
	}
	if wrapped.err != nil {
		return nil, nil, fmt.Errorf("building %s: %w", describe(target, dir), wrapped.err)
	}
	if err != nil {
		err = remoteFetchError(err)
		if pt := patchTargetError(fsys, opts, dir, err); pt != nil {
			err = pt
		} else if out := outsideFile(err); out != nil {
			err = out
		} else if !errors.As(err, new(*RemoteError)) {
			// kustomize's own words quote the kustomization's entries
			// raw: one escaped line, so an entry cannot forge another.
			err = textsafe.Err(err)
		}
		return nil, nil, fmt.Errorf("building %s: %w", describe(target, dir), err)
	}
	if err := wrapped.validate(m, dir); err != nil {
		return nil, nil, fmt.Errorf("building %s: %w", describe(target, dir), err)
	}
	if err := wrapped.checkPins(opts); err != nil {
		if _, conflict := err.(*PinConflictError); conflict && opts.Pin == PinKeep {
			return run(fsys, dir, target, opts.withoutImage(), specOnly)
		}
		return nil, nil, fmt.Errorf("building %s: %w", describe(target, dir), err)
	}
	if err := refuseUnknownFields(m); err != nil {
		return nil, nil, fmt.Errorf("building %s: %w", describe(target, dir), err)
	}
	if opts.Notes != nil {
		*opts.Notes = append(*opts.Notes, wrapped.notes...)
	}
	return m, wrapped, nil
}

// kustomizerOptions match the kustomize CLI's ordering (legacy: krusty's
// own default does not sort), and let kustomize load its builtin plugins
// only. Our functions never reach kustomize: fnFS runs them in-process and
// hands kustomize their output. Anything else that is not a builtin (a KRM
// function's exec program or container image, a legacy exec plugin found
// under a plugin home, helm) fails the build with
// ErrOnlyBuiltinPluginsAllowed instead of running: the walk names such a
// config first (pluginrefs.go), and this is the wall behind it, which also
// holds for a config a sub-build made at build time.
func kustomizerOptions() *krusty.Options {
	o := krusty.MakeDefaultOptions()
	o.Reorder = krusty.ReorderOptionLegacy
	o.PluginConfig = types.DisabledPluginConfig()
	return o
}

func (o Options) env() func(string) string {
	base := o.Getenv
	if base == nil {
		base = os.Getenv
	}
	return func(key string) string {
		if key == bundle.EnvImage && o.Image != "" {
			return o.Image
		}
		return base(key)
	}
}

// Overlays lists the embedded overlay names.
func Overlays() []string {
	entries, err := fs.ReadDir(konnectivitybundle.Kustomizations, "overlays")
	if err != nil {
		panic(err) // the embed pattern guarantees the directory
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}

// resolve picks the filesystem: an existing directory wins over an embedded
// overlay of the same name, so a user's ./ipv6 is never shadowed; a file of
// that name is refused (UnknownTargetError), so neither is taken silently.
func resolve(target string) (filesys.FileSystem, string, error) {
	if target == "" {
		target = DefaultOverlay
	}
	if st, err := os.Stat(target); err == nil {
		if !st.IsDir() {
			return nil, "", &UnknownTargetError{Target: target, IsFile: true}
		}
		abs, err := filepath.Abs(target)
		if err != nil {
			return nil, "", err
		}
		return filesys.MakeFsOnDisk(), abs, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, "", err
	}
	if !strings.ContainsRune(target, filepath.Separator) {
		for _, name := range Overlays() {
			if name == target {
				mem, err := embeddedFS()
				return mem, "/overlays/" + name, err
			}
		}
	}
	return nil, "", &UnknownTargetError{Target: target}
}

// UnknownTargetError is a build target that is neither a kustomization
// directory nor an embedded overlay.
type UnknownTargetError struct {
	Target string
	IsFile bool // it exists but is a file
}

func (e *UnknownTargetError) Error() string {
	if e.shadows() {
		return e.Message() + " (fix: " + e.Fix() + ")"
	}
	return e.Message()
}

// Message is the error without its fix, for a caller that says the fix
// itself (render's InputError).
func (e *UnknownTargetError) Message() string {
	switch {
	case e.shadows():
		return fmt.Sprintf("%q is a file here and the name of an embedded overlay; neither is built while the file stands in the way", e.Target)
	case e.IsFile:
		return fmt.Sprintf("%s is a file; give a kustomization directory or an overlay name (%s)", textsafe.Value(e.Target), strings.Join(Overlays(), ", "))
	}
	return fmt.Sprintf("%q is neither a directory nor an overlay; overlays: %s", e.Target, strings.Join(Overlays(), ", "))
}

// Fix is what to do instead.
func (e *UnknownTargetError) Fix() string {
	if e.shadows() {
		return fmt.Sprintf("move the file ./%s away, or run from another directory; a kustomization is given as its directory", textsafe.Value(e.Target))
	}
	return "give a kustomization directory or an overlay name"
}

// shadows: the file has an embedded overlay's name, so which was meant is
// not guessed.
func (e *UnknownTargetError) shadows() bool { return e.IsFile && slices.Contains(Overlays(), e.Target) }

// overlayName is target as render names the overlay in its messages, so
// the settle policy's errors read the same from every command.
func overlayName(target string) string {
	if target == "" {
		return DefaultOverlay
	}
	return target
}

// describe is the build as its errors name it: an embedded overlay by
// name, a user's directory escaped (its name is the user's, not ours).
func describe(target, dir string) string {
	if strings.HasPrefix(dir, "/overlays/") && !filepath.IsAbs(target) && !strings.ContainsRune(target, filepath.Separator) {
		return "overlay " + strings.TrimPrefix(dir, "/overlays/")
	}
	return textsafe.Escape(dir)
}

// embeddedTree marks the in-memory copy of the embedded overlays, whose
// content cannot change while the process runs.
type embeddedTree struct{ filesys.FileSystem }

// embeddedFS copies the embedded tree into an in-memory filesystem rooted at /.
func embeddedFS() (filesys.FileSystem, error) {
	mem := filesys.MakeFsInMemory()
	err := fs.WalkDir(konnectivitybundle.Kustomizations, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(konnectivitybundle.Kustomizations, path)
		if err != nil {
			return err
		}
		return mem.WriteFile("/"+path, data)
	})
	return embeddedTree{mem}, err
}
