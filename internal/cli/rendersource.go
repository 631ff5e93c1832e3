package cli

import (
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundlediff"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hoststatus/rendered"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/kustbuild"
)

// loadSource reads one bundle argument for check, diff and ports: a
// directory holding render's state file is a rendered host root, read as
// the files are on disk now; anything else is what bundlediff.Load accepts
// (-, a file, a kustomization directory, an overlay name).
func loadSource(io IO, target string, opts kustbuild.Options) (bundlediff.Source, error) {
	if target != "-" && rendered.IsRoot(target) {
		b, err := rendered.Stream(target)
		if err != nil {
			return bundlediff.Source{}, err
		}
		return bundlediff.Source{Label: "the host root " + target, Stream: b}, nil
	}
	return bundlediff.Load(target, io.Stdin, opts)
}
