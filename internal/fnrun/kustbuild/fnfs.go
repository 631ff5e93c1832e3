package kustbuild

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/dispatch"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/krm/krmconfig"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/proxyversion"
	configv1 "github.com/openshift/api/config/v1"
	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// fnFS runs our functions in-process instead of as exec plugins. When
// kustomize reads a kustomization whose generators: entry resolves to
// bundle.konnectivity.io configs, fnFS generates their output itself and
// hands kustomize a kustomization that lists that output under resources:.
// kustomize's legacy ordering is a total order on resource ids, so moving
// generated objects from generators: to resources: leaves the output bytes
// unchanged (the CLI comparison test proves it). Validators of our kinds are
// taken out and run on the final output. Entries of other kinds are left to
// kustomize.
type fnFS struct {
	filesys.FileSystem
	getenv  func(string) string
	fns     dispatch.Functions    // Options.Functions
	ip      bootstrapip.Settled   // Options.Settled, else Options.BootstrapIP as given
	version *proxyversion.Version // Options.ProxyVersion
	// tlsProfile and tlsProfileFrom are Options.TLSProfile and TLSProfileFrom.
	tlsProfile     *configv1.TLSSecurityProfile
	tlsProfileFrom string
	specOnly       bool   // ReadSpec: stop at the first KonnectivityBundle config
	overlay        string // the target as messages name it

	mu        sync.Mutex
	virtual   map[string][]byte // generated resource files, by absolute path
	rewritten map[string][]byte // rewritten kustomization files, by absolute path
	checks    []scopedCheck     // validator configs taken out of kustomizations
	err       error             // first function error; kustomize would bury it
	immutable bool              // the embedded tree: nested builds can be cached

	spec  *bundle.Spec      // the first KonnectivityBundle spec generated (ReadSpec: read)
	notes framework.Results // the wired checks' warnings and info

	pins        []imagePin // images the overlay pins (pin.go)
	overridePin bool       // Options.Pin is PinOverride: a given image replaces spec.image too

	dropPatchesIn string // a kustomization built without its patches (patchtarget.go)
}

func newFnFS(fsys filesys.FileSystem, getenv func(string) string, fns dispatch.Functions) *fnFS {
	return &fnFS{FileSystem: fsys, getenv: getenv, fns: fns, virtual: map[string][]byte{}, rewritten: map[string][]byte{}}
}

func isKustomizationFile(path string) bool {
	base := filepath.Base(path)
	for _, n := range konfig.RecognizedKustomizationFileNames() {
		if base == n {
			return true
		}
	}
	return false
}

// ReadFile serves generated files and rewritten kustomizations.
func (f *fnFS) ReadFile(path string) ([]byte, error) {
	f.mu.Lock()
	if data, ok := f.virtual[path]; ok {
		f.mu.Unlock()
		return data, nil
	}
	if data, ok := f.rewritten[path]; ok {
		f.mu.Unlock()
		return data, nil
	}
	f.mu.Unlock()
	data, err := f.guardedRead(path)
	if err != nil || !isKustomizationFile(path) {
		return data, err
	}
	err = f.refuseRemoteEntries(path, data)
	var out []byte
	if err == nil {
		out, err = f.rewrite(filepath.Dir(path), data)
	}
	if err == nil && !f.immutable {
		err = f.checkPatchBodies(path, data)
	}
	if err != nil {
		f.mu.Lock()
		if f.err == nil {
			f.err = err
		}
		f.mu.Unlock()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.mu.Lock()
	f.rewritten[path] = out
	f.mu.Unlock()
	return out, nil
}

// Exists reports generated files as present.
func (f *fnFS) Exists(path string) bool {
	return f.isVirtual(path) || f.FileSystem.Exists(path)
}

// IsDir reports generated files as files.
func (f *fnFS) IsDir(path string) bool {
	return !f.isVirtual(path) && f.FileSystem.IsDir(path)
}

// CleanedAbs resolves generated files, which the disk cannot.
func (f *fnFS) CleanedAbs(path string) (filesys.ConfirmedDir, string, error) {
	if f.isVirtual(path) {
		dir, _, err := f.FileSystem.CleanedAbs(filepath.Dir(path))
		return dir, filepath.Base(path), err
	}
	return f.FileSystem.CleanedAbs(path)
}

func (f *fnFS) isVirtual(path string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.virtual[path]
	return ok
}

// rewrite moves generators of our kinds to resources and takes out
// validators of our kinds.
func (f *fnFS) rewrite(dir string, data []byte) ([]byte, error) {
	kust, err := yaml.Parse(string(data))
	if err != nil {
		return data, nil // let kustomize report the syntax error in its own words
	}
	f.recordImagePins(dir, kust)
	if err := f.dropPatches(dir, kust); err != nil {
		return nil, err
	}
	var generated []string
	keep, err := f.filterEntries(kust, "generators", dir, func(i int, configs []*yaml.RNode) (bool, error) {
		out, err := f.generate(dir, configs)
		if err != nil {
			return false, err
		}
		name := fmt.Sprintf(".konnectivity-bundle-generated-%d.yaml", i)
		f.mu.Lock()
		f.virtual[filepath.Join(dir, name)] = out
		f.mu.Unlock()
		generated = append(generated, name)
		return true, nil
	})
	if err != nil || !keep {
		return data, err
	}
	// A check may be wired under validators: (legacy plugin) or, last, under
	// transformers: (exec function; kustomize rejects exec validators).
	for _, field := range []string{"validators", "transformers"} {
		take := func(_ int, configs []*yaml.RNode) (bool, error) { return f.takeChecks(dir, configs) }
		if _, err := f.filterEntries(kust, field, dir, take); err != nil {
			return nil, err
		}
	}
	if len(generated) > 0 {
		if err := appendResources(kust, generated); err != nil {
			return nil, err
		}
	}
	return []byte(kust.MustString()), nil
}

// takeChecks takes entries whose configs are all our validators; they run
// on the output of the kustomization in dir that lists them (see scope.go).
func (f *fnFS) takeChecks(dir string, configs []*yaml.RNode) (bool, error) {
	for _, c := range configs {
		if fn, _ := f.fns.Lookup(c.GetKind()); fn.Role != dispatch.Validator {
			return false, nil
		}
	}
	f.mu.Lock()
	f.checks = append(f.checks, scopedCheck{dir: dir, configs: configs})
	f.mu.Unlock()
	return true, nil
}

// filterEntries calls take for each entry of field that resolves to configs
// of our kinds, and removes the entries take accepts. It reports whether the
// field exists at all.
func (f *fnFS) filterEntries(kust *yaml.RNode, field, dir string, take func(int, []*yaml.RNode) (bool, error)) (bool, error) {
	list := kust.Field(field)
	if list == nil || list.Value.YNode().Kind != yaml.SequenceNode {
		return true, nil
	}
	var kept []*yaml.Node
	for i, entry := range list.Value.YNode().Content {
		configs, err := f.ourConfigs(dir, entry.Value)
		if err != nil {
			return false, err
		}
		taken := false
		if configs != nil {
			if taken, err = take(i, configs); err != nil {
				return false, err
			}
		}
		if !taken {
			kept = append(kept, entry)
		}
	}
	list.Value.YNode().Content = kept
	if len(kept) == 0 {
		return true, kust.PipeE(yaml.Clear(field))
	}
	return true, nil
}

func appendResources(kust *yaml.RNode, names []string) error {
	res, err := kust.Pipe(yaml.LookupCreate(yaml.SequenceNode, "resources"))
	if err != nil {
		return err
	}
	for _, n := range names {
		if err := res.PipeE(yaml.Append(yaml.NewStringRNode(n).YNode())); err != nil {
			return err
		}
	}
	return nil
}

// ourConfigs returns the configs an entry names when all are ours, else nil.
func (f *fnFS) ourConfigs(dir, entry string) ([]*yaml.RNode, error) {
	var nodes []*yaml.RNode
	switch path := filepath.Join(dir, entry); {
	case strings.Contains(entry, "\n"):
		nodes = parseConfigs([]byte(entry)) // inline config
	case f.FileSystem.IsDir(path):
		var err error
		if nodes, err = f.buildDir(path); err != nil || nodes == nil {
			return nil, err
		}
	case !insideDir(dir, path):
		return nil, nil // kustomize refuses it (OutsideFileError)
	default:
		data, err := f.guardedRead(path)
		if errors.As(err, new(*yamlguard.Error)) {
			return nil, err
		}
		if err != nil {
			return nil, nil
		}
		nodes = parseConfigs(data)
	}
	if len(nodes) == 0 {
		return nil, nil
	}
	for _, n := range nodes {
		if !isOurConfig(n) {
			return nil, nil
		}
	}
	return nodes, nil
}

// isOurConfig says whether n is a config of one of our functions, which
// fnFS runs in-process.
func isOurConfig(n *yaml.RNode) bool {
	return slices.Contains(dispatch.Kinds(), n.GetKind()) && n.GetApiVersion() == krmconfig.APIVersion
}

func parseConfigs(data []byte) []*yaml.RNode {
	nodes, err := (&kio.ByteReader{Reader: bytes.NewReader(data), OmitReaderAnnotations: true}).Read()
	if err != nil {
		return nil // not YAML we know: leave the entry to kustomize
	}
	return nodes
}

// embeddedBuilds caches nested builds of the embedded tree, which cannot
// change while the process runs; callers get copies.
var embeddedBuilds sync.Map // path -> []*yaml.RNode

// buildDir builds a directory named under generators:/transformers:/
// validators: to see which configs it yields; nil when kustomize should
// report the problem itself, in context.
func (f *fnFS) buildDir(path string) ([]*yaml.RNode, error) {
	if cached, ok := embeddedBuilds.Load(path); ok && f.immutable {
		return copyNodes(cached.([]*yaml.RNode)), nil
	}
	m, err := krusty.MakeKustomizer(kustomizerOptions()).Run(f, path)
	if err != nil {
		return nil, nil
	}
	nodes, err := resourceNodes(m)
	if err != nil {
		return nil, err
	}
	if f.immutable {
		embeddedBuilds.Store(path, copyNodes(nodes))
	}
	return nodes, nil
}

func copyNodes(in []*yaml.RNode) []*yaml.RNode {
	out := make([]*yaml.RNode, len(in))
	for i, n := range in {
		out[i] = n.Copy()
	}
	return out
}
