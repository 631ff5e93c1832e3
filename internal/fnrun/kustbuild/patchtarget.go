package kustbuild

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bootstrapip"
)

// untargetedPatchError is a patch without a target: field whose own apiVersion,
// kind and metadata.name match no object of its kustomization. kustomize
// says "failed to find unique target for patch" with an id in its own
// notation; this names the objects the kustomization does have.
type untargetedPatchError struct {
	Dir    string   // the kustomization whose patch it is
	Patch  string   // "Kind name" or "Kind namespace/name" the patch names
	Have   []string // the objects there, the same way
	Reason error    // kustomize's error
}

func (e *untargetedPatchError) Error() string {
	have := "none"
	if len(e.Have) > 0 {
		have = strings.Join(e.Have, ", ")
	}
	return fmt.Sprintf("a patch in %s names %s, which is not among its objects (%s; kustomize: %v) (fix: correct the patch's kind, metadata.name or metadata.namespace, or give it a target:)",
		filepath.Join(e.Dir, "kustomization.yaml"), e.Patch, have, e.Reason)
}

var (
	noTargetRe  = regexp.MustCompile(`failed to find unique target for patch (\S+)`)
	recursedRe  = regexp.MustCompile(`recursed accumulation of path '([^']+)'`)
	patchFields = []string{"patches", "patchesStrategicMerge", "patchesJson6902"}
)

// patchTargetError turns kustomize's missing-target error for a build of
// dir into an untargetedPatchError, listing the objects of the kustomization
// the patch is in (built again without its patches); nil for other errors.
func patchTargetError(fsys filesys.FileSystem, opts Options, dir string, err error) error {
	m := noTargetRe.FindStringSubmatch(err.Error())
	if m == nil {
		return nil
	}
	where := dir
	if all := recursedRe.FindAllStringSubmatch(err.Error(), -1); len(all) > 0 {
		where = all[len(all)-1][1]
	}
	probe := newFnFS(fsys, opts.env(), opts.Functions)
	probe.ip = bootstrapip.Settled{Addr: opts.BootstrapIP} // the generator needs the address to list what it makes
	probe.version = opts.ProxyVersion
	probe.dropPatchesIn = filepath.Clean(where)
	res, perr := krusty.MakeKustomizer(kustomizerOptions()).Run(probe, where)
	if perr != nil {
		return nil // the objects cannot be listed: kustomize's error stands
	}
	var have []string
	for _, r := range res.Resources() {
		have = append(have, objectRef(r.GetKind(), r.GetNamespace(), r.GetName()))
	}
	sort.Strings(have)
	return &untargetedPatchError{Dir: where, Patch: idRef(m[1]), Have: have, Reason: err}
}

// idRef reads kustomize's resource id, Kind.version.group/name.namespace
// (the namespace [noNs] for none; a name may hold dots, a namespace not).
func idRef(id string) string {
	gvk, nn, ok := strings.Cut(id, "/")
	if !ok {
		return id
	}
	kind, _, _ := strings.Cut(gvk, ".")
	name, ns := nn, ""
	if i := strings.LastIndex(nn, "."); i >= 0 {
		name, ns = nn[:i], nn[i+1:]
	}
	if ns == "[noNs]" {
		ns = ""
	}
	return objectRef(kind, ns, name)
}

func objectRef(kind, namespace, name string) string {
	if namespace == "" {
		return kind + " " + name
	}
	return kind + " " + namespace + "/" + name
}

// dropPatches clears the patch fields of kust when it is the kustomization
// an untargetedPatchError lists the objects of.
func (f *fnFS) dropPatches(dir string, kust *yaml.RNode) error {
	if f.dropPatchesIn == "" || filepath.Clean(dir) != f.dropPatchesIn {
		return nil
	}
	for _, field := range patchFields {
		if err := kust.PipeE(yaml.Clear(field)); err != nil {
			return err
		}
	}
	return nil
}
