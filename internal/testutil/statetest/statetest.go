// Package statetest reads a root's state file for tests the way render,
// teardown and status do: through hostfs.Open and statefile.Read.
package statetest

import (
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/statefile"
)

// Read opens root and reads its state (nil when there is none).
func Read(root string) (*hostlayout.State, error) {
	h, err := hostfs.Open(root)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	return statefile.Read(h)
}
