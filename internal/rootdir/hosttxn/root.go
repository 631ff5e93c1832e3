package hosttxn

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// RootError is a --root that cannot be a session's root. Its text is the
// one render's input errors use: "--root: MESSAGE (fix: FIX)".
type RootError struct {
	Message string
	Fix     string
	// Err is set instead when the root passed checkRoot but could not be
	// opened; the error is then Err's own text.
	Err error
}

func (e *RootError) Error() string {
	if e.Err != nil {
		return textsafe.Escape(e.Err.Error())
	}
	return fmt.Sprintf("--root: %s (fix: %s)", textsafe.Value(e.Message), e.Fix) // Message quotes the path
}

// Unwrap is the error of the open, if that failed.
func (e *RootError) Unwrap() error { return e.Err }

// checkRoot requires an existing directory, and with writable one the
// running user may write, and returns it absolute. command names the
// command in the advice for a root it may not write.
func checkRoot(root string, writable bool, command string) (string, error) {
	const fix = "pass an existing directory (/ on the bootstrap node, as root)"
	if root == "" {
		return "", &RootError{Message: "is required", Fix: fix}
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", &RootError{Message: err.Error(), Fix: fix}
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", &RootError{Message: abs + " does not exist", Fix: fix}
	case err != nil:
		return "", &RootError{Message: err.Error(), Fix: fix}
	case !fi.IsDir():
		return "", &RootError{Message: abs + " is a file, not a directory", Fix: fix}
	}
	if writable {
		// The kernel answers, which also says EROFS for root on a
		// read-only mount, where permission bits alone would say yes.
		if err := syscall.Access(abs, 0x2 /* W_OK */); err != nil {
			return "", notWritable(abs, err, os.Geteuid(), command)
		}
	}
	return abs, nil
}

// notWritable is the error for a root command may not write. A user other
// than root denied the bootstrap node's / (or any root) needs root, which
// the command does to write root-owned files, not another directory.
func notWritable(abs string, err error, euid int, command string) *RootError {
	if errors.Is(err, fs.ErrPermission) && euid != 0 {
		return &RootError{
			Message: fmt.Sprintf("%s is not writable by uid %d: %s needs root, to write the root-owned files the kubelet and the installer read", abs, euid, command),
			Fix:     fmt.Sprintf("run it as root (sudo konnectivity-bundle %s ...), or pass a scratch directory you own to try a %s", command, command),
		}
	}
	return &RootError{
		Message: fmt.Sprintf("%s is not writable: %v", abs, err),
		Fix:     "pass an existing writable directory (/ on the bootstrap node, as root)",
	}
}
