package check

import (
	"fmt"
	"strings"

	"github.com/bootstrap-konnectivity/konnectivity-bundle/internal/bundle/bundlemodel"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// NotABundleRule is the rule id of a stream none of whose documents is a
// Kubernetes object (a text file, a config of another tool): the only
// finding check reports for it, since every other rule would only say the
// same thing object by object.
const NotABundleRule = "not-a-bundle"

// notABundleFix is what check takes, for every input that is not a bundle.
const notABundleFix = "give check a bundle: the output of konnectivity-bundle build or kustomize build, an overlay name, " +
	"a kustomization directory, or a root render wrote"

// notABundle is the not-a-bundle finding of b, naming what the input holds
// instead, or nil when one of its documents is a Kubernetes object (or it
// has none: checkEmpty says an empty stream, which is what kustomize
// prints when it skips the generator).
func notABundle(b *bundlemodel.Bundle) *report {
	if len(b.Objects) == 0 {
		return nil
	}
	for _, o := range b.Objects {
		if o.APIVersion != "" && o.Kind != "" {
			return nil
		}
	}
	r := &report{}
	r.errorf(NotABundleRule, bundleObject, "", notABundleFix,
		"not a bundle: none of its %d YAML document(s) is a Kubernetes object (apiVersion and kind); the first %s", len(b.Objects), describeDocument(b.Objects[0].Node))
	return r
}

// excerptRunes is how much of a document's first line the finding quotes.
const excerptRunes = 40

// describeDocument says what a document is, with the start of its text,
// so the finding names what check got ("a scalar: root:x:0:0:...").
func describeDocument(n *yaml.RNode) string {
	text, err := n.String()
	if err != nil {
		text = ""
	}
	first, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	if r := []rune(first); len(r) > excerptRunes { // runes: a cut never splits a character
		first = string(r[:excerptRunes]) + "..."
	}
	what := "is a mapping without apiVersion and kind"
	switch n.YNode().Kind {
	case yaml.ScalarNode:
		what = "is plain text (a YAML scalar)"
	case yaml.SequenceNode:
		what = "is a list"
	}
	return fmt.Sprintf("%s, beginning %q", what, first)
}
