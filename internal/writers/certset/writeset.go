package certset

import (
	"context"
	"fmt"
	"path"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"
)

// writeSet makes dir (root-relative) hold files through one host
// transaction and returns the names it rewrote. Each replaced file is moved
// aside before any new one is put in place (hosttxn.Change.Aside), so at no
// instant, and after no kill, does the directory hold a certificate beside
// a key or CA it does not match; the next run that recovers h finishes or
// undoes an interrupted set from the journal. The caller holds h's lock.
func writeSet(ctx context.Context, h *hostfs.Root, dir string, files map[string][]byte) ([]string, error) {
	var changes []hosttxn.Change
	var written []string
	for _, name := range hostlayout.CertFileNames {
		data, ok := files[name]
		if !ok {
			return nil, fmt.Errorf("the certificate library returned no %s", name)
		}
		rel := path.Join(dir, name)
		mode := certs.ModeOf(name)
		action, old, err := hosttxn.Compare(h, rel, data, mode)
		if err != nil {
			return nil, fmt.Errorf("inspect %s: %w", h.Abs(rel), err)
		}
		changes = append(changes, hosttxn.Change{Rel: rel, Placement: hostlayout.PlacementCertificate,
			Data: data, Mode: mode, Action: action, Old: old, Aside: true})
		if action != hosttxn.Unchanged {
			written = append(written, name)
		}
	}
	if len(written) == 0 {
		return nil, nil
	}
	// The journal's own directory chain is listed too, so a root whose
	// first write is this set is left without it once the set is in place.
	dirs, err := hosttxn.MissingDirs(h, hostlayout.StateDir, dir)
	if err != nil {
		return nil, err
	}
	if err := hosttxn.Apply(ctx, h, "certs", "the certificate set", changes, dirs); err != nil {
		return nil, err
	}
	return written, nil
}
