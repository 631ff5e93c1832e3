package kustbuild

import (
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"runtime"
	"strings"

	"sigs.k8s.io/kustomize/api/types"
)

// The walls behind refuseRemote's walk, for a shape it might miss.
// kustomize's loader takes no HTTP client and no git cloner from its
// caller (krusty.Run makes its loader with git.ClonerUsingGitExec and a
// zero http.Client), so:
//   - every kustomization kustomize reads passes fnFS.ReadFile, which
//     refuses its remote entries before kustomize acts on them
//     (refuseRemoteEntries): git runs only for an entry of a kustomization;
//   - a download kustomize's loader still attempts fails in
//     http.DefaultTransport's proxy step, before any dial (refuseLoaderFetch);
//   - kustomize loads builtin plugins only (kustomizerOptions): no KRM
//     function program or container, no legacy exec plugin, no helm;
//   - a kustomize error that says it fetched or cloned is worded as ours
//     (remoteFetchError).

// errLoaderFetch is the download refuseLoaderFetch stops.
var errLoaderFetch = errors.New("konnectivity-bundle refused kustomize's download")

// loaderPackage is where kustomize's downloads start (FileLoader.Load).
const loaderPackage = "sigs.k8s.io/kustomize/api/internal/loader."

func init() {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		panic("kustbuild: http.DefaultTransport is not an *http.Transport; refuseLoaderFetch cannot wrap it")
	}
	t.Proxy = refuseLoaderFetch(t.Proxy)
}

// refuseLoaderFetch wraps the default transport's proxy function, which
// net/http calls on the requesting goroutine before it dials: a request
// from kustomize's loader fails there, every other passes to next. The
// transport stays an *http.Transport, so code that asserts it still works.
func refuseLoaderFetch(next func(*http.Request) (*url.URL, error)) func(*http.Request) (*url.URL, error) {
	return func(r *http.Request) (*url.URL, error) {
		if calledFromLoader() {
			return nil, errLoaderFetch
		}
		if next == nil {
			return nil, nil
		}
		return next(r)
	}
}

func calledFromLoader() bool {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, loaderPackage) {
			return true
		}
		if !more {
			return false
		}
	}
}

// refuseRemoteEntries refuses a kustomization file whose own entries name
// something remote (remoteRefs), before kustomize acts on any of them.
func (f *fnFS) refuseRemoteEntries(file string, data []byte) error {
	if f.immutable {
		return nil
	}
	var k types.Kustomization
	if k.Unmarshal(data) != nil {
		return nil // kustomize reports it, and acts on none of its entries
	}
	refs := remoteRefs(file, &k)
	if len(refs) == 0 {
		return nil
	}
	return &RemoteError{Refs: refs}
}

// kustomizeFetched are kustomize's words for a download or a clone it
// tried (or a git it looked for).
var kustomizeFetched = regexp.MustCompile(regexp.QuoteMeta(errLoaderFetch.Error()) + `|no 'git' program on path|failed to run '\S*git |URL is a git repository|HTTP Error`)

// remoteFetchError words a kustomize error that says it fetched, cloned or
// looked for git: a shape the walk did not know, refused all the same.
func remoteFetchError(err error) error {
	if types.IsErrOnlyBuiltinPluginsAllowed(err) {
		return &RemoteError{Refs: []RemoteRef{{Why: "kustomize was asked to run a plugin that is not builtin (a KRM function's program or container, or a legacy exec plugin), and refused: " + err.Error()}}}
	}
	if !kustomizeFetched.MatchString(err.Error()) {
		return err
	}
	return &RemoteError{Refs: []RemoteRef{{Why: "kustomize tried to fetch or clone an entry: " + err.Error()}}}
}
