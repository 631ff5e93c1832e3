// Package statetest reads a root's state file for tests the way render,
// teardown and status do: through hostfs.Open and hostlayout.ReadState.
package statetest

import (
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// Read opens root and reads its state (nil when there is none).
func Read(root string) (*hostlayout.State, error) {
	h, err := hostfs.Open(root)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	return hostlayout.ReadState(h)
}
