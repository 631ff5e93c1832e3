package bundlesource

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/check"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/renderedroot"
)

// Model is ports' Load: the bundle read into its roles, and its label. A
// rendered root is read as render left it (renderedroot.Load); a FILE or
// stdin with a field its type lacks is refused (RefuseUnknownFields), and
// so is a stream that is no bundle at all (bundlemodel.NotABundle), which
// would otherwise read as a bundle deploying no tunnel.
func Model(in Stdin, target string, opts kustbuild.Options) (string, *bundlemodel.Bundle, error) {
	src, dir, err := readArg(in, target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		src, err = overlayArg(target, opts)
	case err != nil || !dir:
	case renderedroot.IsRoot(target):
		r, err := renderedroot.Load(target)
		if err != nil {
			return "", nil, err
		}
		return "the host root " + target, r.Bundle, nil
	default:
		src, err = buildDir(target, opts)
	}
	if err == nil {
		err = src.RefuseUnknownFields()
	}
	if err != nil {
		return "", nil, err
	}
	b, err := bundlemodel.Parse(src.Stream)
	if err == nil {
		err = notABundle(b, in.Command)
	}
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", textsafe.Value(src.Label), err) // a path typed with a newline starts no line
	}
	return src.Label, b, nil
}

// notABundle is b's NotABundle with what command takes instead.
func notABundle(b *bundlemodel.Bundle, command string) error {
	if err := b.NotABundle(); err != nil {
		return fmt.Errorf("%w; %s", err, bundlemodel.NotABundleFix(command))
	}
	return nil
}

// RefuseUnknownFields refuses a bundle FILE or stdin (Read) holding a
// field its object's Kubernetes type does not have, as a kustomization
// directory's build is refused (kustbuild.UnknownFieldsError): ports and
// diff would otherwise read and compare a misspelled field the API server
// drops at apply time. check reports it as a finding instead (rule
// unknown-field). A stream that does not parse is left to the caller's
// parser.
func (s Source) RefuseUnknownFields() error {
	if !s.Read {
		return nil
	}
	b, err := bundlemodel.Parse(s.Stream)
	if err != nil {
		return nil
	}
	var lines []string
	for _, o := range b.Objects {
		for _, p := range check.UnknownFields(o) {
			lines = append(lines, fmt.Sprintf("  %s: %s", textsafe.Value(o.Ref()), p))
		}
	}
	if len(lines) == 0 {
		return nil
	}
	return &kustbuild.UnknownFieldsError{Lines: lines, File: s.Label}
}
