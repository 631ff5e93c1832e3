package certs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hosttxn"
)

// File and directory modes on disk.
const (
	DirMode  fs.FileMode = 0o700
	KeyMode  fs.FileMode = 0o600
	CertMode fs.FileMode = 0o644
)

// Ensure plans and then writes whatever changed (see Write).
func Ensure(opts Options) (*Result, error) {
	r, err := Plan(opts)
	if err != nil {
		return nil, err
	}
	if _, err := Write(opts.Dir, r); err != nil {
		return nil, err
	}
	return r, nil
}

// Write makes dir hold exactly r.Files and returns the names it rewrote.
// Files whose bytes are already right are not touched (their modification
// times stay), except that modes are tightened to DirMode/KeyMode/CertMode.
// Every changed file is first written in full to a temporary file in dir.
// Then the old files of those names are removed, and only then are the new
// ones renamed into place, the CA pair first: whenever a kill stops it, dir
// holds at most an incomplete set, which the next Plan regenerates, never a
// certificate beside a key or a CA it does not match. The temporary files a
// killed Write left are removed by the next one.
func Write(dir string, r *Result) ([]string, error) {
	if err := ensureDir(dir); err != nil {
		return nil, err
	}
	if err := sweepTemps(dir); err != nil {
		return nil, err
	}
	var changed, temps []string
	defer func() {
		for _, t := range temps {
			os.Remove(t) // a no-op after a successful rename
		}
	}()
	for _, name := range hostlayout.CertFileNames {
		want, ok := r.Files[name]
		if !ok {
			return nil, fmt.Errorf("write certificates: result has no %s", name)
		}
		path := filepath.Join(dir, name)
		if cur, err := os.ReadFile(path); err == nil && bytes.Equal(cur, want) {
			if err := ensureMode(path, modeOf(name)); err != nil {
				return nil, err
			}
			continue
		}
		tmp, err := writeTemp(dir, name, want)
		if err != nil {
			return nil, err
		}
		temps = append(temps, tmp)
		changed = append(changed, name)
	}
	if err := replace(dir, changed, temps); err != nil {
		return nil, err
	}
	return changed, syncDir(dir, len(changed) > 0)
}

// replace removes the old files of the changed names, makes that durable,
// and renames each temporary file to its name, in CertFileNames order (the
// CA pair before the leaves it signs).
func replace(dir string, changed, temps []string) error {
	for _, name := range changed {
		if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("write certificates: remove the old %s: %w", name, err)
		}
	}
	if err := syncDir(dir, len(changed) > 0); err != nil {
		return err
	}
	for i, name := range changed {
		if err := os.Rename(temps[i], filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("write certificates: %w", err)
		}
	}
	return nil
}

// sweepTemps removes the temporary files a killed Write (or an older certs
// command) left in dir, two of them possibly copies of a private key. Only
// exact names are removed, only regular files of the running user, never
// through a link (hosttxn.SweepLegacyCertTemps).
func sweepTemps(dir string) error {
	h, err := hostfs.Open(dir)
	if err != nil {
		return fmt.Errorf("certificate directory: %w", err)
	}
	defer h.Close()
	if _, err := hosttxn.SweepLegacyCertTemps(h, "."); err != nil {
		return fmt.Errorf("certificate directory: %w", err)
	}
	return nil
}

func modeOf(name string) fs.FileMode {
	if filepath.Ext(name) == ".key" {
		return KeyMode
	}
	return CertMode
}

// ensureDir creates dir (parents 0755, dir itself 0700) or makes it a safe
// place again (SecureDir).
func ensureDir(dir string) error {
	if err := os.MkdirAll(filepath.Dir(filepath.Clean(dir)), 0o755); err != nil {
		return fmt.Errorf("create certificate directory: %w", err)
	}
	if err := os.Mkdir(dir, DirMode); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create certificate directory: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("certificate directory: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("certificate directory %s is not a directory (fix: remove it, or give another directory)", dir)
	}
	return SecureDir(dir)
}

func ensureMode(path string, mode fs.FileMode) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("stat %s: %w", path, err)
	}
	if fi.Mode().Perm() == mode {
		return nil
	}
	if err := os.Chmod(path, mode); err != nil {
		return fmt.Errorf("restrict %s to %v: %w", path, mode, err)
	}
	return nil
}

// writeTemp writes data with its final mode to a hidden temporary file in
// dir (same file system, so the rename is atomic) and flushes it to disk.
func writeTemp(dir, name string, data []byte) (string, error) {
	f, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return "", fmt.Errorf("write %s: %w", name, err)
	}
	err = f.Chmod(modeOf(name))
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("write %s: %w", filepath.Join(dir, name), err)
	}
	return f.Name(), nil
}

// syncDir makes the renames durable.
func syncDir(dir string, changed bool) error {
	if !changed {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
