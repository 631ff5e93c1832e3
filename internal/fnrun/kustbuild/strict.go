package kustbuild

import (
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/api/resmap"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/strictobj"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/report/textsafe"
)

// refuseUnknownFields fails a build whose output holds a field its object's
// Kubernetes type does not have (internal/bundle/strictobj): kustomize patches
// merge any key, and the API server drops the unknown one at apply time,
// so a misspelled nodeSelector would leave the agents unrestricted. Every
// such field is named, with its object and the field meant.
func refuseUnknownFields(m resmap.ResMap) error {
	var lines []string
	for _, r := range m.Resources() {
		apiVersion, kind := r.GetApiVersion(), r.GetKind()
		if !strictobj.Known(apiVersion, kind) {
			continue
		}
		js, err := r.MarshalJSON()
		if err != nil {
			return fmt.Errorf("%s %s: encoding as JSON: %w", textsafe.Value(kind), objectName(r.GetNamespace(), r.GetName()), err)
		}
		ps, err := strictobj.Check(apiVersion, kind, js)
		if err != nil {
			return fmt.Errorf("%s %s does not decode as a %s %s: %w", textsafe.Value(kind), objectName(r.GetNamespace(), r.GetName()),
				textsafe.Value(apiVersion), textsafe.Value(kind), textsafe.Err(err))
		}
		for _, p := range ps {
			lines = append(lines, fmt.Sprintf("  %s %s: %s", textsafe.Value(kind), objectName(r.GetNamespace(), r.GetName()), p))
		}
	}
	if len(lines) == 0 {
		return nil
	}
	return &UnknownFieldsError{Lines: lines}
}

// UnknownFieldsError is a built bundle, or a bundle file, with fields its
// objects' Kubernetes types do not have: bad input, like a config its
// generator refuses.
type UnknownFieldsError struct {
	Lines []string // "  Kind namespace/name: path: unknown field (hint)"
	// File names the bundle file (or stdin) the fields were read from;
	// "" for a build.
	File string
}

func (e *UnknownFieldsError) Error() string {
	if e.File != "" {
		return textsafe.Escape(e.File) + " has fields its Kubernetes types do not (the API server would drop them at apply time):\n" +
			strings.Join(e.Lines, "\n") + "\n(fix: correct or remove them in that file)"
	}
	return "the built bundle has fields its Kubernetes types do not (the API server would drop them at apply time):\n" +
		strings.Join(e.Lines, "\n") + "\n(fix: correct or remove them in the patch that adds them)"
}

// objectName is namespace/name as a line shows it: both come from the
// bundle, so they are escaped (internal/report/textsafe).
func objectName(namespace, name string) string {
	if namespace == "" {
		return textsafe.Escape(name)
	}
	return textsafe.Escape(namespace + "/" + name)
}
