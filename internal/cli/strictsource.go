package cli

import (
	"fmt"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/functions/check"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/fnrun/kustbuild"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// refuseUnknownFields refuses a bundle FILE or stdin (src.Read) holding a
// field its object's Kubernetes type does not have, as a kustomization
// directory's build is refused (kustbuild.UnknownFieldsError): ports and
// diff would otherwise read and compare a misspelled field the API server
// drops at apply time. check reports it as a finding instead (rule
// unknown-field). A stream that does not parse is left to the caller's
// parser.
func refuseUnknownFields(src bundleSource) error {
	if !src.Read {
		return nil
	}
	b, err := bundlemodel.Parse(src.Stream)
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
	return &kustbuild.UnknownFieldsError{Lines: lines, File: src.Label}
}
