// Package renderedroot reads what render wrote under a host root: its state
// file, the static pod, the cluster manifests and the KAS configuration, and
// maps container paths to the host files behind them.
package renderedroot

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/statefile"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Root is a rendered bootstrap host.
type Root struct {
	Dir   string
	Files []hostlayout.StateFile
	Nodes []*yaml.RNode // static pod and cluster manifests, as written
	// Bundle is the static pod, the cluster manifests and the egress file
	// read into their roles.
	Bundle *bundlemodel.Bundle
	// EgressFile is the egress selector's host path (absolute, under Dir).
	EgressFile string
	// KASMount is how the KAS container sees the bootstrap-configs directory.
	KASMount hostlayout.Mount
	// CertDir is the certificate directory's host path (absolute, under Dir).
	CertDir string
	// Missing lists recorded files that are gone (absolute, under Dir);
	// Load carries on without them so status can report them.
	Missing []string
}

// IsRoot reports whether dir holds a render state file. Anything at the
// state file's path counts, a link or a FIFO too, without following or
// opening it: Load then refuses it, naming the path.
func IsRoot(dir string) bool {
	h, err := hostfs.Open(dir)
	if err != nil {
		return false
	}
	defer h.Close()
	ok, err := h.Exists(hostlayout.StatePath)
	return ok || hostfs.IsLinkError(err)
}

// Load reads the state file and the files it lists.
func Load(dir string) (*Root, error) {
	r := &Root{Dir: dir, Bundle: bundlemodel.New(nil)}
	kas, err := r.readState()
	if err != nil {
		return nil, err
	}
	for _, f := range r.Files {
		abs := r.Abs("/" + f.Path)
		switch f.Placement {
		case hostlayout.PlacementStaticPod, hostlayout.PlacementClusterManifest:
			if err := r.addObjects(abs); errors.Is(err, fs.ErrNotExist) {
				r.Missing = append(r.Missing, abs)
			} else if err != nil {
				return nil, err
			}
		case hostlayout.PlacementCertificate:
			r.CertDir = filepath.Dir(abs)
		}
	}
	nodes := r.Nodes
	if kas.EgressFile != "" {
		r.EgressFile = r.Abs("/" + kas.EgressFile)
		egress, err := r.readNodes(r.EgressFile)
		if errors.Is(err, fs.ErrNotExist) {
			r.Missing = append(r.Missing, r.EgressFile)
			r.EgressFile = ""
		} else if err != nil {
			return nil, err
		}
		nodes = append(slices.Clip(nodes), egress...)
	}
	r.Bundle = bundlemodel.New(nodes)
	r.KASMount = kas.Mount
	if r.EgressFile == "" {
		r.KASMount = hostlayout.InstallerKASMount // no egress file to infer it from
	}
	return r, nil
}

// ReadFile reads a file under the root (abs is under Dir, as Abs returns)
// through the same confinement render uses: a symbolic link or special file
// on the way is an error, never followed out of the root.
func (r *Root) ReadFile(abs string) ([]byte, error) {
	var data []byte
	err := r.confined(abs, func(h *hostfs.Root, rel string) (err error) {
		data, err = h.ReadFile(rel)
		return err
	})
	return data, err
}

// Lstat describes a path under the root (abs is under Dir) without
// following a link on the way to it or at it: status inspects the socket
// with it.
func (r *Root) Lstat(abs string) (fs.FileInfo, error) {
	var fi fs.FileInfo
	err := r.confined(abs, func(h *hostfs.Root, rel string) (err error) {
		fi, err = h.Lstat(rel)
		return err
	})
	return fi, err
}

// confined runs do on abs's root-relative path through hostfs.
func (r *Root) confined(abs string, do func(h *hostfs.Root, rel string) error) error {
	rel, err := filepath.Rel(r.Dir, abs)
	if err != nil || !filepath.IsLocal(rel) {
		return fmt.Errorf("%s is not under the root %s", abs, r.Dir)
	}
	h, err := hostfs.Open(r.Dir)
	if err != nil {
		return err
	}
	defer h.Close()
	return do(h, filepath.ToSlash(rel))
}

// Abs is the file under the root for an absolute host path.
func (r *Root) Abs(hostPath string) string {
	return filepath.Join(r.Dir, filepath.FromSlash(path.Clean("/"+hostPath)))
}

// readState reads the state through statefile's one reader, and what it
// says about the KAS files.
func (r *Root) readState() (hostlayout.KAS, error) {
	h, err := hostfs.Open(r.Dir)
	if err != nil {
		return hostlayout.KAS{}, err
	}
	defer h.Close()
	st, err := statefile.Read(h)
	if err != nil {
		return hostlayout.KAS{}, err
	}
	r.Files = st.Files
	return ReadKAS(h, st)
}

func (r *Root) addObjects(abs string) error {
	nodes, err := r.readNodes(abs)
	if err != nil {
		return err
	}
	r.Nodes = append(r.Nodes, nodes...)
	return nil
}

// readNodes reads the YAML documents of a rendered file.
func (r *Root) readNodes(abs string) ([]*yaml.RNode, error) {
	data, err := r.ReadFile(abs)
	if err == nil {
		err = yamlguard.Check(data)
	}
	if err != nil {
		return nil, fmt.Errorf("rendered file %s listed in the state file: %w", abs, err)
	}
	nodes, err := kio.FromBytes(data)
	if err != nil {
		return nil, fileError(abs, data, err)
	}
	return nodes, nil
}

// KASHostPath maps a path inside the KAS container to the file under the
// root; ok is false when the KAS mount does not cover it.
func (r *Root) KASHostPath(containerPath string) (string, bool) {
	host, ok := r.KASMount.HostPath(containerPath)
	if !ok {
		return "", false
	}
	return r.Abs(host), true
}

// ServerHostPath maps a path inside the server container to the file under
// the root through the static pod's hostPath mounts.
func (r *Root) ServerHostPath(containerPath string) (string, bool) {
	if r.Bundle.Server == nil {
		return "", false
	}
	h, err := r.Bundle.Server.HostPath(containerPath)
	if err != nil {
		return "", false
	}
	return r.Abs(h), true
}

// ReadKAS finds the KAS files in st and infers the mount from them
// (hostlayout.KAS.WithOverride). Without an override, or one that does not
// name the egress file, it is hostlayout.InstallerKASMount. The error is
// for an override that cannot be read: a link, a FIFO or a device in its
// place (never followed or opened), or an I/O error.
func ReadKAS(h *hostfs.Root, st *hostlayout.State) (hostlayout.KAS, error) {
	k := st.KAS()
	if k.EgressFile == "" || k.OverrideFile == "" {
		return k, nil
	}
	data, err := h.ReadFile(k.OverrideFile)
	if errors.Is(err, fs.ErrNotExist) {
		return k, nil
	}
	if err != nil {
		return k, fmt.Errorf("rendered file listed in the state file: %w", err)
	}
	return k.WithOverride(data), nil
}
