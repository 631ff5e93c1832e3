package egressprobe

import (
	"fmt"
	"path"
	"path/filepath"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostlayout"
)

// kasView is what the probe needs of a rendered root: the egress file and
// how the kube-apiserver sees its directory. It reads only the state and
// the override, not the whole bundle status parses.
type kasView struct {
	dir        string
	EgressFile string // absolute, under dir; "" when render wrote none
	KASMount   hostlayout.Mount
}

// readKAS reads the state under root through hostlayout's one reader.
func readKAS(root string) (*kasView, error) {
	h, err := hostfs.Open(root)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	st, err := hostlayout.ReadState(h)
	if err != nil {
		return nil, err
	}
	kas := hostlayout.ReadKAS(h, st)
	v := &kasView{dir: root, KASMount: hostlayout.InstallerKASMount}
	if kas.EgressFile == "" {
		return v, nil
	}
	// A recorded egress file that is gone is no egress file, as status sees
	// it; one behind a link is an error, never followed out of the root.
	ok, err := h.Exists(kas.EgressFile)
	if err != nil {
		return nil, fmt.Errorf("rendered file listed in the state file: %w", err)
	}
	if ok {
		v.EgressFile, v.KASMount = h.Abs(kas.EgressFile), kas.Mount
	}
	return v, nil
}

// KASHostPath maps a path inside the kube-apiserver container to the file
// under the root; ok is false when the mount does not cover it.
func (v *kasView) KASHostPath(containerPath string) (string, bool) {
	host, ok := v.KASMount.HostPath(containerPath)
	if !ok {
		return "", false
	}
	return filepath.Join(v.dir, filepath.FromSlash(path.Clean("/"+host))), true
}
