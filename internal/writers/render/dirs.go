package render

import (
	"errors"
	"io/fs"
	"path/filepath"
	"sort"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// dirSpec is a directory render must create.
type dirSpec struct {
	path string // absolute
	rel  string // relative to the root
	mode fs.FileMode
}

// missingDirs lists the directories that do not exist yet under root for
// the files being created, parents first. privateDir (the certificate
// directory, root-relative) is created 0700 because it holds private keys.
func missingDirs(h *hostfs.Root, changes []change, privateDir string) ([]dirSpec, error) {
	seen := map[string]bool{}
	var out []dirSpec
	for _, c := range changes {
		if c.action != hosttxn.Create {
			continue
		}
		var chain []string
		for rel := filepath.Dir(filepath.FromSlash(c.rel)); rel != "." && !seen[rel]; rel = filepath.Dir(rel) {
			fi, err := h.Lstat(filepath.ToSlash(rel))
			if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
				// An ostree host's opt -> var/opt: judged by where it
				// leads, as the writes beneath it resolve it.
				if fi, err = h.DirInfo(filepath.ToSlash(rel)); errors.Is(err, fs.ErrNotExist) {
					return nil, inputErrorf("destination "+textsafe.Escape(h.Abs(rel)), "create the directory it points to, or replace the link with a directory", "is a symbolic link to a directory that does not exist")
				}
			}
			if err == nil && !fi.IsDir() {
				return nil, inputErrorf("destination "+textsafe.Escape(h.Abs(rel)), "remove it, or choose another path in the config", "is a file where render needs a directory")
			}
			if err == nil {
				break
			}
			if !errors.Is(err, fs.ErrNotExist) {
				return nil, inspectError(h, rel, err)
			}
			seen[rel] = true
			chain = append(chain, rel)
		}
		for i := len(chain) - 1; i >= 0; i-- {
			rel := filepath.ToSlash(chain[i])
			mode := fs.FileMode(0o755)
			if rel == privateDir {
				mode = 0o700
			}
			out = append(out, dirSpec{path: h.Abs(rel), rel: rel, mode: mode})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out, nil
}

// dirRels is the root-relative names of dirs, in order.
func dirRels(dirs []dirSpec) []string {
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		out = append(out, d.rel)
	}
	return out
}
