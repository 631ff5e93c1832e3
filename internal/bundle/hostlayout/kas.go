package hostlayout

import (
	"path"
	"strings"
)

// Mount maps a host directory into a container.
type Mount struct{ Host, Container string }

// The installer's bootstrap kube-apiserver mounts InstallerConfigDir at
// InstallerKASConfigDir: the generator's defaults, and what status and probe
// assume when the rendered files do not say otherwise.
const (
	InstallerConfigDir    = "/etc/kubernetes/bootstrap-configs"
	InstallerKASConfigDir = "/etc/kubernetes/config"
)

// InstallerKASMount is the installer's mount as a Mount.
var InstallerKASMount = Mount{Host: InstallerConfigDir, Container: InstallerKASConfigDir}

// String is the mount as the kas-config-mount annotation writes it:
// HOSTDIR:CONTAINERDIR.
func (m Mount) String() string { return m.Host + ":" + m.Container }

// HostPath maps a path inside the container to the host path behind it;
// ok is false when the mount does not cover it.
func (m Mount) HostPath(containerPath string) (string, bool) {
	c := path.Clean(containerPath)
	if c == m.Container {
		return m.Host, true
	}
	rel, ok := strings.CutPrefix(c, m.Container+"/")
	if !ok {
		return "", false
	}
	return path.Join(m.Host, rel), true
}

// KAS is what render wrote for the bootstrap kube-apiserver, as the state
// lists it.
type KAS struct {
	EgressFile   string // root-relative; "" when the state lists none
	OverrideFile string // root-relative; "" when the state lists none
	Mount        Mount  // how the kube-apiserver sees the egress file's directory
}

// KAS finds the KAS files in the state; the mount is InstallerKASMount
// until WithOverride infers it (internal/rootdir/renderedroot.ReadKAS reads
// the override for it).
func (s *State) KAS() KAS {
	k := KAS{Mount: InstallerKASMount}
	for _, f := range s.Files {
		switch f.Placement {
		case PlacementKASEgressConfig:
			k.EgressFile = f.Path
		case PlacementKASConfigOverride:
			k.OverrideFile = f.Path
		}
	}
	return k
}

// WithOverride infers the mount from the override file's content: the
// override names the egress file as the kube-apiserver sees it, the state
// says where it is on the host, and their common tail is the mounted
// directory's content. An override that does not name the egress file, or
// a KAS without both files, keeps the mount it has.
func (k KAS) WithOverride(override []byte) KAS {
	if k.EgressFile == "" {
		return k
	}
	if inKAS, ok := overrideFileEgressArg(override); ok {
		k.Mount = commonTail(inKAS, "/"+k.EgressFile, k.Mount)
	}
	return k
}

// commonTail strips the path elements inKAS and onHost share from the end;
// what is left is the mounted directory on each side, or def if nothing is.
func commonTail(inKAS, onHost string, def Mount) Mount {
	inKAS, onHost = path.Clean(inKAS), path.Clean(onHost)
	for path.Base(inKAS) == path.Base(onHost) && inKAS != "/" && onHost != "/" {
		inKAS, onHost = path.Dir(inKAS), path.Dir(onHost)
		if path.Base(inKAS) != path.Base(onHost) {
			return Mount{Host: onHost, Container: inKAS}
		}
	}
	return def
}
