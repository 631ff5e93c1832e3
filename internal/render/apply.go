package render

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// fsOps are the file system calls the transaction makes, so tests can fail
// any one of them midway and check the host is left as it was.
type fsOps struct {
	mkdir     func(path string, perm fs.FileMode) error
	writeTemp func(dir, pattern string, data []byte, perm fs.FileMode) (string, error)
	link      func(oldname, newname string) error
	rename    func(oldname, newname string) error
	remove    func(name string) error
}

var osOps = fsOps{mkdir: os.Mkdir, writeTemp: writeTemp, link: os.Link, rename: os.Rename, remove: os.Remove}

// txn writes a set of changes all or nothing. Every new file is first
// written to a temporary name in its own directory (so the rename is
// atomic); a file being replaced or removed is kept as a hard link until
// the end, so rollback restores the original inode, bytes and mtime.
type txn struct {
	ops     fsOps
	dirs    []string          // created by this txn, parents first
	temps   map[string]string // destination -> temporary file
	backups map[string]string // destination -> hard link to the original
	done    []change          // committed, in order
}

func newTxn(ops fsOps) *txn {
	return &txn{ops: ops, temps: map[string]string{}, backups: map[string]string{}}
}

// apply runs the transaction; on any error the host is restored.
func (t *txn) apply(changes []change, dirs []dirSpec) (err error) {
	defer func() {
		if err != nil {
			if rbErr := t.rollback(); rbErr != nil {
				err = fmt.Errorf("%w; rollback also failed, inspect the host: %v", err, rbErr)
			}
		}
	}()
	for _, d := range dirs {
		if err := t.ops.mkdir(d.path, d.mode); err != nil {
			return fmt.Errorf("create directory %s: %w", d.path, err)
		}
		t.dirs = append(t.dirs, d.path)
	}
	for _, c := range changes {
		if c.action != ActionCreate && c.action != ActionUpdate {
			continue
		}
		tmp, err := t.ops.writeTemp(filepath.Dir(c.abs), "."+filepath.Base(c.abs)+".kb-tmp-*", c.data, c.mode)
		if err != nil {
			return fmt.Errorf("write %s: %w", c.abs, err)
		}
		t.temps[c.abs] = tmp
	}
	// The new content is on disk before any rename can publish it.
	temps := make([]string, 0, len(t.temps))
	for _, tmp := range t.temps {
		temps = append(temps, tmp)
	}
	if err := syncAll(temps); err != nil {
		return err
	}
	for _, c := range changes {
		if err := t.commit(c); err != nil {
			return err
		}
	}
	t.cleanupBackups()
	return syncAll(changedDirs(changes)) // makes the renames durable
}

func (t *txn) commit(c change) error {
	if c.action == ActionUnchanged {
		return nil
	}
	if c.action == ActionUpdate || c.action == ActionRemove {
		bak := t.temps[c.abs] + ".bak"
		if c.action == ActionRemove {
			// unique, so a link left by a crashed run cannot block this one
			bak = fmt.Sprintf("%s/.%s.kb-bak-%d", filepath.Dir(c.abs), filepath.Base(c.abs), time.Now().UnixNano())
		}
		if err := t.ops.link(c.abs, bak); err != nil {
			return fmt.Errorf("keep a backup of %s: %w", c.abs, err)
		}
		t.backups[c.abs] = bak
	}
	if c.action == ActionRemove {
		if err := t.ops.remove(c.abs); err != nil {
			return fmt.Errorf("remove %s: %w", c.abs, err)
		}
	} else {
		if err := t.ops.rename(t.temps[c.abs], c.abs); err != nil {
			return fmt.Errorf("put %s in place: %w", c.abs, err)
		}
		delete(t.temps, c.abs)
	}
	t.done = append(t.done, c)
	return nil
}

// rollback undoes committed changes newest first, then removes temporary
// files and the directories this transaction created.
func (t *txn) rollback() error {
	var errs []error
	for i := len(t.done) - 1; i >= 0; i-- {
		c := t.done[i]
		if bak, ok := t.backups[c.abs]; ok {
			errs = append(errs, os.Rename(bak, c.abs))
			delete(t.backups, c.abs)
		} else {
			errs = append(errs, os.Remove(c.abs))
		}
	}
	for _, tmp := range t.temps {
		errs = append(errs, ignoreNotExist(os.Remove(tmp)))
	}
	t.cleanupBackups()
	for i := len(t.dirs) - 1; i >= 0; i-- {
		errs = append(errs, ignoreNotExist(os.Remove(t.dirs[i])))
	}
	return errors.Join(errs...)
}

func (t *txn) cleanupBackups() {
	for dest, bak := range t.backups {
		_ = os.Remove(bak) // only a leftover hidden link if this fails
		delete(t.backups, dest)
	}
}

// writeTemp creates a uniquely named file with its content and final mode;
// apply flushes it before the rename publishes it.
func writeTemp(dir, pattern string, data []byte, perm fs.FileMode) (string, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	name := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(name)
		return "", err
	}
	return name, nil
}

// syncAll fsyncs files or directories concurrently: the file system
// batches concurrent fsyncs into one journal commit, where one after the
// other costs a commit each (10 ms against 100+ ms for a render here).
func syncAll(paths []string) error {
	errs := make([]error, len(paths))
	var wg sync.WaitGroup
	for i, p := range paths {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f, err := os.Open(p)
			if err == nil {
				err = f.Sync()
				f.Close()
			}
			if err != nil {
				errs[i] = fmt.Errorf("sync %s: %w", p, err)
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func changedDirs(changes []change) []string {
	seen := map[string]bool{}
	var dirs []string
	for _, c := range changes {
		if d := filepath.Dir(c.abs); c.action != ActionUnchanged && !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	return dirs
}

func ignoreNotExist(err error) error {
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}
