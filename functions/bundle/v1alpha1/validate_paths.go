package v1alpha1

import (
	"fmt"
	"path"
	"strings"
)

// Host paths are created, written, made 0700 and removed by render and
// teardown as root, so the rules below keep every one of them in a place of
// its own (docs/config.md, "Ports and paths", lists them).
const (
	// maxPathBytes and maxNameBytes are Linux's PATH_MAX (with its NUL) and
	// NAME_MAX: a longer path cannot be opened at all.
	maxPathBytes = 4095
	maxNameBytes = 255
	// minCertDirDepth keeps the 0700 certificate directory off shared
	// directories such as /opt or /etc/kubernetes.
	minCertDirDepth = 3
)

// systemDirs hold the host's own software and configuration; no bundle file
// belongs inside them. The kubelet's directories are the parts of /etc the
// bundle may use.
var (
	systemDirs          = []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/boot", "/dev", "/proc", "/sys"}
	systemDirExceptions = []string{"/etc/kubernetes", "/etc/kubelet.d"}
)

// hostDir is a directory whose content some component acts on as a whole.
type hostDir struct {
	field string // spec.paths field that sets it; "" for a fixed host directory
	dir   string
	role  string
}

// Fixed directories of the host: whatever the config says, the kubelet runs
// every manifest in the first and cluster-bootstrap applies every file in the
// second.
var fixedHostDirs = []hostDir{
	{"", "/etc/kubernetes/manifests", "the kubelet's static pod directory"},
	{"", DefaultClusterManifestsDir, "the installer's cluster manifests directory"},
}

func (p *PathsSpec) hostDirs() []hostDir {
	return append([]hostDir{
		{"spec.paths.bootstrapConfigDir", p.BootstrapConfigDir, "the bootstrap-configs directory"},
		{"spec.paths.certDir", p.CertDir, "the certificate directory"},
		{"spec.paths.staticPodManifest", path.Dir(p.StaticPodManifest), "the kubelet's static pod directory"},
		{"spec.paths.clusterManifestsDir", p.ClusterManifestsDir, "the installer's cluster manifests directory"},
	}, fixedHostDirs...)
}

const hostDirFix = "give the bootstrap-configs, certificate, static pod and cluster manifests directories one place each: the kubelet runs every manifest in its static pod directory, cluster-bootstrap applies every file in the manifests directory, and the certificate directory is made 0700"

// hostPaths checks the fields that name places on the bootstrap host.
func (v *validator) hostPaths(p *PathsSpec) {
	for _, f := range []struct{ field, value string }{
		{"spec.paths.bootstrapConfigDir", p.BootstrapConfigDir},
		{"spec.paths.certDir", p.CertDir},
		{"spec.paths.staticPodManifest", p.StaticPodManifest},
		{"spec.paths.clusterManifestsDir", p.ClusterManifestsDir},
		{"spec.paths.kasConfigOverride", p.KASConfigOverride},
	} {
		if dir := systemDir(f.value); dir != "" {
			v.add(f.field, "use a directory under /etc/kubernetes, /opt/openshift or /var/lib", "%q is inside the system directory %s, which the bundle must not write to", f.value, dir)
		}
	}
	if depth(p.CertDir) < minCertDirDepth {
		v.add("spec.paths.certDir", "use a directory of its own such as "+DefaultCertDir,
			"%q is too shallow: render makes the certificate directory 0700 and keeps private keys in it, so it must be at least %d levels deep", p.CertDir, minCertDirDepth)
	}
	v.hostDirsApart(p)
}

// hostDirsApart refuses a hostDir directory equal to or inside another
// of a different role, and the override inside any of them.
func (v *validator) hostDirsApart(p *PathsSpec) {
	all := p.hostDirs()
	reported := map[string]bool{}
	for i, a := range all {
		for j, b := range all {
			if a.role == b.role || !within(b.dir, a.dir) || (a.dir == b.dir && j < i) {
				continue // an equal pair is reported once
			}
			key := a.dir + "|" + a.role + "|" + b.dir + "|" + b.role
			field, msg := overlap(a, b)
			if field == "" || reported[key] {
				continue
			}
			reported[key] = true
			v.add(field, hostDirFix, "%s", msg)
		}
	}
	for _, a := range all {
		if within(p.KASConfigOverride, a.dir) && !reported["override"+a.dir] {
			reported["override"+a.dir] = true
			v.add("spec.paths.kasConfigOverride", "keep the override next to, not inside, the bundle's directories, e.g. "+defaultKASConfigOverride,
				"%q is inside %s %s", p.KASConfigOverride, a.role, a.dir)
		}
	}
}

// overlap names the field to blame for b being a or inside it, and says so.
func overlap(a, b hostDir) (field, msg string) {
	switch {
	case a.dir == b.dir && a.field == "":
		return b.field, fmt.Sprintf("%s %q is also %s", b.role, b.dir, a.role)
	case a.dir == b.dir:
		field, msg = a.field, fmt.Sprintf("%s %q is also %s", a.role, a.dir, b.role)
		if b.field != "" {
			msg += " (" + b.field + ")"
		}
	case b.field != "":
		field, msg = b.field, fmt.Sprintf("%s %q is inside %s %s", b.role, b.dir, a.role, a.dir)
		if a.field != "" {
			msg += " (" + a.field + ")"
		}
	default:
		field, msg = a.field, fmt.Sprintf("%s %q contains %s %s", a.role, a.dir, b.role, b.dir)
	}
	return field, msg
}

// pathText refuses what no path can carry intact: control characters (a NUL
// ends the path, a newline splits the state file and the annotations), and
// lengths Linux cannot open.
func (v *validator) pathText(field, value string) bool {
	if i := strings.IndexFunc(value, isControl); i >= 0 {
		v.add(field, "remove the control character", "%q contains the control character %q at byte %d", value, value[i], i)
		return false
	}
	if len(value) > maxPathBytes {
		v.add(field, fmt.Sprintf("shorten it to at most %d bytes", maxPathBytes), "the path is %d bytes, longer than Linux's limit of %d", len(value), maxPathBytes)
		return false
	}
	for _, name := range strings.Split(value, "/") {
		if len(name) > maxNameBytes {
			v.add(field, fmt.Sprintf("shorten each path element to at most %d bytes", maxNameBytes),
				"the element %.20q... is %d bytes, longer than the %d a file name can have", name, len(name), maxNameBytes)
			return false
		}
	}
	return true
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

func systemDir(p string) string {
	for _, d := range systemDirExceptions {
		if within(p, d) {
			return ""
		}
	}
	for _, d := range systemDirs {
		if within(p, d) {
			return d
		}
	}
	return ""
}

// within reports whether p is dir or inside it (both clean and absolute).
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

func depth(p string) int {
	return len(strings.Split(strings.Trim(p, "/"), "/"))
}
