package bundlesource

import (
	"fmt"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/manifest"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// Side is one of diff's two bundles, read and parsed.
type Side struct {
	// Label names the bundle in output (Source.Label).
	Label string
	// Objects are its objects, in stream order.
	Objects []manifest.Object
}

// Pair reads diff's A and B, each built with its own options: as Load
// resolves them, or as embedded overlays' names (overlays). A side's
// error says which side it is.
func Pair(in Stdin, args [2]string, overlays bool, opts [2]kustbuild.Options) ([2]Side, error) {
	var sides [2]Side
	for i, arg := range args {
		name := "AB"[i : i+1]
		var src Source
		var err error
		if overlays {
			src, err = Overlay(arg, opts[i])
		} else {
			src, err = Load(in, arg, opts[i])
		}
		if err == nil {
			err = src.RefuseUnknownFields()
		}
		if err != nil {
			return sides, fmt.Errorf("%s: %w", name, err)
		}
		objects, err := manifest.Parse(src.Stream)
		if err != nil {
			return sides, fmt.Errorf("%s (%s): %w", name, textsafe.Value(src.Label), err) // a path typed with a newline starts no line
		}
		sides[i] = Side{Label: src.Label, Objects: objects}
	}
	return sides, nil
}
