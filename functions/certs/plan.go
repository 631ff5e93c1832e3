package certs

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/hostlayout"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
)

// Result is what Plan decided and the files that follow from it.
type Result struct {
	Generated bool              // false: the existing files are reused byte for byte
	Reason    string            // why (re)generated, e.g. `bootstrap IP changed from 192.0.2.10 to 192.0.2.11`; when reused, why they are still good
	Files     map[string][]byte // all six files by name, exactly the bytes that are (or would be) on disk
}

// Plan reads the certificate directory and decides whether its files can
// be reused; if not it generates replacements in memory. It writes nothing.
//
// A bad or expiring CA replaces all six files. A CA that is still good is
// kept and only a bad leaf is replaced, so agents that already trust the CA
// keep working when, say, only the bootstrap IP changed. Files in a place
// that is not safe (TrustReason) are not even read: all six are replaced.
func Plan(opts Options) (*Result, error) {
	s, err := opts.settings()
	if err != nil {
		return nil, err
	}
	if reason := TrustReason(s.dir); reason != "" {
		return generateAll(s, reason+", so no certificate there is trusted")
	}
	files, err := readFiles(s.dir)
	if err != nil {
		return nil, err
	}
	return plan(s, files)
}

func plan(s settings, files map[string][]byte) (*Result, error) {
	if len(files) == 0 {
		return generateAll(s, fmt.Sprintf("no certificates in %s yet", s.dir))
	}
	ca, reason := inspectCA(s, files)
	if reason != "" {
		return generateAll(s, reason)
	}
	out := maps.Clone(files)
	var reasons []string
	for _, k := range []leafKind{serverLeaf, agentLeaf} {
		reason := inspectLeaf(s, files, k, ca.cert)
		if reason == "" {
			continue
		}
		p, err := newLeaf(s, k, ca.cert, ca.key)
		if err != nil {
			return nil, err
		}
		out[k.certFn], out[k.keyFn] = p.cert, p.key
		if !slices.Contains(reasons, reason) {
			reasons = append(reasons, reason)
		}
	}
	if len(reasons) == 0 {
		return &Result{Reason: reuseReason(s, files), Files: out}, nil
	}
	return checked(s, &Result{Generated: true, Reason: strings.Join(reasons, "; "), Files: out})
}

// generateAll makes a new CA and both leaves.
func generateAll(s settings, reason string) (*Result, error) {
	ca, err := newCA(s)
	if err != nil {
		return nil, err
	}
	caCert, err := parseCertPEM(ca.cert)
	if err != nil {
		return nil, fmt.Errorf("parse new CA certificate: %w", err)
	}
	caKey, err := parseKeyPEM(ca.key)
	if err != nil {
		return nil, fmt.Errorf("parse new CA key: %w", err)
	}
	files := map[string][]byte{hostlayout.CACertFile: ca.cert, hostlayout.CAKeyFile: ca.key}
	for _, k := range []leafKind{serverLeaf, agentLeaf} {
		p, err := newLeaf(s, k, caCert, caKey)
		if err != nil {
			return nil, err
		}
		files[k.certFn], files[k.keyFn] = p.cert, p.key
	}
	return checked(s, &Result{Generated: true, Reason: reason, Files: files})
}

// checked runs the reuse checks on freshly made files: a slip in the
// signing code (a wrong usage, a leaf outliving its CA) fails here instead
// of reaching the host.
func checked(s settings, r *Result) (*Result, error) {
	ca, reason := inspectCA(s, r.Files)
	if reason == "" {
		for _, k := range []leafKind{serverLeaf, agentLeaf} {
			if reason = inspectLeaf(s, r.Files, k, ca.cert); reason != "" {
				break
			}
		}
	}
	if reason != "" {
		return nil, fmt.Errorf("generated certificates fail their own checks: %s", reason)
	}
	return r, nil
}

func reuseReason(s settings, files map[string][]byte) string {
	first := time.Time{}
	for _, name := range []string{hostlayout.CACertFile, hostlayout.ServerCertFile, hostlayout.AgentCertFile} {
		c, _ := parseCertPEM(files[name])
		if first.IsZero() || c.NotAfter.Before(first) {
			first = c.NotAfter
		}
	}
	return fmt.Sprintf("certificates for %s in %s are valid until %s", s.ip, s.dir, first.Format(time.RFC3339))
}

// readFiles returns the certificate files that exist, each read through
// internal/rootdir/hostfs: a link, a FIFO or a device in place of one is an error
// naming it, never followed or opened. A missing directory is an empty
// one; any other read error is returned.
func readFiles(dir string) (map[string][]byte, error) {
	files := map[string][]byte{}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return files, nil
	case err == nil && !fi.IsDir():
		return nil, fmt.Errorf("certificate directory %s is not a directory (fix: remove it, or give another directory)", dir)
	}
	h, err := hostfs.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("read certificate directory: %w", err)
	}
	defer h.Close()
	for _, name := range hostlayout.CertFileNames {
		b, err := h.ReadFile(name)
		switch {
		case err == nil:
			files[name] = b
		case errors.Is(err, fs.ErrNotExist):
		default:
			return nil, fmt.Errorf("read certificate directory: %w", err)
		}
	}
	return files, nil
}
