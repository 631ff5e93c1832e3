package certs

import (
	"io/fs"
	"path/filepath"
)

// File and directory modes on disk.
const (
	DirMode  fs.FileMode = 0o700
	KeyMode  fs.FileMode = 0o600
	CertMode fs.FileMode = 0o644
)

// ModeOf is the mode of the certificate file name on disk: KeyMode for a
// private key, CertMode otherwise.
func ModeOf(name string) fs.FileMode {
	if filepath.Ext(name) == ".key" {
		return KeyMode
	}
	return CertMode
}
