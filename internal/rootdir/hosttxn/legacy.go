package hosttxn

import (
	"fmt"
	"os"
	"path"
	"regexp"
	"strings"
	"syscall"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// legacyCertTemp is the name certs binaries before the host transaction,
// and the KonnectivityCerts function before it took the same writer, gave a
// certificate file while writing it (os.CreateTemp's pattern
// "."+name+".tmp-*": a decimal suffix); a kill leaves it behind, two of the
// six holding a private key.
var legacyCertTemp = regexp.MustCompile(`^\.(` + strings.ReplaceAll(strings.Join(hostlayout.CertFileNames, "|"), ".", `\.`) + `)\.tmp-[0-9]+$`)

// sweepLegacyCertTemps removes from each certificate directory in dirs
// (root-relative) the temporary files an older certs left: only names of
// exactly that pattern, only regular files (a link is never followed or
// removed), only files the running user owns. It returns what it removed,
// as absolute paths. The caller holds the root's lock.
func sweepLegacyCertTemps(h *hostfs.Root, dirs ...string) ([]string, error) {
	var removed []string
	seen := map[string]bool{}
	for _, d := range dirs {
		if d == "" || seen[d] {
			continue
		}
		seen[d] = true
		got, err := sweepDir(h, d)
		removed = append(removed, got...)
		if err != nil {
			return removed, err
		}
	}
	return removed, nil
}

// CertDirs are the directories st records certificate files in.
func CertDirs(st *hostlayout.State) []string {
	var out []string
	for _, f := range st.Files {
		if f.Placement == hostlayout.PlacementCertificate {
			out = append(out, path.Dir(f.Path))
		}
	}
	return out
}

func sweepDir(h *hostfs.Root, dir string) ([]string, error) {
	names, err := h.ReadDirNames(dir)
	if err != nil {
		return nil, fmt.Errorf("inspect %s: %w", h.Abs(dir), err)
	}
	var removed []string
	for _, n := range names {
		if !legacyCertTemp.MatchString(n) {
			continue
		}
		rel := path.Join(dir, n)
		fi, err := h.Lstat(rel)
		if err != nil {
			return removed, fmt.Errorf("inspect %s: %w", h.Abs(rel), err)
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !fi.Mode().IsRegular() || !ok || int(st.Uid) != os.Geteuid() {
			continue // not a file an older certs of ours wrote
		}
		if err := h.Remove(rel); err != nil {
			return removed, fmt.Errorf("remove %s, left by an older certs: %w", h.Abs(rel), err)
		}
		removed = append(removed, h.Abs(rel))
	}
	return removed, nil
}
