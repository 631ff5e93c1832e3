package render

import (
	"errors"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// previousState is the state an earlier run left; none at all reads as an
// empty state, so a first render and a re-run take one path.
func previousState(h *hostfs.Root) (*hostlayout.State, error) {
	st, err := hostlayout.ReadState(h)
	if errors.Is(err, hostlayout.ErrNotRendered) {
		return &hostlayout.State{Version: hostlayout.StateVersion}, nil
	}
	return st, err
}
