package certset

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"
)

// EnsureDir plans the set in opts.Dir and writes whatever changed there
// (writeDir): what the KonnectivityCerts function does with spec.generate
// (internal/cli hands it to the function through internal/fnrun/dispatch).
func EnsureDir(opts certs.Options) (*certs.Result, error) {
	r, err := certs.Plan(opts)
	if err != nil {
		return nil, err
	}
	if _, err := writeDir(opts.Dir, r); err != nil {
		return nil, err
	}
	return r, nil
}

// writeDir makes dir hold exactly r.Files and returns the names it
// rewrote, through the journaled writer the certs command uses (writeSet).
// Nothing hands the KonnectivityCerts function a host root, so dir itself
// is the root it locks and journals in: the journal's directories exist inside
// dir only while a set is written, and the next writeDir finishes or undoes
// what a killed one left, then removes the temporary files an older writer
// left (functions/certs/README.md, "Writing").
func writeDir(dir string, r *certs.Result) ([]string, error) {
	return writeWithin(dir, r, hostfs.DefaultLockTimeout)
}

// writeWithin is writeDir waiting at most wait for another writer of dir.
func writeWithin(dir string, r *certs.Result, wait time.Duration) ([]string, error) {
	if err := ensureDir(dir); err != nil {
		return nil, err
	}
	// Under the lock, before recovery: a writeDir that waits for another
	// writer changes nothing meanwhile.
	var planted error
	s, err := hosttxn.Begin(context.Background(), dir, hosttxn.SessionOptions{LockTimeout: wait,
		Guard: func(*hostfs.Root) error { planted = dropPlanted(dir); return planted }})
	var locked *hostfs.LockedError
	if planted != nil {
		return nil, planted
	}
	if errors.As(err, &locked) {
		return nil, fmt.Errorf("certificate directory %s is in use by %s, still after %s (fix: let that run finish)", dir, locked.Holder, locked.Timeout)
	}
	if err != nil {
		return nil, fmt.Errorf("certificate directory: %w", err)
	}
	defer s.Close()
	if _, err := s.Sweep("."); err != nil {
		return nil, fmt.Errorf("certificate directory: %w", err)
	}
	written, err := writeSet(context.Background(), s.Root, ".", r.Files)
	if err != nil {
		return nil, fmt.Errorf("write certificates: %w", err)
	}
	return written, nil
}

// dropPlanted removes a link or special file at a certificate file's name
// in dir, which hostfs would refuse to replace: Plan trusts nothing in such
// a place and regenerates all six, and the function has always replaced
// what sat there, never following it. dir itself is no link (ensureDir).
func dropPlanted(dir string) error {
	for _, name := range hostlayout.CertFileNames {
		p := filepath.Join(dir, name)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && (fi.Mode().IsRegular() || fi.IsDir())) {
			continue
		}
		if err == nil {
			err = os.Remove(p) // unlinks the link or special file itself
		}
		if err != nil {
			return fmt.Errorf("write certificates: remove the old %s: %w", name, err)
		}
	}
	return nil
}

// ensureDir creates dir (parents 0755, dir itself 0700) or makes it a safe
// place again (certs.SecureDir). It cannot go through hostfs: dir is the
// root.
func ensureDir(dir string) error {
	if err := os.MkdirAll(filepath.Dir(filepath.Clean(dir)), 0o755); err != nil {
		return fmt.Errorf("create certificate directory: %w", err)
	}
	if err := os.Mkdir(dir, certs.DirMode); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create certificate directory: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("certificate directory: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("certificate directory %s is not a directory (fix: remove it, or give another directory)", dir)
	}
	return certs.SecureDir(dir)
}
