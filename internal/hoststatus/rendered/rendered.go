// Package rendered reads what render wrote under a host root: its state
// file, the static pod, the cluster manifests and the KAS configuration, and
// maps container paths to the host files behind them.
package rendered

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	bundle "github.com/bootstrap-konnectivity/konnectivity-bundle/functions/bundle/v1alpha1"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/manifest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/netreq"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/yamlguard"
	"sigs.k8s.io/yaml"
)

// StatePath is render's state file relative to the root (docs/render.md).
const StatePath = "var/lib/konnectivity-bundle/state.json"

// Placement of the certificate files in the state file.
const placementCertificate = "certificate"

// File is one file render recorded.
type File struct {
	Path      string `json:"path"` // relative to the root
	SHA256    string `json:"sha256"`
	Placement string `json:"placement"`
}

// Root is a rendered bootstrap host.
type Root struct {
	Dir     string
	Files   []File
	Objects []manifest.Object // static pod and cluster manifests
	Bundle  *netreq.Bundle
	// EgressFile is the egress selector's host path (absolute, under Dir).
	EgressFile string
	// KASMount is how the KAS container sees the bootstrap-configs directory.
	KASMount Mount
	// CertDir is the certificate directory's host path (absolute, under Dir).
	CertDir string
	// Missing lists recorded files that are gone (absolute, under Dir);
	// Load carries on without them so status can report them.
	Missing []string
}

// Mount maps a host directory into a container.
type Mount struct{ Host, Container string }

// ErrNotRendered means the root has no state file: render has not run there.
var ErrNotRendered = errors.New("no state file")

// IsRoot reports whether dir holds a render state file.
func IsRoot(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, StatePath))
	return err == nil
}

// Load reads the state file and the files it lists.
func Load(dir string) (*Root, error) {
	r := &Root{Dir: dir, Bundle: &netreq.Bundle{}}
	if err := r.readState(); err != nil {
		return nil, err
	}
	var overrideFile string
	for _, f := range r.Files {
		abs := r.Abs("/" + f.Path)
		switch f.Placement {
		case bundle.PlacementStaticPod, bundle.PlacementClusterManifest:
			if err := r.addObjects(abs); errors.Is(err, fs.ErrNotExist) {
				r.Missing = append(r.Missing, abs)
			} else if err != nil {
				return nil, err
			}
		case bundle.PlacementKASEgressConfig:
			r.EgressFile = abs
		case bundle.PlacementKASConfigOverride:
			overrideFile = abs
		case placementCertificate:
			r.CertDir = filepath.Dir(abs)
		}
	}
	b, err := netreq.Read(r.Objects)
	if err != nil {
		return nil, fmt.Errorf("rendered manifests under %s: %w", dir, err)
	}
	if r.EgressFile != "" {
		b.Egress, err = r.readYAML(r.EgressFile)
		if errors.Is(err, fs.ErrNotExist) {
			r.Missing = append(r.Missing, r.EgressFile)
			r.EgressFile = ""
		} else if err != nil {
			return nil, err
		}
	}
	r.Bundle = b
	r.KASMount = r.kasMount(overrideFile)
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

func (r *Root) readState() error {
	p := filepath.Join(r.Dir, StatePath)
	data, err := r.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w at %s: render has not written this root (run konnectivity-bundle render --root %s, or pass the right --root)", ErrNotRendered, p, r.Dir)
	}
	if err != nil {
		return fmt.Errorf("read state file: %w", err)
	}
	var s struct {
		Files []File `json:"files"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("state file %s is damaged: %w", p, err)
	}
	r.Files = s.Files
	return nil
}

func (r *Root) addObjects(abs string) error {
	data, err := r.ReadFile(abs)
	if err == nil {
		err = yamlguard.Check(data)
	}
	if err != nil {
		return fmt.Errorf("rendered file listed in the state file: %w", err)
	}
	objs, err := manifest.Parse(data)
	if err != nil {
		return fmt.Errorf("%s: %w", abs, err)
	}
	r.Objects = append(r.Objects, objs...)
	return nil
}

func (r *Root) readYAML(p string) (map[string]any, error) {
	data, err := r.ReadFile(p)
	if err == nil {
		err = yamlguard.Check(data)
	}
	if err != nil {
		return nil, fmt.Errorf("rendered file listed in the state file: %w", err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return m, nil
}

// kasMount infers the KAS mount from the rendered files: the override names
// the egress file as the KAS sees it, the state file says where it is on the
// host, and their common tail is the mounted directory's content. Without
// an override it is the installer's convention (docs/bundle-shape.md).
func (r *Root) kasMount(overrideFile string) Mount {
	def := Mount{Host: bundle.DefaultBootstrapConfigDir, Container: bundle.DefaultKASConfigDir}
	if overrideFile == "" || r.EgressFile == "" {
		return def
	}
	o, err := r.readYAML(overrideFile)
	if err != nil {
		return def
	}
	args, _ := o["apiServerArguments"].(map[string]any)
	vals, _ := args[bundle.EgressFileArgument].([]any)
	if len(vals) != 1 {
		return def
	}
	inKAS := path.Clean(fmt.Sprint(vals[0]))
	onHost := "/" + filepath.ToSlash(strings.TrimPrefix(r.EgressFile, r.Dir))
	onHost = path.Clean(onHost)
	for path.Base(inKAS) == path.Base(onHost) && inKAS != "/" && onHost != "/" {
		inKAS, onHost = path.Dir(inKAS), path.Dir(onHost)
		if path.Base(inKAS) != path.Base(onHost) {
			return Mount{Host: onHost, Container: inKAS}
		}
	}
	return def
}

// KASHostPath maps a path inside the KAS container to the file under the
// root; ok is false when the KAS mount does not cover it.
func (r *Root) KASHostPath(containerPath string) (string, bool) {
	c := path.Clean(containerPath)
	if c == r.KASMount.Container {
		return r.Abs(r.KASMount.Host), true
	}
	rel, ok := strings.CutPrefix(c, r.KASMount.Container+"/")
	if !ok {
		return "", false
	}
	return r.Abs(path.Join(r.KASMount.Host, rel)), true
}

// ServerHostPath maps a path inside the server container to the file under
// the root through the static pod's hostPath mounts.
func (r *Root) ServerHostPath(containerPath string) (string, bool) {
	if r.Bundle.Server == nil {
		return "", false
	}
	h, ok := r.Bundle.Server.HostPath(containerPath)
	if !ok {
		return "", false
	}
	return r.Abs(h), true
}
