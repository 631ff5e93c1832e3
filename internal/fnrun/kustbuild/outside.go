package kustbuild

import (
	"errors"
	"regexp"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// kustomize refuses a file the kustomization names outside its own
// directory (../x, or a link to /dev/zero or /etc/passwd) with an untyped
// error, "security; file 'F' is not in or below 'D'" (its load
// restrictor's wording since kustomize v3). outsideFileError names it as
// bad input with its fix, so render exits 3 for it as for any other file
// of the kustomization it cannot use.
var kustomizeOutside = regexp.MustCompile(`security; file '([^']*)' is not in or below '([^']*)'`)

// OutsideFileError is a file a kustomization names that resolves outside
// the kustomization's directory: kustomize does not read it.
type OutsideFileError struct {
	File, Dir string
	err       error
}

func (e *OutsideFileError) Error() string {
	return textsafe.Escape(e.File) + " resolves outside the kustomization's directory, so kustomize does not read it " +
		"(fix: put the file itself in that directory: a kustomization reads only files in or below it, and a symbolic link out of it is not followed)"
}

// Unwrap is kustomize's error.
func (e *OutsideFileError) Unwrap() error { return e.err }

// outsideFile is err as an OutsideFileError when kustomize refused a file
// outside the directory, else nil.
func outsideFile(err error) error {
	m := kustomizeOutside.FindStringSubmatch(err.Error())
	if m == nil || errors.As(err, new(*OutsideFileError)) {
		return nil
	}
	return &OutsideFileError{File: m[1], Dir: m[2], err: err}
}
