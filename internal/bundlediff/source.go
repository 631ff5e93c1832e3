package bundlediff

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/kustbuild"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/yamlguard"
)

// Source is one side of a comparison: its bytes and how to name it.
type Source struct {
	Label  string
	Stream []byte
}

// Load reads arg as `-` (stdin), a bundle file, a kustomization directory
// (built) or an overlay name (built). Only directories and overlays use opts.
func Load(arg string, stdin io.Reader, opts kustbuild.Options) (Source, error) {
	if arg == "-" {
		b, err := yamlguard.ReadAll(stdin, "stdin")
		if err != nil {
			return Source{}, err
		}
		return Source{Label: "stdin", Stream: b}, nil
	}
	st, err := os.Stat(arg)
	switch {
	case err == nil && !st.IsDir():
		b, err := yamlguard.ReadFile(arg)
		if err != nil {
			return Source{}, fmt.Errorf("read bundle file: %w", err)
		}
		return Source{Label: arg, Stream: b}, nil
	case err == nil:
		return build(arg, arg, opts)
	case !errors.Is(err, fs.ErrNotExist):
		return Source{}, err
	}
	if !slices.Contains(kustbuild.Overlays(), arg) {
		return Source{}, fmt.Errorf("%q is not a file, a directory or an overlay (%s); give a bundle file, a kustomization directory, an overlay name or -", arg, strings.Join(kustbuild.Overlays(), ", "))
	}
	return LoadOverlay(arg, opts)
}

// LoadOverlay builds an embedded overlay by name.
func LoadOverlay(name string, opts kustbuild.Options) (Source, error) {
	if !slices.Contains(kustbuild.Overlays(), name) {
		return Source{}, fmt.Errorf("%q is not an overlay; overlays: %s", name, strings.Join(kustbuild.Overlays(), ", "))
	}
	b, err := kustbuild.BuildOverlay(name, opts)
	if err != nil {
		return Source{}, err
	}
	return Source{Label: "overlay " + name, Stream: b}, nil
}

func build(target, label string, opts kustbuild.Options) (Source, error) {
	b, err := kustbuild.Build(target, opts)
	if err != nil {
		return Source{}, err
	}
	return Source{Label: label, Stream: b}, nil
}
