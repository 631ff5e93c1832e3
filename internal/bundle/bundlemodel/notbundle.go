package bundlemodel

import (
	"fmt"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// NotABundleError is a stream that is no bundle at all: empty, or none of
// its documents a Kubernetes object (a text file, a config of another
// tool). check, ports and diff decide it here alone, so they say it alike.
type NotABundleError struct {
	// Documents is how many YAML documents the stream holds (0: empty).
	Documents int
	// First says what the first document is, with the start of its text.
	First string
}

// Error says what the input holds instead of a bundle.
func (e *NotABundleError) Error() string {
	if e.Documents == 0 {
		return "not a bundle: the input is empty, no object at all"
	}
	return fmt.Sprintf("not a bundle: none of its %d YAML document(s) is a Kubernetes object (apiVersion and kind); the first %s", e.Documents, e.First)
}

// NotABundleFix is what command takes instead, for every input that is not a bundle.
func NotABundleFix(command string) string {
	return "give " + command + " a bundle: the output of konnectivity-bundle build or kustomize build, an overlay name, " +
		"a kustomization directory, or a root render wrote"
}

// NotABundle is the *NotABundleError of b when it holds documents and
// none is a Kubernetes object; nil otherwise. An empty stream is left to
// the caller: a bootstrap-in-place build is empty (overlay sno), and so is
// kustomize's output when it skips the generator.
func (b *Bundle) NotABundle() error {
	if len(b.Objects) == 0 {
		return nil
	}
	for _, o := range b.Objects {
		if o.APIVersion != "" && o.Kind != "" {
			return nil
		}
	}
	return &NotABundleError{Documents: len(b.Objects), First: describeDocument(b.Objects[0].Node)}
}

// excerptRunes is how much of a document's first line the error quotes.
const excerptRunes = 40

// describeDocument says what a document is, with the start of its text,
// so the error names what the command got ("a scalar: root:x:0:0:...").
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
