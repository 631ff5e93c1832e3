package check

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/hostlayout"
)

// ReadCertDir reads the certificates of a certificate directory for
// Options.CertFiles. Missing files are left out; an unreadable one is an error.
func ReadCertDir(dir string) (map[string][]byte, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("certificate directory: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("certificate directory %s is not a directory", dir)
	}
	out := map[string][]byte{}
	for _, name := range hostlayout.CertFileNames { // certificates, and which key files exist
		data, err := os.ReadFile(filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("certificate directory: %w", err)
		}
		out[name] = data
	}
	return out, nil
}
