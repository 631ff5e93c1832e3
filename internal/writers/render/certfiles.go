package render

import (
	"errors"
	"os"
	"path"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/certset"
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
// link, or that is one, or holds a link or special file in place of a
// certificate file (certset.ConfineDir, the one rule), as a bad input.
func confineDir(h *hostfs.Root, rel string) error {
	if bad, err := certset.ConfineDir(h, rel); err != nil {
		return inspectError(h, bad, err)
	}
	return nil
}

// confineCertDir opens the root for confineDir.
func confineCertDir(root, rel string) error {
	h, err := hostfs.Open(root)
	if err != nil {
		return err
	}
	defer h.Close()
	return confineDir(h, rel)
}
