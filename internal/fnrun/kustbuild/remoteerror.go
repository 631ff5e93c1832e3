package kustbuild

import (
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// VendorFix is what to do about a remote entry, the same from every
// command: the build reads only the tree it is given.
const VendorFix = "vendor each into the tree and list its local path instead, or build with kustomize " +
	"(which runs what you allow it) and pipe its output to `konnectivity-bundle check -` (or `diff -`)"

// RemoteError is a kustomization that names remote bases, files or helm
// charts: bad input, refused before anything is fetched or run, because a
// build (render as root on the bootstrap host, build in CI on a pull
// request) must not reach the network or run git, ssh or helm.
type RemoteError struct {
	Refs []RemoteRef
}

func (e *RemoteError) Error() string {
	var b strings.Builder
	b.WriteString("the kustomization names what kustomize would fetch or run (konnectivity-bundle builds only the local tree: no network, no git, ssh or helm, no KRM function but its own):")
	for _, r := range e.Refs {
		b.WriteString("\n  " + r.line())
	}
	b.WriteString("\n(fix: " + VendorFix + ")")
	return b.String()
}

// line is the ref as the error lists it: file, field, entry, and what
// kustomize would do; a ref without a file (remoteFetchError) is its Why.
func (r RemoteRef) line() string {
	if r.File == "" {
		return textsafe.Escape(r.Why)
	}
	s := textsafe.Escape(r.File) + ": " + textsafe.Escape(r.Field)
	if r.Entry != "" {
		s += ` entry "` + textsafe.Excerpt(r.Entry, 200) + `"`
	}
	return s + " is " + r.Why
}
