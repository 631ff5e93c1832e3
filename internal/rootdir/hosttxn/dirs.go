package hosttxn

import (
	"bytes"
	"errors"
	"io/fs"
	"slices"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// MissingDirs lists the directories of each root-relative chain in rels
// that do not exist yet, parents first and each once: Apply's dirs for a
// transaction that writes into them. A file where a directory belongs is
// an UnsafeError naming it.
func MissingDirs(h *hostfs.Root, rels ...string) ([]string, error) {
	var out []string
	for _, rel := range rels {
		parts := strings.Split(rel, "/")
		for i := range parts {
			p := strings.Join(parts[:i+1], "/")
			if p == "." || slices.Contains(out, p) {
				continue
			}
			fi, err := h.Lstat(p)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				out = append(out, p)
			case err != nil:
				return nil, err
			case !fi.IsDir():
				return nil, &hostfs.UnsafeError{Path: h.Abs(p), Problem: "is not a directory"}
			}
		}
	}
	slices.Sort(out) // parents sort before their children
	return out, nil
}

// ErrIsDir is Compare's error for a directory where a file is wanted.
var ErrIsDir = errors.New("is a directory")

// Compare decides what writing data with mode at rel does, and hashes
// what is there. Same bytes with other permissions is an update: a private
// key must not stay world-readable.
func Compare(h *hostfs.Root, rel string, data []byte, mode fs.FileMode) (Action, string, error) {
	fi, err := h.Lstat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return Create, "", nil
	}
	if err != nil {
		return "", "", err
	}
	if fi.IsDir() {
		return "", "", ErrIsDir
	}
	got, err := h.ReadFile(rel)
	if err != nil {
		return "", "", err
	}
	if fi.Mode().Perm() == mode && bytes.Equal(got, data) {
		return Unchanged, SHA256(got), nil
	}
	return Update, SHA256(got), nil
}
