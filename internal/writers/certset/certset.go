// Package certset is the certs command's host transaction: under the lock
// of a host root it recovers an interrupted run, removes what an older
// certs left, plans the certificate set and writes what changed as one
// journaled transaction (docs/render.md, certs).
package certset

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/certs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hosttxn"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/writers/render"
)

// Options is one certs run.
type Options struct {
	// Root is the host root whose lock the run holds; it must hold Dir.
	Root string
	// Dir is Certs.Dir made absolute.
	Dir string
	// LockTimeout is how long to wait for another holder of Root's lock.
	LockTimeout time.Duration
	// Certs says what set to keep in Certs.Dir.
	Certs certs.Options
}

// Report says what the run did; Run returns it with what was done so far
// even on error, or nil when it never held the lock.
type Report struct {
	// Dir is the certificate directory as it was given (Certs.Dir), as
	// the report names it.
	Dir string
	// Recovered says how an interrupted run was finished or undone first.
	Recovered string
	// Swept lists the temporary files of an older certs that were removed.
	Swept []string
	// Written names the files rewritten; none means the set was reused.
	Written []string
	// Reason says why the set was generated, or why it was reused.
	Reason string
}

// Cleaned says whether the run changed the host before its own set
// (then the host is not "as before" it started).
func (r *Report) Cleaned() bool {
	return r != nil && (r.Recovered != "" || len(r.Swept) > 0)
}

// NotBeneathError is a --dir outside --root: certs writes only beneath the
// root whose lock it holds.
type NotBeneathError struct{ Dir, Root string }

func (e *NotBeneathError) Error() string {
	return fmt.Sprintf("--dir %s is not beneath --root %s (fix: pass a --root that holds it, / on the bootstrap node)", e.Dir, e.Root)
}

// Run holds Root's session (hosttxn.Begin), refuses a directory outside
// the root or reached through a link before it changes anything, sweeps the
// directory and writes the set. A cancelled ctx stops it before the write
// or, through hosttxn, between two steps of it.
func Run(ctx context.Context, opts Options) (*Report, error) {
	var rel string
	s, err := hosttxn.Begin(ctx, opts.Root, hosttxn.SessionOptions{
		Command: "certs", LockTimeout: opts.LockTimeout,
		Guard: func(h *hostfs.Root) (err error) { rel, err = confine(h, opts.Dir); return err },
	})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	rep := &Report{Dir: opts.Certs.Dir, Recovered: s.Recovered}
	rep.Swept, err = s.Sweep(rel)
	if err != nil {
		return rep, err
	}
	return rep, write(ctx, s.Root, rel, opts.Certs, rep)
}

// confine requires dir beneath the root and refuses a certificate
// directory that is, or is reached through, a symbolic link, or that holds
// a link or special file in place of a certificate file: as root on a host
// that is not ours, certs writes keys only where the path says. It returns
// dir relative to the root, slash-separated.
func confine(h *hostfs.Root, dir string) (string, error) {
	rel, err := filepath.Rel(h.Dir(), dir)
	if err != nil || !filepath.IsLocal(rel) {
		return "", &NotBeneathError{Dir: dir, Root: h.Dir()}
	}
	rel = filepath.ToSlash(rel)
	if err := render.ConfineCertDir(h, rel); err != nil {
		return "", fmt.Errorf("--dir: %w", err)
	}
	return rel, nil
}

// write plans the set and writes what changed (certs.WriteSet), then makes
// the directory a safe place as certs.Write does.
func write(ctx context.Context, h *hostfs.Root, rel string, opts certs.Options, rep *Report) error {
	if err := hosttxn.Stopped(ctx); err != nil {
		return err
	}
	r, err := certs.Plan(opts)
	if err != nil {
		return err
	}
	rep.Reason = r.Reason
	if rep.Written, err = certs.WriteSet(ctx, h, rel, r.Files); err != nil {
		return fmt.Errorf("write the certificates: %w", err)
	}
	if err := certs.SecureDir(h.Abs(rel)); err != nil {
		return fmt.Errorf("the certificates are written, but %w", err)
	}
	return nil
}
