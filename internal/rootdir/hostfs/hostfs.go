// Package hostfs is the one place render, teardown and their crash recovery
// touch files under --root. Every path is resolved beneath the root with
// os.Root, and a symbolic link or special file on the way is refused, so a
// link planted in the root can never send a write or a removal elsewhere.
package hostfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/inputread"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// Op names a change for the fault seam.
type Op string

// The changes a Root makes.
const (
	OpMkdir  Op = "mkdir"
	OpWrite  Op = "write"
	OpLink   Op = "link"
	OpRename Op = "rename"
	OpRemove Op = "remove"
	OpSync   Op = "sync"
)

// Root is an open host root.
type Root struct {
	dir string
	r   *os.Root
	// checked caches directories already verified link-free (rel ->
	// resolved), forgotten when they are renamed or removed. os.Root
	// confines every call anyway; the cache only saves re-walking.
	mu      sync.Mutex
	checked map[string]string
	dirf    *os.File // the root directory, for openat2 (open.go)
	// Fault, when set, runs before every change and fails it with the
	// error it returns: the seam fault tests use. rel is "OLD -> NEW" for
	// a link or rename.
	Fault func(op Op, rel string) error
}

// UnsafeError is a path component render will not go through.
type UnsafeError struct {
	Path    string // absolute, including the root
	Problem string // "is a symbolic link", ...
}

func (e *UnsafeError) Error() string { return textsafe.Escape(e.Path) + " " + e.Predicate() }

// Predicate is the error without its path, for a caller that names the
// path itself (as "destination PATH").
func (e *UnsafeError) Predicate() string {
	if e.Problem == problemNotDir {
		return "is a file where a directory should be (fix: remove or move that file; a destination's parent directories must be real directories)"
	}
	return e.Problem + "; konnectivity-bundle never follows a link or opens a special file under --root " +
		"(fix: remove it, or replace it with the real directory, file or socket)"
}

// problemNotDir is a file standing where a parent directory should be: no
// link is involved, so the message says what to move instead.
const problemNotDir = "is not a directory"

// Open opens dir (absolute) as the root.
func Open(dir string) (*Root, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open --root %s: %w", dir, err)
	}
	return &Root{dir: dir, r: r, checked: map[string]string{}}, nil
}

// Close releases the root.
func (r *Root) Close() error {
	r.mu.Lock()
	if r.dirf != nil {
		_ = r.dirf.Close()
		r.dirf = nil
	}
	r.mu.Unlock()
	return r.r.Close()
}

// Dir is the root's absolute path.
func (r *Root) Dir() string { return r.dir }

// Abs is the absolute path of rel, for messages.
func (r *Root) Abs(rel string) string { return filepath.Join(r.dir, filepath.FromSlash(rel)) }

// resolve checks every directory on the way to rel and returns the path to
// hand to os.Root. A symbolic link is refused, except one directly under
// the root whose target is a plain relative path inside it: that is how
// ostree hosts (RHCOS, the bootstrap node's OS) lay out /opt -> var/opt.
func (r *Root) resolve(rel string) (string, error) { return r.resolveFrom(rel, true) }

func (r *Root) resolveFrom(rel string, topLinkOK bool) (string, error) {
	rel = filepath.FromSlash(rel)
	if !filepath.IsLocal(rel) || filepath.Clean(rel) != rel {
		return "", &UnsafeError{Path: r.Abs(rel), Problem: "is not a clean path beneath the root"}
	}
	parts := strings.Split(rel, string(filepath.Separator))
	cur := ""
	start := 0
	if topLinkOK {
		r.mu.Lock()
		for i := len(parts) - 1; i > 0; i-- {
			if res, ok := r.checked[filepath.Join(parts[:i]...)]; ok {
				cur, start = res, i
				break
			}
		}
		r.mu.Unlock()
	}
	for i := start; i < len(parts)-1; i++ {
		part := parts[i]
		next := filepath.Join(cur, part)
		fi, err := r.r.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			return filepath.Join(append([]string{next}, parts[i+1:]...)...), nil
		}
		if err != nil {
			return "", fmt.Errorf("inspect %s: %w", r.Abs(next), err)
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0 && i == 0 && topLinkOK:
			target, err := r.r.Readlink(next)
			if err != nil || !filepath.IsLocal(target) {
				return "", &UnsafeError{Path: r.Abs(next), Problem: "is a symbolic link out of the root"}
			}
			if next, err = r.resolveFrom(filepath.Join(target, "x"), false); err != nil {
				return "", err
			}
			next = filepath.Dir(next)
		case fi.Mode()&fs.ModeSymlink != 0:
			return "", &UnsafeError{Path: r.Abs(next), Problem: "is a symbolic link"}
		case !fi.IsDir():
			return "", &UnsafeError{Path: r.Abs(next), Problem: problemNotDir}
		}
		cur = next
		if topLinkOK {
			r.mu.Lock()
			r.checked[filepath.Join(parts[:i+1]...)] = cur
			r.mu.Unlock()
		}
	}
	return filepath.Join(cur, parts[len(parts)-1]), nil
}

// noLink resolves rel and refuses it when it is itself a symbolic link.
func (r *Root) noLink(rel string) (string, error) {
	p, err := r.resolve(rel)
	if err != nil {
		return "", err
	}
	if p == "." {
		return p, nil
	}
	fi, err := r.r.Lstat(p)
	if err != nil {
		return "", err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return "", &UnsafeError{Path: r.Abs(rel), Problem: "is a symbolic link"}
	}
	return p, nil
}

// forget drops cached directories at or below rel after it changed.
func (r *Root) forget(rel string) {
	rel = filepath.FromSlash(rel)
	r.mu.Lock()
	defer r.mu.Unlock()
	for k := range r.checked {
		if k == rel || strings.HasPrefix(k, rel+string(filepath.Separator)) {
			delete(r.checked, k)
		}
	}
}

func (r *Root) fault(op Op, rel string) error {
	if r.Fault == nil {
		return nil
	}
	return r.Fault(op, rel)
}

// Lstat describes rel itself (a link is not followed).
func (r *Root) Lstat(rel string) (fs.FileInfo, error) {
	p, err := r.resolve(rel)
	if err != nil {
		return nil, err
	}
	return r.r.Lstat(p)
}

// DirInfo describes the directory rel names as a path through it resolves:
// the ostree top-level link (opt -> var/opt) is followed to its target inside
// the root, as every write beneath it is; any other link is refused. A
// dangling top-level link is fs.ErrNotExist.
func (r *Root) DirInfo(rel string) (fs.FileInfo, error) {
	p, err := r.dirPath(rel)
	if err != nil {
		return nil, err
	}
	return r.r.Lstat(p)
}

// dirPath is the path to hand os.Root for the directory rel, resolved as
// the way to a file in it is.
func (r *Root) dirPath(rel string) (string, error) {
	p, err := r.resolve(path.Join(rel, "x"))
	if err != nil {
		return "", err
	}
	return filepath.Dir(p), nil
}

// Exists reports whether rel exists; an unsafe path is an error.
func (r *Root) Exists(rel string) (bool, error) {
	_, err := r.Lstat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// Regular is Lstat that refuses anything but a regular file; a missing
// file is fs.ErrNotExist.
func (r *Root) Regular(rel string) (fs.FileInfo, error) {
	fi, err := r.Lstat(rel)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, &UnsafeError{Path: r.Abs(rel), Problem: "is a symbolic link"}
	}
	if !fi.Mode().IsRegular() {
		return nil, r.kindError(rel, fi.Mode(), 0)
	}
	return fi, nil
}

// ReadFile reads a regular file through OpenRegular: a link, a FIFO, a
// device or anything else but a regular file is refused, never opened. A
// file larger than the cap of inputread.HostFile is refused unread.
func (r *Root) ReadFile(rel string) ([]byte, error) {
	f, err := r.OpenRegular(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return inputread.Reader(f, r.Abs(rel), inputread.HostFile)
}

// ReadDirNames lists a directory's entries; a missing directory is empty,
// a link or anything else but a directory at rel is refused.
func (r *Root) ReadDirNames(rel string) ([]string, error) {
	f, err := r.openAs(rel, fs.ModeDir, unix.O_DIRECTORY)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// WriteNew creates rel (which must not exist) with data and perm. It does
// not fsync; Sync does.
func (r *Root) WriteNew(rel string, data []byte, perm fs.FileMode) error {
	if err := r.fault(OpWrite, rel); err != nil {
		return err
	}
	p, err := r.resolve(rel)
	if err != nil {
		return err
	}
	f, err := r.r.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = r.r.Remove(p)
	}
	return err
}

// Replace puts data at rel atomically: written to tmp (a scratch name the
// caller chooses, so a crash leaves a name recovery knows), flushed, and
// renamed over rel. A failed step removes tmp. The parent directory is not
// flushed: the caller knows which one to flush, and when.
func (r *Root) Replace(tmp, rel string, data []byte, perm fs.FileMode) error {
	err := r.WriteNew(tmp, data, perm)
	if err == nil {
		err = r.Sync(tmp)
	}
	if err == nil {
		err = r.Rename(tmp, rel)
	}
	if err != nil {
		_ = r.Remove(tmp)
	}
	return err
}

// Mkdir creates one directory.
func (r *Root) Mkdir(rel string, perm fs.FileMode) error {
	if err := r.fault(OpMkdir, rel); err != nil {
		return err
	}
	p, err := r.resolve(rel)
	if err != nil {
		return err
	}
	return r.r.Mkdir(p, perm)
}

// Link makes newRel a hard link to oldRel.
func (r *Root) Link(oldRel, newRel string) error {
	return r.two(OpLink, oldRel, newRel, r.r.Link)
}

// Rename moves oldRel to newRel, replacing it.
func (r *Root) Rename(oldRel, newRel string) error {
	return r.two(OpRename, oldRel, newRel, r.r.Rename)
}

func (r *Root) two(op Op, oldRel, newRel string, do func(string, string) error) error {
	if err := r.fault(op, oldRel+" -> "+newRel); err != nil {
		return err
	}
	r.forget(oldRel)
	r.forget(newRel)
	o, err := r.resolve(oldRel)
	if err != nil {
		return err
	}
	n, err := r.resolve(newRel)
	if err != nil {
		return err
	}
	return do(o, n)
}

// Remove removes a file or an empty directory; a symbolic link there is
// someone else's and is refused.
func (r *Root) Remove(rel string) error {
	if err := r.fault(OpRemove, rel); err != nil {
		return err
	}
	r.forget(rel)
	p, err := r.noLink(rel)
	if err != nil {
		return err
	}
	return r.r.Remove(p)
}

// RemoveAll removes a directory tree of render's own scratch space.
func (r *Root) RemoveAll(rel string) error {
	if err := r.fault(OpRemove, rel); err != nil {
		return err
	}
	r.forget(rel)
	p, err := r.resolve(rel)
	if err != nil {
		return err
	}
	return r.r.RemoveAll(p)
}

// SyncAll flushes files or directories concurrently: the file system
// batches concurrent fsyncs into one journal commit, where one after the
// other costs a commit each.
func (r *Root) SyncAll(rels []string) error {
	errs := make([]error, len(rels))
	var wg sync.WaitGroup
	for i, rel := range rels {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r.Sync(rel); err != nil {
				errs[i] = fmt.Errorf("sync %s: %w", r.Abs(rel), err)
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Sync flushes a file or directory to disk.
func (r *Root) Sync(rel string) error {
	if err := r.fault(OpSync, rel); err != nil {
		return err
	}
	p, err := r.noLink(rel)
	var unsafe *UnsafeError
	if errors.As(err, &unsafe) && !strings.Contains(rel, "/") {
		// The ostree top-level link (opt -> var/opt): flushing a new
		// directory's parent flushes the directory it leads to.
		if dp, derr := r.dirPath(rel); derr == nil {
			p, err = dp, nil
		}
	}
	if err != nil {
		return err
	}
	f, err := r.r.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
