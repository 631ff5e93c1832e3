package render

import (
	"errors"
	"os"
	"path"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// checkCertFiles refuses damaged files in the certificate directory rel
// under root: a truncated key usually means an interrupted copy or a full
// disk, and silently replacing it would hide that from whoever is debugging
// the host. Each file is read through hostfs, never through a link.
func checkCertFiles(root, rel string) error {
	h, err := hostfs.Open(root)
	if err != nil {
		return err
	}
	defer h.Close()
	for _, name := range hostlayout.CertFileNames {
		data, err := h.ReadFile(path.Join(rel, name))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		field := "certificate file " + h.Abs(path.Join(rel, name))
		fix := "delete the damaged file (render generates a new set), or pass --force to regenerate"
		if err != nil {
			return inputErrorf(field, fix, "cannot read: %v", err)
		}
		if err := certs.CheckFile(name, data); err != nil {
			return inputErrorf(field, fix, "%v", err)
		}
	}
	return nil
}

// confineDir refuses a certificate directory reached through a symbolic
// link, or that is one: the certificate library reads it by absolute path,
// so it must be the directory beneath the root that it appears to be.
func confineDir(h *hostfs.Root, rel string) error {
	fi, err := h.Lstat(rel)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return inspectError(h, rel, err)
	}
	if !fi.IsDir() {
		return inspectError(h, rel, &hostfs.UnsafeError{Path: h.Abs(rel), Problem: "is not a directory"})
	}
	for _, name := range hostlayout.CertFileNames { // a planted link would be read (and its key reused)
		if _, err := h.Regular(rel + "/" + name); err != nil && !errors.Is(err, os.ErrNotExist) {
			return inspectError(h, rel+"/"+name, err)
		}
	}
	return nil
}

// ConfineCertDir refuses a certificate directory under h (rel is
// root-relative) that is, or is reached through, a symbolic link, or that
// holds a link or special file in place of a certificate file: the certs
// command checks its --dir with it, on the root it holds, as render checks
// the configured one.
func ConfineCertDir(h *hostfs.Root, rel string) error { return confineDir(h, rel) }

// confineCertDir opens the root for confineDir.
func confineCertDir(root, rel string) error {
	h, err := hostfs.Open(root)
	if err != nil {
		return err
	}
	defer h.Close()
	return confineDir(h, rel)
}
