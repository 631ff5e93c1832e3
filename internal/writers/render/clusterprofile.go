package render

import (
	"errors"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/intake/yamlguard"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/hostfs"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/rootdir/installprofile"
)

// clusterProfile reads the install's APIServer/cluster manifest under the
// root (docs/config.md, "The TLS profile"). A manifest render cannot
// follow, or two that disagree, is bad input naming the manifest, the
// field and the fix; nothing is written.
func clusterProfile(h *hostfs.Root) (*installprofile.Found, error) {
	f, err := installprofile.Read(h)
	var bad *installprofile.Error
	var guard *yamlguard.Error
	switch {
	case errors.As(err, &bad):
		return nil, &InputError{Field: bad.Path + ": " + bad.Field, Message: bad.Message, Fix: bad.Fix}
	case errors.As(err, &guard): // its message names the file
		return nil, &InputError{Message: err.Error(), Fix: "repair or remove that manifest: cluster-bootstrap would refuse it too"}
	}
	return f, err
}
