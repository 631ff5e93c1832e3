package check

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// ReadCertDir reads the certificates of a certificate directory for
// Options.CertFiles through internal/rootdir/hostfs: a link, a FIFO or a device in
// place of a file is an error naming it, never followed or opened.
//
// The read is the function's own: the KonnectivityCheck function runs in
// kustomize against spec.certDir, a directory it is handed with no host
// command around it, so it must read that directory itself, and as safely
// as the host commands do. hostfs is that one confined reader (it locks and
// journals nothing; the host transaction, internal/rootdir/hosttxn, stays
// with the writers). check --cert-dir reads through it too.
func ReadCertDir(dir string) (map[string][]byte, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("certificate directory: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("certificate directory %s is not a directory", dir)
	}
	h, err := hostfs.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("certificate directory: %w", err)
	}
	defer h.Close()
	return ReadCertFiles(h.ReadFile)
}

// ReadCertFiles reads a certificate directory's files with read, which
// takes a file name. Missing files are left out; an unreadable one is an
// error.
func ReadCertFiles(read func(name string) ([]byte, error)) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, name := range hostlayout.CertFileNames { // certificates, and which key files exist
		data, err := read(name)
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
