package certs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"golang.org/x/sys/unix"
)

// TrustReason says why certificates in dir must not be reused, or "" when
// dir is a safe place: a real directory owned by the running user with no
// group or world access, whose files are regular, owned by that user and
// not writable by group or others, with keys readable by the owner alone.
// Anyone else who could write there could have planted a CA or an agent
// key; anyone who could read a key could impersonate its holder.
func TrustReason(dir string) string {
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ""
	case err != nil:
		return fmt.Sprintf("%s cannot be inspected: %v", dir, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Sprintf("%s is a symbolic link", dir)
	case !fi.IsDir():
		return "" // not a place to reuse from at all: Plan reports it
	}
	if r := ownerReason(dir, fi); r != "" {
		return r
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Sprintf("%s has mode %04o, open to group or others (want %04o)", dir, perm, DirMode)
	}
	for _, name := range hostlayout.CertFileNames {
		if r := fileTrustReason(filepath.Join(dir, name)); r != "" {
			return r
		}
	}
	return ""
}

func fileTrustReason(path string) string {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ""
	case err != nil:
		return fmt.Sprintf("%s cannot be inspected: %v", path, err)
	case !fi.Mode().IsRegular():
		return fmt.Sprintf("%s is not a regular file (%v)", path, fi.Mode().Type())
	}
	if r := ownerReason(path, fi); r != "" {
		return r
	}
	perm := fi.Mode().Perm()
	switch {
	case perm&0o022 != 0:
		return fmt.Sprintf("%s has mode %04o, writable by group or others", path, perm)
	case ModeOf(filepath.Base(path)) == KeyMode && perm&0o077 != 0:
		return fmt.Sprintf("%s is a private key with mode %04o, readable by group or others (want %04o)", path, perm, KeyMode)
	}
	return ""
}

func ownerReason(path string, fi fs.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Sprintf("%s: the owner cannot be read on this system", path)
	}
	if euid := os.Geteuid(); int(st.Uid) != euid {
		return fmt.Sprintf("%s is owned by uid %d, not the running user (uid %d)", path, st.Uid, euid)
	}
	return ""
}

// SecureDir makes an existing certificate directory a safe place again:
// owned by the running user and mode DirMode. It does not follow a symbolic
// link at dir.
func SecureDir(dir string) error {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("secure certificate directory %s: %w", dir, err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fmt.Errorf("secure certificate directory %s: %w", dir, err)
	}
	if euid := os.Geteuid(); int(st.Uid) != euid {
		if err := unix.Fchown(fd, euid, os.Getegid()); err != nil {
			return fmt.Errorf("take ownership of certificate directory %s: %w", dir, err)
		}
	}
	if fs.FileMode(st.Mode).Perm() != DirMode {
		if err := unix.Fchmod(fd, uint32(DirMode)); err != nil {
			return fmt.Errorf("restrict %s to %v: %w", dir, DirMode, err)
		}
	}
	return nil
}
