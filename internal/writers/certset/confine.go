package certset

import (
	"errors"
	"fmt"
	"os"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// ConfineDir refuses a certificate directory under h (rel is
// root-relative) that is, or is reached through, a symbolic link, or that
// holds a link or special file in place of a certificate file: the
// certificate library reads it by absolute path, so it must be the
// directory beneath the root that it appears to be, and a planted link
// would be read (and its key reused). The certs command checks its --dir
// with it, on the root it holds, and render the configured one. It returns
// the root-relative path it refused with the reason, which each caller
// words.
func ConfineDir(h *hostfs.Root, rel string) (string, error) {
	fi, err := h.Lstat(rel)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return rel, err
	}
	if !fi.IsDir() {
		return rel, &hostfs.UnsafeError{Path: h.Abs(rel), Problem: "is not a directory"}
	}
	for _, name := range hostlayout.CertFileNames {
		if _, err := h.Regular(rel + "/" + name); err != nil && !errors.Is(err, os.ErrNotExist) {
			return rel + "/" + name, err
		}
	}
	return "", nil
}

// destinationError words ConfineDir's refusal of --dir: the path and what
// is there, or what could not be inspected.
func destinationError(h *hostfs.Root, rel string, err error) error {
	var unsafe *hostfs.UnsafeError
	if errors.As(err, &unsafe) {
		return fmt.Errorf("destination %s: %s", textsafe.Value(unsafe.Path), unsafe.Predicate())
	}
	return fmt.Errorf("inspect %s: %w", h.Abs(rel), err)
}
