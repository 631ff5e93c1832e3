package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"syscall"
)

// desiredFile is one file as render wants it on the host.
type desiredFile struct {
	rel       string // relative to the root, slash-separated
	data      []byte
	mode      fs.FileMode
	placement string
}

// change is a desired file compared with the disk.
type change struct {
	desiredFile
	abs    string
	action Action
}

// commitRank orders renames so that nothing points at a missing file: the
// state record first (teardown can then clean up any crash), configuration
// and certificates next, and the static pod last because the kubelet starts
// the server as soon as its manifest appears.
var commitRank = map[string]int{
	PlacementState: 0, PlacementCertificate: 1, PlacementEgress: 2,
	PlacementOverride: 3, PlacementCluster: 4, PlacementStaticPod: 5,
}

// planChanges compares every desired file with the disk. Files recorded in
// prev but no longer wanted are removed.
func planChanges(root string, want []desiredFile, prev *State, force bool) ([]change, error) {
	var changes []change
	var refused []string
	wanted := map[string]bool{}
	for _, w := range want {
		wanted[w.rel] = true
		c := change{desiredFile: w, abs: filepath.Join(root, filepath.FromSlash(w.rel))}
		action, err := compareDisk(c.abs, w)
		if err != nil {
			return nil, err
		}
		_, ours := prev.file(w.rel)
		if action == ActionUpdate && !ours && !force && w.placement != PlacementState {
			refused = append(refused, c.abs)
		}
		c.action = action
		changes = append(changes, c)
	}
	if len(refused) > 0 {
		return nil, &RefusedError{Paths: refused}
	}
	for _, f := range prev.Files {
		if wanted[f.Path] {
			continue
		}
		abs := filepath.Join(root, filepath.FromSlash(f.Path))
		if _, err := os.Lstat(abs); err == nil {
			changes = append(changes, change{desiredFile: desiredFile{rel: f.Path, placement: f.Placement}, abs: abs, action: ActionRemove})
		}
	}
	sort.SliceStable(changes, func(i, j int) bool {
		ri, rj := commitRank[changes[i].placement], commitRank[changes[j].placement]
		if ri != rj {
			return ri < rj
		}
		return changes[i].rel < changes[j].rel
	})
	return changes, nil
}

// compareDisk decides create, update or unchanged. Same bytes with other
// permissions is an update: a private key must not stay world-readable.
func compareDisk(abs string, w desiredFile) (Action, error) {
	fi, err := os.Lstat(abs)
	if errors.Is(err, os.ErrNotExist) {
		return ActionCreate, nil
	}
	if errors.Is(err, syscall.ENOTDIR) {
		return "", inputErrorf("destination "+abs, "remove or move the file that stands where one of its parent directories should be", "a parent of it is a file, not a directory")
	}
	if err != nil {
		return "", fmt.Errorf("inspect %s: %w", abs, err)
	}
	if fi.IsDir() {
		return "", inputErrorf("destination "+abs, "remove the directory", "is a directory, render needs to write a file there")
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm() != w.mode {
		return ActionUpdate, nil
	}
	got, err := os.ReadFile(abs)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", abs, err)
	}
	if bytes.Equal(got, w.data) {
		return ActionUnchanged, nil
	}
	return ActionUpdate, nil
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
